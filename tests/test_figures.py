"""Figures stay readable at any grid size: drawn for 7 formulations x 5 solvers, checked from the
matplotlib objects (plot area, lines per panel, legend placement, consistent styles, sizes)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from puzzlebench.analysis.figures import (MAX_FORMULATIONS, ONE_COLUMN, RC, TWO_COLUMN, all_drawings, render,
                                          styles_for)
from puzzlebench.analysis.outcomes import instance_times, prepare_runs
from puzzlebench.store import frame_from_rows
from test_analysis import run_row
from puzzlebench.analysis.tables import configuration_table, instance_spreads, scaling_runs, scaling_table

FORMULATIONS = ("binary", "binary-reduced", "binary-symbreak", "integer", "integer-linked", "propagated",
                "cp-natural")
SOLVERS = ("cbc", "highs", "scip", "scip-cp", "cpsat")
SIZES = (4, 9, 16, 25)


def grid_runs() -> pd.DataFrame:
    """7 formulations x 5 solvers x 4 sizes x 3 instances x 2 seeds of a sudoku ladder, some unsolved."""
    rng = np.random.default_rng(12)
    rows = []
    for f_index, formulation in enumerate(FORMULATIONS):
        for s_index, solver in enumerate(SOLVERS):
            for n in SIZES:
                for instance in range(3):
                    for seed in (0, 1):
                        time = 0.001 * (1 + f_index) * (1 + s_index / 2) * n ** 2 * rng.lognormal(0, 0.3)
                        solved = time < 5.0
                        rows.append(run_row(**{
                            "puzzle": "sudoku", "formulation": formulation, "solver": solver, "seed": seed,
                            "instance": f"{n}-{instance}", "instance_set": "sudoku/ladder", "permutation": 0,
                            "size": f"{n}x{n}", "time_limit": 5.0, "status": "optimal" if solved else "time_limit",
                            "verified": True if solved else None, "solver_time": min(time, 5.0),
                            "build_time": 0.0, "wall_time": min(time, 5.0), 
                            "lp_iterations": 10, "root_solved": instance == 0,
                            "nodes": n * instance, "solution": [[1]] if solved else None}))
    return prepare_runs(frame_from_rows(rows))


@pytest.fixture(scope="module")
def figures():
    runs = grid_runs()
    configurations = configuration_table(runs)
    ladders = {"sudoku/ladder"}
    drawings = all_drawings(runs, instance_times(runs), configurations, scaling_runs(runs, ladders),
                            scaling_table(runs, ladders), instance_spreads(runs), "time_sgm_s0.01")
    import matplotlib as mpl
    with mpl.rc_context(RC):
        return [(kind, name, render(width, height, draw)) for kind, name, width, height, draw in drawings]


def data_lines(ax) -> list:
    """The labelled lines of a panel (reference lines such as the time limit are labelled "_...")."""
    return [line for line in ax.get_lines() if not line.get_label().startswith("_")]


def test_every_kind_is_drawn(figures):
    assert {kind for kind, _, _ in figures} == {"profiles", "ecdf", "scatter", "boxes", "scaling", "variability"}
    assert {name for kind, name, _ in figures if kind == "profiles"} == {"sudoku", "sudoku-column"}


def test_plot_area_keeps_half_the_figure(figures):
    for kind, name, fig in figures:
        boxes = np.array([ax.get_position().extents for ax in fig.axes])
        width = boxes[:, 2].max() - boxes[:, 0].min()
        height = boxes[:, 3].max() - boxes[:, 1].min()
        assert width >= 0.5 and height >= 0.5, (kind, name, width, height)


def test_at_most_eight_lines_or_groups_per_panel(figures):
    for kind, name, fig in figures:
        for ax in fig.axes:
            assert len(data_lines(ax)) <= MAX_FORMULATIONS + 1, (kind, name, ax.get_title())
            if kind in ("boxes", "variability"):
                assert len(ax.get_yticks()) <= MAX_FORMULATIONS, (kind, name)


def test_legend_does_not_cover_the_panels(figures):
    for kind, name, fig in figures:
        renderer = fig._get_renderer()
        legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend())]
        assert kind in ("boxes", "variability") or legends, (kind, name)
        for legend in legends:
            extent = legend.get_window_extent(renderer)
            figure_box = fig.bbox
            assert extent.x0 >= figure_box.x0 - 1 and extent.x1 <= figure_box.x1 + 1, (kind, name)
            assert extent.y0 >= figure_box.y0 - 1 and extent.y1 <= figure_box.y1 + 1, (kind, name)
            for ax in fig.axes:
                assert not extent.overlaps(ax.get_window_extent(renderer)), (kind, name, ax.get_title())


def test_one_and_two_column_widths(figures):
    widths = {(kind, name): fig.get_figwidth() for kind, name, fig in figures}
    assert widths[("profiles", "sudoku")] == TWO_COLUMN and widths[("profiles", "sudoku-column")] == ONE_COLUMN
    assert set(widths.values()) == {ONE_COLUMN, TWO_COLUMN}


def test_one_colour_per_formulation_and_one_style_per_solver_everywhere(figures):
    styles = styles_for(grid_runs())
    colours = list(styles.formulation_colors.values())
    assert len(set(colours)) == len(FORMULATIONS)
    assert len({str(styles.solver_dashes[s]) for s in SOLVERS}) == len(SOLVERS)
    assert len({styles.solver_markers[s] for s in SOLVERS}) == len(SOLVERS)
    for kind, name, fig in figures:
        for ax in fig.axes:
            for line in data_lines(ax):
                formulation, _, solver = line.get_label().partition("/")
                if formulation in styles.formulation_colors:
                    assert tuple(line.get_color()[:3]) == pytest.approx(styles.formulation_colors[formulation])
                    assert line.get_marker() in (styles.solver_markers[solver], "None", None)


def test_formulations_of_one_puzzle_never_share_a_colour():
    from puzzlebench.analysis.figures import formulation_colors
    pairs = pd.DataFrame([(p, f) for p, fs in {"sudoku": ["binary", "a", "b", "c", "d", "e", "f", "g"],
                                               "takuzu": ["binary", "h", "i", "j", "k", "l"]}.items() for f in fs],
                         columns=["puzzle", "formulation"])
    colours = formulation_colors(pairs)
    for puzzle, part in pairs.groupby("puzzle"):
        assert len({colours[f] for f in part["formulation"]}) == len(part)


def test_pdfs_embed_truetype_fonts(tmp_path, figures):
    from puzzlebench.analysis.figures import save_figure
    import matplotlib as mpl
    with mpl.rc_context(RC):
        _, pdf = save_figure(figures[0][2], tmp_path, "figure")
    data = pdf.read_bytes()
    assert b"/FontFile2" in data and b"/Type3" not in data


def test_every_solver_of_a_large_grid_has_its_own_style():
    """Nine configurations (the commercial study's) never share a line style and marker."""
    from puzzlebench.analysis.figures import styles_for
    solvers = ["cbc", "highs", "scip", "scip-cp", "cpsat", "gurobi", "xpress", "cplex", "copt"]
    runs = pd.DataFrame({"puzzle": "sudoku", "formulation": "binary", "solver": solvers})
    styles = styles_for(runs)
    pairs = {(str(styles.solver_dashes[s]), styles.solver_markers[s]) for s in solvers}
    assert len(pairs) == len(solvers)
