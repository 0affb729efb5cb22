"""Figures: performance profiles, ECDFs, pairwise scatter, time boxes, scaling and variability.

Every figure stays readable at any grid size: one panel per solver with the formulations as
lines or boxes (at most MAX_FORMULATIONS per panel: the fastest on that panel's solver by the
headline SGM when a puzzle has more), and for profiles and ECDFs a panel "best solver per
formulation" with the virtual best.  The colour and the marker are the formulation, the line style
the solver, the same in every figure of a run (:func:`styles_for`; seaborn's colour-blind palette
without its grey, which is the virtual best's; two formulations of one puzzle never share a colour
or a marker), so two lines of one panel differ in marker or line style and stay apart in greyscale.
One legend per figure, outside the panels, built from what was drawn: it names every line and marker.
Time axes are fitted to the data; the time limit is drawn (dotted) where some run reached it.

:func:`write_figures` writes ``figures/<kind>/<name>.png`` and ``.pdf`` at the two-column width
(TWO_COLUMN inches) and, for profiles and ECDFs, ``<name>-column`` at the one-column width
(ONE_COLUMN inches: the best-per-formulation panel alone).  Figures are plain
:class:`matplotlib.figure.Figure` objects (no pyplot state, any backend); PDFs embed TrueType
fonts (``pdf.fonttype`` 42).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from puzzlebench.system.atomic import replacing

from .outcomes import CONFIG, INSTANCE
from .stats import performance_profile, performance_ratios

RC = {"pdf.fonttype": 42, "ps.fonttype": 42, "savefig.dpi": 200, "font.size": 8, "axes.titlesize": 8,
      "axes.labelsize": 8, "xtick.labelsize": 7, "ytick.labelsize": 7, "legend.fontsize": 7,
      "figure.titlesize": 9, "lines.linewidth": 1.2}
ONE_COLUMN = 3.3
TWO_COLUMN = 7.0
PANEL_HEIGHT = 1.9
PANELS_PER_ROW = 3
MAX_FORMULATIONS = 7
"""Formulations drawn per panel (with the virtual best: at most 8 lines)."""
SOLVER_ORDER = ("cbc", "highs", "scip", "scip-cp", "cpsat")
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 1)), (0, (8, 2)), (0, (3, 1, 1, 1)),
              (0, (6, 2, 2, 2)), (0, (1, 3)))
"""Line style per solver: ten distinct dash patterns (solvers beyond ten repeat them)."""
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
"""Marker per formulation (with the colour; 12 markers against 9 colours: no pair repeats before 36)."""
GREY = 7
"""The grey of seaborn's colour-blind palette, kept for the virtual best."""
VIRTUAL_BEST = "virtual best"
VIRTUAL_BEST_STYLE = {"color": "black", "linestyle": "-", "linewidth": 3.5, "alpha": 0.3, "marker": None,
                      "solid_capstyle": "butt", "zorder": 1.5}
"""The virtual best: a wide translucent grey band without markers, under the configurations' lines."""
LIMIT_STYLE = {"color": "0.4", "linewidth": 0.8, "linestyle": ":"}
"""The time limit's vertical line."""
FIGURE_KINDS = ("profiles", "ecdf", "scatter", "boxes", "scaling", "variability")
COLUMN_KINDS = ("profiles", "ecdf")
"""Kinds that also get a one-column figure (``<name>-column``)."""


@dataclass(frozen=True)
class Styles:
    """Colour and marker per formulation, line style per solver, for every figure of one run."""

    formulation_colors: dict
    formulation_markers: dict
    solver_dashes: dict

    def line(self, formulation: str, solver: str) -> dict:
        """Keyword arguments of ``Axes.plot`` for one configuration (its ``gid`` is "formulation/solver")."""
        name = f"{formulation}/{solver}"
        return {"color": self.formulation_colors[formulation], "linestyle": self.solver_dashes[solver],
                "marker": self.formulation_markers[formulation], "markersize": 3.5, "label": name, "gid": name}

    def legend_handles(self, formulations, solvers, virtual_best: bool) -> list[Line2D]:
        """Proxy entries: one per formulation (its colour and marker), one per solver (its line style, in
        dark grey), and the virtual best."""
        handles = [Line2D([], [], color=self.formulation_colors[f], marker=self.formulation_markers[f],
                          linestyle="none", markersize=5, label=f) for f in formulations]
        handles += [Line2D([], [], color="0.2", linestyle=self.solver_dashes[s], label=s) for s in solvers]
        if virtual_best:
            handles.append(Line2D([], [], label=VIRTUAL_BEST, **VIRTUAL_BEST_STYLE))
        return handles


