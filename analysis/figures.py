"""Figures: performance profiles, ECDFs, pairwise scatter, time boxes, scaling and variability.

Every figure stays readable at any grid size: one panel per solver with the formulations as
lines or boxes (at most MAX_FORMULATIONS per panel: the fastest by the headline SGM when a puzzle
has more), and for profiles and ECDFs a panel "best solver per formulation" with the virtual best.
The colour is the formulation and the line style and marker the solver, the same in every figure
of a run (:func:`styles_for`; seaborn's colour-blind palette, two formulations of one puzzle never
share a colour).  One legend per figure, outside the panels.

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
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 1)), (0, (8, 2)))
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")  # 8 against 7 styles: no pair repeats before 56 solvers
VIRTUAL_BEST = "virtual best"
VIRTUAL_BEST_STYLE = {"color": "black", "linestyle": "-", "linewidth": 2.0, "alpha": 0.35}
KINDS = ("profiles", "ecdf", "scatter", "boxes", "scaling", "variability")
COLUMN_KINDS = ("profiles", "ecdf")
"""Kinds that also get a one-column figure (``<name>-column``)."""


@dataclass(frozen=True)
class Styles:
    """Colour per formulation, line style and marker per solver, for every figure of one run."""

    formulation_colors: dict
    solver_dashes: dict
    solver_markers: dict

    def line(self, formulation: str, solver: str) -> dict:
        """Keyword arguments of ``Axes.plot`` for one configuration."""
        return {"color": self.formulation_colors[formulation], "linestyle": self.solver_dashes[solver],
                "marker": self.solver_markers[solver], "markersize": 3.5, "label": f"{formulation}/{solver}"}

    def legend_handles(self, formulations, solvers, virtual_best: bool) -> list[Line2D]:
        """Proxy lines: one per formulation (its colour), one per solver (its style, grey), the virtual best."""
        handles = [Line2D([], [], color=self.formulation_colors[f], linewidth=2.5, label=f) for f in formulations]
        handles += [Line2D([], [], color="0.35", linestyle=self.solver_dashes[s], marker=self.solver_markers[s],
                           markersize=3.5, label=s) for s in solvers]
        if virtual_best:
            handles.append(Line2D([], [], label=VIRTUAL_BEST, **VIRTUAL_BEST_STYLE))
        return handles


def solver_order(solvers) -> list[str]:
    """The solvers present: cbc, highs, scip, scip-cp, cpsat first, then any other by name."""
    present = set(pd.Series(list(solvers)).dropna())
    return [s for s in SOLVER_ORDER if s in present] + sorted(present - set(SOLVER_ORDER))


def formulation_colors(pairs: pd.DataFrame) -> dict:
    """A colour per formulation name such that two formulations of one puzzle never share one.

    ``pairs``: the (puzzle, formulation) rows of the run.  Greedy colouring in the order of how
    many puzzles a formulation has (then name), over seaborn's 10-colour colour-blind palette
    (cycled only if one puzzle has more than 10 formulations).
    """
    palette = sns.color_palette("colorblind", 10)
    puzzles_of = pairs.dropna().drop_duplicates().groupby("formulation")["puzzle"].agg(frozenset)
    order = sorted(puzzles_of.index, key=lambda f: (-len(puzzles_of[f]), f))
    index = {}
    for formulation in order:
        taken = {index[other] for other in index if puzzles_of[other] & puzzles_of[formulation]}
        index[formulation] = next(i for i in range(len(order) + 1) if i not in taken)
    return {f: palette[i % len(palette)] for f, i in index.items()}


def styles_for(runs: pd.DataFrame) -> Styles:
    """Styles shared by every figure of one store, so a configuration looks the same everywhere;
    cbc, highs, scip, scip-cp and cpsat always get the same line style and marker."""
    solvers = [*SOLVER_ORDER, *(s for s in solver_order(runs["solver"]) if s not in SOLVER_ORDER)]
    return Styles(formulation_colors(runs[["puzzle", "formulation"]]),
                  {s: LINESTYLES[i % len(LINESTYLES)] for i, s in enumerate(solvers)},
                  {s: MARKERS[i % len(MARKERS)] for i, s in enumerate(solvers)})


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
    _figure_legend(fig, styles.legend_handles(sorted({f for f, _ in best} | set(
        fastest_formulations(configurations, sgm))), [*solvers, *sorted({s for _, s in best} - set(solvers))],
        True), fig.bbox.width / fig.dpi)
    return axes


def _ecdf_line(ax, group: pd.DataFrame, end: float, style: dict) -> None:
    solved = np.sort(group.loc[group["solved"], "time"].to_numpy(float))
    shares = np.arange(len(solved) + 1) / max(len(group), 1)
    start = solved[0] if len(solved) else end
    x = np.concatenate([[start], solved, [end]])
    ax.step(x, np.append(shares, shares[-1]), where="post", **style)


def plot_ecdfs(fig: Figure, runs: pd.DataFrame, configurations: pd.DataFrame, sgm: str, styles: Styles,
               puzzle: str, facets: bool = True) -> list:
    """Share of a configuration's runs solved within t seconds against t (log axis): per solver its
    formulations (``facets``), and the best solver per formulation with the virtual best."""
    solvers = solver_order(configurations["solver"]) if facets else []
    axes = _panels(fig, len(solvers) + 1, sharey=True, sharex=True)
    end = float(runs["time_limit"].max())
    by_config = dict(list(runs.groupby(CONFIG, sort=True)))
    for ax, solver in zip(axes, solvers):
        for formulation in fastest_formulations(configurations, sgm, solver):
            group = by_config[(formulation, solver)]
            _ecdf_line(ax, group, end, dict(styles.line(formulation, solver), markevery=_markevery(len(group))))
        ax.set_title(solver)
    best = best_solver_per_formulation(configurations, sgm)
    for formulation, solver in best:
        group = by_config[(formulation, solver)]
        _ecdf_line(axes[-1], group, end, dict(styles.line(formulation, solver), markevery=_markevery(len(group))))
    vbs = runs.groupby([*INSTANCE, "seed"], sort=True, dropna=False).apply(
        lambda g: pd.Series({"time": g.loc[g["solved"], "time"].min() if g["solved"].any() else end,
                             "solved": bool(g["solved"].any())}), include_groups=False)
    _ecdf_line(axes[-1], vbs, end, dict(VIRTUAL_BEST_STYLE, label=VIRTUAL_BEST))
    axes[-1].set_title("best solver per formulation")
    solved_times = runs.loc[runs["solved"], "time"]
    low = float(solved_times.min()) / 1.5 if len(solved_times) else end / 10
    for ax in axes:
        ax.axvline(end, color="0.4", linewidth=0.8, linestyle=":", label="_time limit")
        ax.set_xlim(low, end * 1.5)
        ax.set(xscale="log", ylim=(-0.02, 1.02))
    _outer_labels(axes, "time [s]", "share of runs solved")
    _title(fig, axes, f"{puzzle}: runs solved ({_limit_text(runs)}, dotted)", facets)
    _figure_legend(fig, styles.legend_handles(sorted({f for f, _ in best} | set(
        fastest_formulations(configurations, sgm))), [*solvers, *sorted({s for _, s in best} - set(solvers))],
        True), fig.bbox.width / fig.dpi)
    return axes


def plot_pair_scatter(fig: Figure, instance_times: pd.DataFrame, first: tuple[str, str],
                      second: tuple[str, str], puzzle: str):
    """Per instance, the mean time of configuration ``second`` against ``first`` (log-log).

    Instances either configuration did not solve (in every seed) are crosses;
    the diagonal is equal time, the dotted lines a factor 2.
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
    ax.plot(grid, grid, color="0.3", linewidth=0.8, label="_equal")
    for factor in (2.0, 0.5):
        ax.plot(grid, grid * factor, color="0.5", linewidth=0.6, linestyle=":", label="_factor 2")
    faster = int((pair["time_x"] < pair["time_y"]).sum()), int((pair["time_y"] < pair["time_x"]).sum())
    ax.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high), aspect="equal",
           xlabel=f"{first[0]}/{first[1]} [s] (faster on {faster[0]})",
           ylabel=f"{second[0]}/{second[1]} [s] (faster on {faster[1]})")
    fig.suptitle(f"{puzzle}: {len(pair)} instances, mean time over seeds")
    for axis in (ax.xaxis, ax.yaxis):
        _plain_log_ticks(axis, low, high)
    handles = [h for h in ax.get_legend_handles_labels()[0]]
    if handles:
        fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False)
    return [ax]


