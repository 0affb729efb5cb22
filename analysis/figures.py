"""Figures: performance profiles, ECDFs, pairwise scatter, time boxes, scaling and variability.

Each ``plot_*`` function draws one puzzle's figure onto the given Axes from
prepared runs (or tables derived from them); :func:`write_figures` draws every
kind for every puzzle into ``figures/<kind>/<puzzle>.png`` and ``.pdf``.
Figures are plain :class:`matplotlib.figure.Figure` objects (no pyplot state,
any backend); PDFs embed TrueType fonts (``pdf.fonttype`` 42).  In line plots
the colour is the formulation and the line style the solver; box plots are
coloured by solver.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from .outcomes import CONFIG, INSTANCE
from .stats import performance_profile, performance_ratios
from .tables import scaling_runs

RC = {"pdf.fonttype": 42, "ps.fonttype": 42, "savefig.dpi": 150, "font.size": 9, "axes.titlesize": 10,
      "legend.fontsize": 8}
SOLVER_ORDER = ("cbc", "highs", "scip", "cpsat")
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)))
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
KINDS = ("profiles", "ecdf", "scatter", "boxes", "scaling", "variability")
WIDE = (6.4, 4.0)


@dataclass(frozen=True)
class Styles:
    """Colour per formulation, line style and marker per solver, colour per solver (box plots)."""

    formulation_colors: dict
    solver_dashes: dict
    solver_markers: dict
    solver_colors: dict

    def line(self, formulation: str, solver: str) -> dict:
        return {"color": self.formulation_colors[formulation], "linestyle": self.solver_dashes[solver],
                "label": f"{formulation}/{solver}"}


def styles_for(runs: pd.DataFrame) -> Styles:
    """Styles shared by every figure of one store, so a configuration looks the same everywhere;
    cbc, highs, scip and cpsat always get the same line style, marker and colour."""
    formulations = sorted(runs["formulation"].dropna().unique())
    solvers = [*SOLVER_ORDER, *(s for s in solver_order(runs["solver"]) if s not in SOLVER_ORDER)]
    colors = sns.color_palette("colorblind", max(len(formulations), 1))
    solver_colors = sns.color_palette("Set2", len(solvers))
    return Styles(dict(zip(formulations, colors)),
                  {s: LINESTYLES[i % len(LINESTYLES)] for i, s in enumerate(solvers)},
                  {s: MARKERS[i % len(MARKERS)] for i, s in enumerate(solvers)},
                  dict(zip(solvers, solver_colors)))


def solver_order(solvers: pd.Series) -> list[str]:
    """The solvers present: cbc, highs, scip, cpsat first, then any other by name."""
    present = set(solvers.dropna())
    return [s for s in SOLVER_ORDER if s in present] + sorted(present - set(SOLVER_ORDER))


def _plain_log_ticks(axis, low: float, high: float) -> None:
    """Log-axis ticks labelled as plain numbers: at 1, 2 and 5 x 10^k when the axis spans
    less than two decades, else at the powers of ten; no minor labels."""
    subs = (1.0, 2.0, 5.0) if high / low < 100 else (1.0,)
    axis.set_major_locator(LogLocator(base=10, subs=subs))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def _legend_outside(ax, **options) -> None:
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, **options)


def _time_label(runs: pd.DataFrame) -> str:
    return f"time [s], unsolved at the limit ({_limit_text(runs)})"


def _limit_text(runs: pd.DataFrame) -> str:
    return "limit " + "/".join(f"{t:g}" for t in sorted(runs["time_limit"].dropna().unique())) + " s"


def plot_profile(ax, instance_times: pd.DataFrame, styles: Styles):
    """Dolan-Moré profile of one puzzle: rho(tau) against log2 tau, per-instance mean times over seeds."""
    ratios = performance_ratios(instance_times)
    profile = performance_profile(ratios)
    right = max(float(profile.index.max()) * 1.05, 1.0)
    for formulation, solver in ratios.columns:
        shares = profile[(formulation, solver)]
        ax.step(np.append(shares.index, right), np.append(shares.to_numpy(), shares.iloc[-1]), where="post",
                **styles.line(formulation, solver))
    ax.set(xlim=(0, right), ylim=(-0.02, 1.02), xlabel=r"$\log_2 \tau$ (time ratio to the best configuration)",
           ylabel=r"share of instances with $\log_2 r \leq \tau$",
           title=f"performance profile ({len(ratios)} instances)")
    _legend_outside(ax)
    return ax


def plot_ecdf(ax, runs: pd.DataFrame, styles: Styles):
    """Share of a configuration's runs solved within t seconds, against t (log axis)."""
    end = runs["time_limit"].max()
    for (formulation, solver), group in runs.groupby(CONFIG, sort=True):
        solved = np.sort(group.loc[group["solved"], "time"].to_numpy(float))
        shares = np.arange(len(solved) + 1) / len(group)
        start = solved[0] if len(solved) else end
        ax.step(np.concatenate([[start], solved, [end]]), np.append(shares, shares[-1]), where="post",
                **styles.line(formulation, solver))
    for limit in runs["time_limit"].dropna().unique():
        ax.axvline(limit, color="0.4", linewidth=0.8, linestyle=":")
    ax.set(xscale="log", ylim=(-0.02, 1.02), xlabel="time [s]", ylabel="share of runs solved",
           title=f"runs solved within time ({_limit_text(runs)}, dotted)")
    _legend_outside(ax)
    return ax