def solver_order(solvers) -> list[str]:
    """The solvers present: cbc, highs, scip, scip-cp, cpsat first, then any other by name."""
    present = set(pd.Series(list(solvers)).dropna())
    return [s for s in SOLVER_ORDER if s in present] + sorted(present - set(SOLVER_ORDER))


def formulation_indices(pairs: pd.DataFrame) -> dict:
    """A number per formulation name such that two formulations of one puzzle never share one.

    ``pairs``: the (puzzle, formulation) rows of the run.  Greedy colouring in the order of how
    many puzzles a formulation has (then name).
    """
    puzzles_of = pairs.dropna().drop_duplicates().groupby("formulation")["puzzle"].agg(frozenset)
    order = sorted(puzzles_of.index, key=lambda f: (-len(puzzles_of[f]), f))
    index = {}
    for formulation in order:
        taken = {index[other] for other in index if puzzles_of[other] & puzzles_of[formulation]}
        index[formulation] = next(i for i in range(len(order) + 1) if i not in taken)
    return index


def palette() -> list:
    """Seaborn's 10-colour colour-blind palette without its grey (the virtual best's)."""
    colours = sns.color_palette("colorblind", 10)
    return [c for i, c in enumerate(colours) if i != GREY]


def formulation_colors(pairs: pd.DataFrame) -> dict:
    """A colour per formulation (:func:`formulation_indices` over :func:`palette`, cycled only when one
    puzzle has more than 9 formulations)."""
    colours = palette()
    return {f: colours[i % len(colours)] for f, i in formulation_indices(pairs).items()}


def styles_for(runs: pd.DataFrame) -> Styles:
    """Styles shared by every figure of one store, so a configuration looks the same everywhere;
    cbc, highs, scip, scip-cp and cpsat always get the same line style."""
    solvers = [*SOLVER_ORDER, *(s for s in solver_order(runs["solver"]) if s not in SOLVER_ORDER)]
    indices = formulation_indices(runs[["puzzle", "formulation"]])
    return Styles(formulation_colors(runs[["puzzle", "formulation"]]),
                  {f: MARKERS[i % len(MARKERS)] for f, i in indices.items()},
                  {s: LINESTYLES[i % len(LINESTYLES)] for i, s in enumerate(solvers)})


def fastest_formulations(configurations: pd.DataFrame, sgm: str, solver: str | None = None,
                         count: int = MAX_FORMULATIONS) -> list[str]:
    """The ``count`` formulations with the smallest SGM column ``sgm`` (on ``solver``, or on their best
    solver), in name order."""
    part = configurations if solver is None else configurations[configurations["solver"] == solver]
    best = part.groupby("formulation")[sgm].min().sort_values(kind="stable")
    return sorted(best.index[:count])


def best_solver_per_formulation(configurations: pd.DataFrame, sgm: str) -> list[tuple[str, str]]:
    """(formulation, solver) of each formulation's smallest SGM ``sgm``, for the fastest formulations."""
    keep = configurations[configurations["formulation"].isin(fastest_formulations(configurations, sgm))]
    ordered = keep.sort_values([sgm, *CONFIG], kind="stable")
    top = ordered.drop_duplicates("formulation").sort_values("formulation")
    return list(top[CONFIG].itertuples(index=False, name=None))


def virtual_best_instances(instance_times: pd.DataFrame) -> pd.DataFrame:
    """Per instance the fastest configuration's mean time (solved when any configuration solved it),
    as rows of a pseudo-configuration ("virtual best", "")."""
    solved_time = instance_times["time"].where(instance_times["solved"])
    grouped = instance_times.assign(solved_time=solved_time).groupby(INSTANCE, sort=True, dropna=False)
    best = grouped.agg(time=("time", "min"), solved_time=("solved_time", "min"), solved=("solved", "any"))
    return best.assign(time=best["solved_time"].fillna(best["time"]), formulation=VIRTUAL_BEST,
                       solver="").drop(columns="solved_time").reset_index()