def _box_panels(fig: Figure, data: pd.DataFrame, y: str, top: float, configurations: pd.DataFrame, sgm: str,
                styles: Styles, label: str) -> list:
    """One panel per solver: a horizontal box per formulation (its colour) of ``y`` on a log axis."""
    solvers = solver_order(data["solver"])
    formulations = fastest_formulations(configurations, sgm)
    data = data[data["formulation"].isin(formulations)]
    axes = _panels(fig, len(solvers), sharex=True, sharey=True)
    low = data[y].min() / 1.5
    for ax, solver in zip(axes, solvers):
        ax.set_xscale("log")
        ax.set_xlim(low, top * 1.5)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="vert: bool was deprecated", category=DeprecationWarning)
            sns.boxplot(data=data[data["solver"] == solver], x=y, y="formulation", hue="formulation",
                        order=formulations, hue_order=formulations, palette=styles.formulation_colors, ax=ax,
                        log_scale=True, fliersize=2, linewidth=0.7, legend=False)
        ax.set_title(solver)
    _outer_labels(axes, label, "")
    return axes


def plot_time_boxes(fig: Figure, runs: pd.DataFrame, configurations: pd.DataFrame, sgm: str, styles: Styles,
                    puzzle: str) -> list:
    """Box plots of every run's time, one panel per solver, one box per formulation (log axis)."""
    axes = _box_panels(fig, runs, "time", max(runs["time"].max(), runs["time_limit"].max()), configurations,
                       sgm, styles, "time [s]")
    for ax in axes:
        for limit in runs["time_limit"].dropna().unique():
            ax.axvline(limit, color="0.4", linewidth=0.8, linestyle=":", label="_time limit")
    fig.suptitle(f"{puzzle}: time per run (unsolved at the {_limit_text(runs)}, dotted)")
    return axes