def plot_pair_scatter(ax, instance_times: pd.DataFrame, first: tuple[str, str], second: tuple[str, str]):
    """Per instance, the mean time of configuration ``second`` against ``first`` (log-log).

    Instances either configuration did not solve (in every seed) are crosses;
    the diagonal is equal time, the dotted lines a factor 2.
    """
    indexed = instance_times.set_index(CONFIG)

    def times(config):
        return indexed.loc[[config]].set_index(INSTANCE)[["time", "solved"]]
    pair = pd.merge(times(first), times(second), left_index=True, right_index=True, suffixes=("_x", "_y"))
    both = pair["solved_x"] & pair["solved_y"]
    for points, style in ((pair[both], {"s": 14, "alpha": 0.7, "label": "both solved"}),
                          (pair[~both], {"s": 24, "marker": "x", "color": "C3",
                                         "label": "unsolved by one or both"})):
        if len(points):
            ax.scatter(points["time_x"], points["time_y"], **style)
    values = pair[["time_x", "time_y"]].to_numpy(float)
    low, high = (values.min() / 1.5, values.max() * 1.5) if len(values) else (0.01, 1.0)
    grid = np.array([low, high])
    ax.plot(grid, grid, color="0.3", linewidth=0.8)
    for factor in (2.0, 0.5):
        ax.plot(grid, grid * factor, color="0.5", linewidth=0.6, linestyle=":")
    faster = int((pair["time_x"] < pair["time_y"]).sum()), int((pair["time_y"] < pair["time_x"]).sum())
    ax.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high), aspect="equal",
           xlabel=f"{first[0]}/{first[1]}: time [s] (faster on {faster[0]})",
           ylabel=f"{second[0]}/{second[1]}: time [s] (faster on {faster[1]})",
           title=f"{len(pair)} instances, mean time over seeds")
    for axis in (ax.xaxis, ax.yaxis):
        _plain_log_ticks(axis, low, high)
    ax.legend(loc="upper left", frameon=False)
    return ax


def _boxplot(ax, y: str, data: pd.DataFrame, top: float, **kwargs) -> None:
    """seaborn's box plot on a log axis from the data's minimum / 1.5 to ``top`` * 1.5 (fixed beforehand,
    so equal values give no singular-limit warning), without the warning seaborn 0.13 triggers in
    matplotlib >= 3.11 (``vert``)."""
    ax.set_yscale("log")
    ax.set_ylim(data[y].min() / 1.5, top * 1.5)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="vert: bool was deprecated", category=DeprecationWarning)
        sns.boxplot(data=data, y=y, ax=ax, log_scale=True, fliersize=2, linewidth=0.8, **kwargs)


def plot_time_boxes(ax, runs: pd.DataFrame, styles: Styles):
    """Box plot of every run's time by formulation, one box per solver (log axis)."""
    hue_order = solver_order(runs["solver"])
    _boxplot(ax, "time", runs, max(runs["time"].max(), runs["time_limit"].max()), x="formulation",
             hue="solver", hue_order=hue_order, order=sorted(runs["formulation"].unique()),
             palette=styles.solver_colors)
    for limit in runs["time_limit"].dropna().unique():
        ax.axhline(limit, color="0.4", linewidth=0.8, linestyle=":")
    ax.set(xlabel="formulation", ylabel=_time_label(runs), title="time per run")
    _legend_outside(ax)
    ax.tick_params(axis="x", labelrotation=20)
    return ax