def _plain_log_ticks(axis, low: float, high: float) -> None:
    """Log-axis ticks labelled as plain numbers: at 1, 2 and 5 x 10^k when the axis spans
    less than two decades, else at the powers of ten; no minor labels."""
    subs = (1.0, 2.0, 5.0) if high / low < 100 else (1.0,)
    axis.set_major_locator(LogLocator(base=10, subs=subs))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def _limit_text(runs: pd.DataFrame) -> str:
    return "limit " + "/".join(f"{t:g}" for t in sorted(runs["time_limit"].dropna().unique())) + " s"


def _markevery(points: int) -> int:
    return max(1, points // 5)


def _panels(fig: Figure, count: int, sharex: bool = True, sharey: bool = True) -> list:
    """``count`` panels in rows of PANELS_PER_ROW (fewer when fewer), sharing axes."""
    columns = min(count, PANELS_PER_ROW)
    rows = -(-count // columns)
    grid = fig.subplots(rows, columns, sharex=sharex, sharey=sharey, squeeze=False).ravel()
    for ax in grid[count:]:
        ax.remove()
    return list(grid[:count])


def _outer_labels(axes, xlabel: str, ylabel: str) -> None:
    """The axis labels on the panels of the left column and the bottom row only."""
    for ax in axes:
        spec = ax.get_subplotspec()
        ax.set_ylabel(ylabel if spec.is_first_col() else "")
        below = spec.rowspan.stop < spec.get_gridspec().nrows and any(
            other.get_subplotspec().rowspan.start == spec.rowspan.stop
            and other.get_subplotspec().colspan.start == spec.colspan.start for other in axes)
        ax.set_xlabel("" if below else xlabel)
        ax.tick_params(axis="x", labelbottom=not below)


def drawn_configurations(axes) -> list[tuple[str, str]]:
    """The (formulation, solver) of every configuration drawn on ``axes`` (the ``gid`` of its lines)."""
    gids = {line.get_gid() for ax in axes for line in ax.get_lines() if line.get_gid()}
    return sorted(tuple(gid.split("/", 1)) for gid in gids)


def drawn_legend(fig: Figure, axes, styles: Styles) -> None:
    """The figure's legend for what ``axes`` show: every formulation, every solver and the virtual best drawn."""
    drawn = drawn_configurations(axes)
    virtual_best = any(line.get_label() == VIRTUAL_BEST for ax in axes for line in ax.get_lines())
    handles = styles.legend_handles(sorted({f for f, _ in drawn}), solver_order({s for _, s in drawn}), virtual_best)
    if handles:
        _figure_legend(fig, handles, fig.bbox.width / fig.dpi)


def _figure_legend(fig: Figure, handles: list[Line2D], width: float) -> None:
    """One legend for the whole figure, below the panels, as many columns as fit ``width`` inches."""
    columns = max(1, min(len(handles), int(width / 1.15)))
    fig.legend(handles=handles, loc="outside lower center", ncol=columns, frameon=False,
               handlelength=2.6, columnspacing=1.0)


def _title(fig: Figure, axes: list, title: str, facets: bool) -> None:
    """The figure's title above the panels, or in the one panel's title when there are no facets."""
    if facets:
        fig.suptitle(title)
    else:
        axes[0].set_title(f"{title}:\n{axes[0].get_title()}")


def figure(width: float, height: float) -> Figure:
    return Figure(figsize=(width, height), layout="constrained")


def _profile_lines(ax, times: pd.DataFrame, configs: list[tuple[str, str]], styles: Styles) -> int:
    """Dolan-Moré profile of ``configs`` over ``times`` (instance times, possibly with the virtual best)
    on ``ax``: rho(tau) against log2 tau.  Returns the number of instances."""
    chosen = times.set_index(CONFIG).index.isin(configs + [(VIRTUAL_BEST, "")])
    ratios = performance_ratios(times[chosen])
    profile = performance_profile(ratios)
    right = max(float(profile.index.max()) * 1.05, 1.0)
    for formulation, solver in ratios.columns:
        shares = profile[(formulation, solver)]
        x, y = np.append(shares.index, right), np.append(shares.to_numpy(), shares.iloc[-1])
        style = (dict(VIRTUAL_BEST_STYLE, label=VIRTUAL_BEST) if formulation == VIRTUAL_BEST
                 else dict(styles.line(formulation, solver), markevery=_markevery(len(x))))
        ax.step(x, y, where="post", **style)
    ax.set(xlim=(0, right), ylim=(-0.02, 1.02))
    return len(ratios)


def plot_profiles(fig: Figure, instance_times: pd.DataFrame, configurations: pd.DataFrame, sgm: str,
                  styles: Styles, puzzle: str, facets: bool = True) -> list:
    """Performance profiles of one puzzle: per solver its formulations (``facets``), and the best solver
    per formulation with the virtual best; time ratios to the panel's best configuration."""
    solvers = solver_order(configurations["solver"]) if facets else []
    axes = _panels(fig, len(solvers) + 1, sharey=True, sharex=False)
    instances = 0
    for ax, solver in zip(axes, solvers):
        configs = [(f, solver) for f in fastest_formulations(configurations, sgm, solver)]
        instances = _profile_lines(ax, instance_times, configs, styles)
        ax.set_title(solver)
    best = best_solver_per_formulation(configurations, sgm)
    with_best = pd.concat([instance_times, virtual_best_instances(instance_times)], ignore_index=True)
    instances = _profile_lines(axes[-1], with_best, best, styles) or instances
    axes[-1].set_title("best solver per formulation")
    _outer_labels(axes, r"$\log_2 \tau$ (time / best in panel)", "share of instances")
    _title(fig, axes, f"{puzzle}: performance profiles ({instances} instances)", facets)
    drawn_legend(fig, axes, styles)
    return axes


def _ecdf_line(ax, group: pd.DataFrame, end: float, style: dict) -> None:
    solved = np.sort(group.loc[group["solved"], "time"].to_numpy(float))
    shares = np.arange(len(solved) + 1) / max(len(group), 1)
    start = solved[0] if len(solved) else end
    x = np.concatenate([[start], solved, [end]])
    ax.step(x, np.append(shares, shares[-1]), where="post", **style)


def time_axis_end(runs: pd.DataFrame) -> tuple[float, bool]:
    """Where a time axis of ``runs`` must reach: the time limit when some run did not solve (then the
    limit matters and is drawn), else the slowest solved run; and whether the limit is reached."""
    limit = float(runs["time_limit"].max())
    reached = bool((~runs["solved"]).any())
    return (limit if reached else float(runs["time"].max())), reached


def limit_note(runs: pd.DataFrame, reached: bool) -> str:
    """The title's note on the time limit: drawn dotted where reached, else that no run reached it."""
    return f"{_limit_text(runs)}, dotted" if reached else f"every run shown solved within the {_limit_text(runs)}"


def plot_ecdfs(fig: Figure, runs: pd.DataFrame, configurations: pd.DataFrame, sgm: str, styles: Styles,
               puzzle: str, facets: bool = True) -> list:
    """Share of a configuration's runs solved within t seconds against t (log axis): per solver its
    formulations (``facets``), and the best solver per formulation with the virtual best.  The axis
    ends at the time limit when some run did not solve, else just after the slowest run."""
    solvers = solver_order(configurations["solver"]) if facets else []
    axes = _panels(fig, len(solvers) + 1, sharey=True, sharex=True)
    panels = [[(f, solver) for f in fastest_formulations(configurations, sgm, solver)] for solver in solvers]
    panels.append(best_solver_per_formulation(configurations, sgm))
    limit = float(runs["time_limit"].max())
    by_config = dict(list(runs.groupby(CONFIG, sort=True)))
    end, reached = time_axis_end(pd.concat([by_config[c] for c in set().union(*panels)]))  # of the lines drawn
    for ax, configs in zip(axes, panels):
        for formulation, solver in configs:
            group = by_config[(formulation, solver)]
            _ecdf_line(ax, group, end, dict(styles.line(formulation, solver), markevery=_markevery(len(group))))
    for ax, solver in zip(axes, solvers):
        ax.set_title(solver)
    vbs = runs.groupby([*INSTANCE, "seed"], sort=True, dropna=False).apply(
        lambda g: pd.Series({"time": g.loc[g["solved"], "time"].min() if g["solved"].any() else limit,
                             "solved": bool(g["solved"].any())}), include_groups=False)
    _ecdf_line(axes[-1], vbs, end, dict(VIRTUAL_BEST_STYLE, label=VIRTUAL_BEST))
    axes[-1].set_title("best solver per formulation")
    solved_times = runs.loc[runs["solved"], "time"]
    low = float(solved_times.min()) / 1.5 if len(solved_times) else end / 10
    for ax in axes:
        if reached:
            ax.axvline(limit, label="_time limit", **LIMIT_STYLE)
        ax.set_xlim(low, end * 1.5)
        ax.set(xscale="log", ylim=(-0.02, 1.02))
    _outer_labels(axes, "time [s]", "share of runs solved")
    _title(fig, axes, f"{puzzle}: runs solved ({limit_note(runs, reached)})", facets)
    drawn_legend(fig, axes, styles)
    return axes


def aggregation_note(instance_times: pd.DataFrame) -> str:
    """How a point's time was aggregated from its runs (:func:`~.outcomes.instance_times`), or
    nothing for one run per instance."""
    if not len(instance_times) or "runs" not in instance_times:
        return ""
    seeds = int(instance_times["seeds"].max()) if "seeds" in instance_times else 1
    repeats = int(instance_times["runs"].max()) // max(seeds, 1)
    parts = ([f"median of {repeats} repeats"] if repeats > 1 else []) + (
        [f"geometric mean over {seeds} seeds"] if seeds > 1 else [])
    return f", time {' then '.join(parts)}" if parts else ""


def plot_pair_scatter(fig: Figure, instance_times: pd.DataFrame, first: tuple[str, str],
                      second: tuple[str, str], puzzle: str):
    """Per instance, the time of configuration ``second`` against ``first`` (log-log; aggregated over
    repeats and seeds as :func:`~.outcomes.instance_times` does, said in the title).

    Instances either configuration did not solve (in every seed) are crosses; the solid diagonal is
    equal time, the dotted lines a factor 2; the legend names them.
    """
    ax = fig.subplots()
    indexed = instance_times.set_index(CONFIG)

    def times(config):
        return indexed.loc[[config]].set_index(INSTANCE)[["time", "solved"]]
    pair = pd.merge(times(first), times(second), left_index=True, right_index=True, suffixes=("_x", "_y"))
    both = pair["solved_x"] & pair["solved_y"]
    for points, style in ((pair[both], {"s": 12, "alpha": 0.7, "label": "both solved", "color": "C0"}),
                          (pair[~both], {"s": 20, "marker": "x", "color": "C3",
                                         "label": "unsolved by one or both"})):
        if len(points):
            ax.scatter(points["time_x"], points["time_y"], **style)
    values = pair[["time_x", "time_y"]].to_numpy(float)
    low, high = (values.min() / 1.5, values.max() * 1.5) if len(values) else (0.01, 1.0)
    grid = np.array([low, high])
    ax.plot(grid, grid, color="0.3", linewidth=0.8, label="equal time")
    for factor, label in ((2.0, "factor 2"), (0.5, "_factor 2")):
        ax.plot(grid, grid * factor, color="0.5", linewidth=0.6, linestyle=":", label=label)
    faster = int((pair["time_x"] < pair["time_y"]).sum()), int((pair["time_y"] < pair["time_x"]).sum())
    ax.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high), aspect="equal",
           xlabel=f"{first[0]}/{first[1]} [s] (faster on {faster[0]})",
           ylabel=f"{second[0]}/{second[1]} [s] (faster on {faster[1]})")
    fig.suptitle(f"{puzzle}: {len(pair)} instances{aggregation_note(instance_times)}")
    for axis in (ax.xaxis, ax.yaxis):
        _plain_log_ticks(axis, low, high)
    handles, _ = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False)
    return [ax]