def plot_variability(fig: Figure, spreads: pd.DataFrame, configurations: pd.DataFrame, sgm: str,
                     styles: Styles, puzzle: str) -> list:
    """Distribution over instances of max/min time across seeds x permutations, per solver and formulation."""
    axes = _box_panels(fig, spreads, "max_min_ratio", spreads["max_min_ratio"].max(), configurations, sgm,
                       styles, "max / min time")
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
    shown = set()
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
            shown.add(formulation)
        ax.set(xscale="log", yscale="log")
        ax.set_title(solver)
    for ax in axes:
        ax.set_xticks(sizes, [f"{n:g}" for n in sizes], minor=False)
        ax.set_xticks([], minor=True)
    _outer_labels(axes, "grid rows n", "time [s]" if quantity == "time" else "nodes + 1")
    fig.suptitle(f"{name}: {'time' if quantity == 'time' else 'nodes + 1'} against size "
                 "(markers: geometric mean per size; lines: fit c n^k)")
    _figure_legend(fig, styles.legend_handles(sorted(shown), solvers, False), fig.bbox.width / fig.dpi)
    return axes


def save_figure(fig: Figure, directory: Path, name: str) -> list[Path]:
    """``name``.png and ``name``.pdf in ``directory``; the PDF reuses the layout computed for the PNG."""
    png, pdf = directory / f"{name}.png", directory / f"{name}.pdf"
    fig.savefig(png)
    fig.set_layout_engine("none")
    fig.savefig(pdf)
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
    folders = {kind: Path(out_dir) / "figures" / kind for kind in KINDS}
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