def plot_scaling(axes, runs: pd.DataFrame, fits: pd.DataFrame, styles: Styles):
    """Time and nodes + 1 against grid rows n (log-log): per-size geometric means (markers) and the
    fitted c n^k (lines); the legend gives k for time and for nodes.

    ``fits`` is the puzzle's part of :func:`~puzzlebench.analysis.tables.scaling_table`.
    """
    fits = fits.set_index([*CONFIG, "quantity"])
    sizes = sorted(runs["n"].dropna().unique())
    for ax, quantity in zip(axes, ("time", "nodes")):
        y = runs["time"] if quantity == "time" else runs["nodes"] + 1
        means = np.exp(np.log(y.where(y > 0)).groupby([runs[c] for c in (*CONFIG, "n")], sort=True).mean())
        for (formulation, solver), points in means.groupby(level=CONFIG, sort=True):
            fit = fits.loc[(formulation, solver, quantity)]
            style = styles.line(formulation, solver)
            style["label"] += (f": k = {fits.loc[(formulation, solver, 'time'), 'exponent']:.2f} (time), "
                               f"{fits.loc[(formulation, solver, 'nodes'), 'exponent']:.2f} (nodes)")
            ax.plot(points.index.get_level_values("n"), points.to_numpy(), marker=styles.solver_markers[solver],
                    linestyle="none", color=style["color"], markersize=4)
            n = np.geomspace(fit["n_min"], fit["n_max"], 20)
            ax.plot(n, fit["coefficient"] * n ** fit["exponent"], **style)
        ax.set(xscale="log", yscale="log", xlabel="grid rows n",
               ylabel="time [s]" if quantity == "time" else "nodes + 1",
               title="time" if quantity == "time" else "nodes + 1")
        _plain_log_ticks(ax.yaxis, *ax.get_ylim())
        ax.set_xticks(sizes, [f"{n:g}" for n in sizes], minor=False)
        ax.set_xticks([], minor=True)
    _legend_outside(axes[-1], title="markers: geometric mean per size\nlines: least-squares fit c n^k")
    return axes


def plot_variability(ax, spreads: pd.DataFrame, styles: Styles):
    """Distribution over instances of max/min time across seeds x permutations, by formulation and solver."""
    hue_order = solver_order(spreads["solver"])
    _boxplot(ax, "max_min_ratio", spreads, spreads["max_min_ratio"].max(), x="formulation", hue="solver",
             hue_order=hue_order, order=sorted(spreads["formulation"].unique()), palette=styles.solver_colors)
    ax.set(xlabel="formulation", ylabel="max / min time over seeds × permutations",
           title=f"variability over {spreads['k'].median():g} runs per puzzle (median)")
    _legend_outside(ax)
    ax.tick_params(axis="x", labelrotation=20)
    return ax


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


def write_figures(runs: pd.DataFrame, instance_times: pd.DataFrame, configurations: pd.DataFrame,
                  scaling: pd.DataFrame, spreads: pd.DataFrame, out_dir, sgm: str) -> list[Path]:
    """Every figure kind for every puzzle into ``out_dir``/figures/<kind>/<puzzle>.png and .pdf.

    The kind folders always exist and hold only this call's figures (older
    PNGs and PDFs there are removed).  The scatter compares the puzzle's two
    best configurations by ``sgm``; scaling needs two sizes, variability runs
    with two seeds or permutations.
    """
    folders = {kind: Path(out_dir) / "figures" / kind for kind in KINDS}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
        for old in [*folder.glob("*.png"), *folder.glob("*.pdf")]:
            old.unlink()
    styles = styles_for(runs)
    scaled = scaling_runs(runs)
    paths = []
    with mpl.rc_context(RC), sns.axes_style("whitegrid"):
        for puzzle, part in runs.groupby("puzzle", sort=True):
            times = instance_times[instance_times["puzzle"] == puzzle]
            sized = scaled[scaled["puzzle"] == puzzle]
            varied = spreads[spreads["puzzle"] == puzzle]
            pair = best_pair(configurations, puzzle, sgm)
            drawings = [("profiles", WIDE, lambda fig: plot_profile(fig.subplots(), times, styles)),
                        ("ecdf", WIDE, lambda fig: plot_ecdf(fig.subplots(), part, styles)),
                        ("boxes", WIDE, lambda fig: plot_time_boxes(fig.subplots(), part, styles))]
            if len(pair) == 2:
                drawings.append(("scatter", (4.8, 4.8),
                                 lambda fig: plot_pair_scatter(fig.subplots(), times, *pair)))
            if sized["n"].nunique() >= 2:
                drawings.append(("scaling", (10.0, 4.0), lambda fig: plot_scaling(
                    fig.subplots(1, 2), sized, scaling[scaling["puzzle"] == puzzle], styles)))
            if len(varied):
                drawings.append(("variability", WIDE, lambda fig: plot_variability(fig.subplots(), varied, styles)))
            for kind, size, draw in drawings:
                fig = Figure(figsize=size, layout="constrained")
                draw(fig)
                for ax in fig.axes:
                    ax.set_title(f"{puzzle}: {ax.get_title()}")
                paths += save_figure(fig, folders[kind], puzzle)
    return paths