def box_formulations(configurations: pd.DataFrame, sgm: str, solver: str) -> list[str]:
    """The formulations a box panel of ``solver`` shows: its fastest MAX_FORMULATIONS, fastest first."""
    ranked = configurations[configurations["solver"] == solver].sort_values([sgm, "formulation"], kind="stable")
    return [f for f in ranked["formulation"] if f in fastest_formulations(configurations, sgm, solver)]


def boxed_runs(data: pd.DataFrame, configurations: pd.DataFrame, sgm: str) -> pd.DataFrame:
    """The rows of ``data`` that the box panels show (:func:`box_formulations` of each solver)."""
    shown = {(f, s) for s in data["solver"].dropna().unique() for f in box_formulations(configurations, sgm, s)}
    return data[data.set_index(CONFIG).index.isin(shown)]


def _box_panels(fig: Figure, data: pd.DataFrame, y: str, configurations: pd.DataFrame, sgm: str, styles: Styles,
                label: str, top: float | None = None) -> list:
    """One panel per solver: a horizontal box per formulation (its colour; the panel's fastest
    MAX_FORMULATIONS on that solver, fastest on top) of ``y`` on a log axis fitted to the data
    (to ``top`` when given)."""
    solvers = solver_order(data["solver"])
    axes = _panels(fig, len(solvers), sharex=True, sharey=False)
    low, high = data[y].min() / 1.5, (data[y].max() if top is None else top) * 1.5
    for ax, solver in zip(axes, solvers):
        formulations = box_formulations(configurations, sgm, solver)
        ax.set_xscale("log")
        ax.set_xlim(low, high)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="vert: bool was deprecated", category=DeprecationWarning)
            sns.boxplot(data=data[(data["solver"] == solver) & data["formulation"].isin(formulations)], x=y,
                        y="formulation", hue="formulation", order=formulations, hue_order=formulations,
                        palette=styles.formulation_colors, ax=ax, log_scale=True, fliersize=2, linewidth=0.7,
                        legend=False)
        ax.set_title(solver)
        _plain_log_ticks(ax.xaxis, low, high)
    _outer_labels(axes, label, "")
    return axes


def plot_time_boxes(fig: Figure, runs: pd.DataFrame, configurations: pd.DataFrame, sgm: str, styles: Styles,
                    puzzle: str) -> list:
    """Box plots of every run's time, one panel per solver, one box per formulation (log axis fitted to
    the data; the time limit dotted when some run reached it)."""
    end, reached = time_axis_end(boxed_runs(runs, configurations, sgm))
    axes = _box_panels(fig, runs, "time", configurations, sgm, styles, "time [s]", end)
    if reached:
        for ax in axes:
            for limit in runs["time_limit"].dropna().unique():
                ax.axvline(limit, label="_time limit", **LIMIT_STYLE)
    fig.suptitle(f"{puzzle}: time per run ({'unsolved at the ' if reached else ''}{limit_note(runs, reached)})")
    return axes


def plot_variability(fig: Figure, spreads: pd.DataFrame, configurations: pd.DataFrame, sgm: str,
                     styles: Styles, puzzle: str) -> list:
    """Distribution over instances of max/min time across seeds x permutations, per solver and formulation."""
    axes = _box_panels(fig, spreads, "max_min_ratio", configurations, sgm, styles, "max / min time")
    fig.suptitle(f"{puzzle}: variability over {spreads['k'].median():g} runs per puzzle (median)")
    return axes


def plot_scaling(fig: Figure, runs: pd.DataFrame, fits: pd.DataFrame, configurations: pd.DataFrame, sgm: str,
                 styles: Styles, name: str, quantity: str = "time") -> list:
    """Time (or nodes + 1) against grid rows n (log-log) on one ladder set, one panel per solver:
    per-size geometric means (markers) and the fitted c n^k (lines) of each formulation.

    ``fits`` is the set's part of :func:`~puzzlebench.analysis.tables.scaling_table`.
    """
    fits = fits.set_index([*CONFIG, "quantity"])
    solvers = solver_order(runs["solver"])
    axes = _panels(fig, len(solvers), sharex=True, sharey=True)
    sizes = sorted(runs["n"].dropna().unique())
    y = runs["time"] if quantity == "time" else runs["nodes"] + 1
    means = np.exp(np.log(y.where(y > 0)).groupby([runs[c] for c in (*CONFIG, "n")], sort=True).mean())
    for ax, solver in zip(axes, solvers):
        for formulation in fastest_formulations(configurations, sgm, solver):
            if (formulation, solver) not in means.index.droplevel("n"):
                continue
            points = means.loc[(formulation, solver)]
            fit = fits.loc[(formulation, solver, quantity)]
            style = styles.line(formulation, solver)
            ax.plot(points.index.to_numpy(float), points.to_numpy(), **dict(style, linestyle="none",
                                                                          label="_means"))
            if np.isfinite(fit["exponent"]):
                n = np.geomspace(fit["n_min"], fit["n_max"], 20)
                ax.plot(n, fit["coefficient"] * n ** fit["exponent"], **dict(style, marker=None))
        ax.set(xscale="log", yscale="log")
        ax.set_title(solver)
    for ax in axes:
        ax.set_xticks(sizes, [f"{n:g}" for n in sizes], minor=False)
        ax.set_xticks([], minor=True)
    _outer_labels(axes, "grid rows n", "time [s]" if quantity == "time" else "nodes + 1")
    fig.suptitle(f"{name}: {'time' if quantity == 'time' else 'nodes + 1'} against size "
                 "(markers: geometric mean per size; lines: fit c n^k)")
    drawn_legend(fig, axes, styles)
    return axes


def save_figure(fig: Figure, directory: Path, name: str) -> list[Path]:
    """``name``.png and ``name``.pdf in ``directory``; the PDF reuses the layout computed for the PNG."""
    png, pdf = directory / f"{name}.png", directory / f"{name}.pdf"
    with replacing(png, binary=True) as fh:   # each file whole or not at all
        fig.savefig(fh, format="png")
    fig.set_layout_engine("none")
    with replacing(pdf, binary=True) as fh:
        fig.savefig(fh, format="pdf")
    return [png, pdf]


def best_pair(configurations: pd.DataFrame, puzzle: str, sgm: str) -> list[tuple[str, str]]:
    """The two configurations of ``puzzle`` with the smallest SGM column ``sgm`` (fewer if it has fewer)."""
    part = configurations[configurations["puzzle"] == puzzle].sort_values([sgm, *CONFIG], kind="stable")
    return list(part[CONFIG].itertuples(index=False, name=None))[:2]


def facet_height(panels: int) -> float:
    """Height in inches of a two-column figure with ``panels`` panels, title and legend."""
    return PANEL_HEIGHT * -(-panels // PANELS_PER_ROW) + 1.1


def file_name(set_name: str) -> str:
    """A set name as a file name: "takuzu/ladder-distinct" -> "takuzu-ladder-distinct"."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", set_name)


def puzzle_drawings(puzzle: str, runs: pd.DataFrame, instance_times: pd.DataFrame,
                    configurations: pd.DataFrame, spreads: pd.DataFrame, sgm: str, styles: Styles) -> list:
    """(kind, file name, width, height, draw) of every figure of one puzzle; draw(fig) fills a figure."""
    panels = runs["solver"].nunique() + 1
    tall = facet_height(panels)
    boxes = facet_height(panels - 1) + 0.2 * min(configurations["formulation"].nunique(), MAX_FORMULATIONS)
    drawings = [
        ("profiles", puzzle, TWO_COLUMN, tall,
         lambda fig: plot_profiles(fig, instance_times, configurations, sgm, styles, puzzle)),
        ("profiles", f"{puzzle}-column", ONE_COLUMN, 3.6,
         lambda fig: plot_profiles(fig, instance_times, configurations, sgm, styles, puzzle, facets=False)),
        ("ecdf", puzzle, TWO_COLUMN, tall,
         lambda fig: plot_ecdfs(fig, runs, configurations, sgm, styles, puzzle)),
        ("ecdf", f"{puzzle}-column", ONE_COLUMN, 3.6,
         lambda fig: plot_ecdfs(fig, runs, configurations, sgm, styles, puzzle, facets=False)),
        ("boxes", puzzle, TWO_COLUMN, boxes,
         lambda fig: plot_time_boxes(fig, runs, configurations, sgm, styles, puzzle))]
    pair = best_pair(configurations, puzzle, sgm)
    if len(pair) == 2:
        drawings.append(("scatter", puzzle, ONE_COLUMN, 3.6,
                         lambda fig: plot_pair_scatter(fig, instance_times, *pair, puzzle)))
    if len(spreads):
        drawings.append(("variability", puzzle, TWO_COLUMN, boxes,
                         lambda fig: plot_variability(fig, spreads, configurations, sgm, styles, puzzle)))
    return drawings


def ladder_drawings(name: str, runs: pd.DataFrame, fits: pd.DataFrame, configurations: pd.DataFrame, sgm: str,
                    styles: Styles) -> list:
    """The scaling figures of one ladder set: time, and nodes + 1."""
    height = facet_height(runs["solver"].nunique())
    return [("scaling", f"{file_name(name)}{suffix}", TWO_COLUMN, height,
             lambda fig, quantity=quantity: plot_scaling(fig, runs, fits, configurations, sgm, styles, name,
                                                         quantity))
            for quantity, suffix in (("time", ""), ("nodes", "-nodes"))]


def all_drawings(runs: pd.DataFrame, instance_times: pd.DataFrame, configurations: pd.DataFrame,
                 scaled: pd.DataFrame, scaling: pd.DataFrame, spreads: pd.DataFrame, sgm: str) -> list:
    """(kind, file name, width, height, draw) of every figure of a run (see :func:`write_figures`)."""
    styles = styles_for(runs)
    drawings = []
    for puzzle, part in runs.groupby("puzzle", sort=True):
        drawings += puzzle_drawings(puzzle, part, instance_times[instance_times["puzzle"] == puzzle],
                                    configurations[configurations["puzzle"] == puzzle],
                                    spreads[spreads["puzzle"] == puzzle], sgm, styles)
    for (puzzle, name), part in scaled.groupby(["puzzle", "instance_set"], sort=True):
        drawings += ladder_drawings(name, part, scaling[scaling["instance_set"] == name],
                                    configurations[configurations["puzzle"] == puzzle], sgm, styles)
    return drawings


def render(width: float, height: float, draw) -> Figure:
    """A new figure of ``width`` x ``height`` inches drawn by ``draw`` in the figures' rc style,
    its constrained layout computed (axes positions and legend extents are final)."""
    fig = figure(width, height)
    draw(fig)
    fig.draw_without_rendering()
    return fig


def write_figures(runs: pd.DataFrame, instance_times: pd.DataFrame, configurations: pd.DataFrame,
                  scaled: pd.DataFrame, scaling: pd.DataFrame, spreads: pd.DataFrame, out_dir,
                  sgm: str) -> list[Path]:
    """Every figure of a run into ``out_dir``/figures/<kind>/<name>.png and .pdf.

    Per puzzle: profiles and ecdf (``<puzzle>`` two-column, ``<puzzle>-column`` one-column), boxes,
    scatter (the two best configurations by ``sgm``) and variability (with two seeds or
    permutations); per ladder set of ``scaled`` (:func:`~puzzlebench.analysis.tables.scaling_runs`)
    scaling (``<set>`` time, ``<set>-nodes``).  The kind folders always exist and hold only this
    call's figures (older PNGs and PDFs there are removed).
    """
    folders = {kind: Path(out_dir) / "figures" / kind for kind in FIGURE_KINDS}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
        for old in [*folder.glob("*.png"), *folder.glob("*.pdf")]:
            old.unlink()
    paths = []
    for kind, name, width, height, draw in all_drawings(runs, instance_times, configurations, scaled, scaling,
                                                        spreads, sgm):
        with mpl.rc_context(RC), sns.axes_style("whitegrid"):
            paths += save_figure(render(width, height, draw), folders[kind], name)
    return paths
