"""summary.md: the claims first (from findings.json's data), then anomalies, setup, noise and tables."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from puzzlebench.store.results import ANOMALIES

from .formatting import markdown_table
from .outcomes import REFERENCE_SOLVER
from .run_setup import RunSetup, noise_markdown, run_setup, setup_markdown
from .tables import sgm_column


def anomaly_section(runs: pd.DataFrame, skipped: int = 0) -> str:
    """The count of anomalous runs first, then by outcome (wrong, false_infeasible, no_grid, error;
    each listed in anomalies.csv), and the runs skipped (not made)."""
    counts = runs["outcome"].value_counts() if len(runs) else pd.Series(dtype=int)
    parts = [f"{counts.get(kind, 0)} {kind}" for kind in ANOMALIES]
    total = sum(int(counts.get(kind, 0)) for kind in ANOMALIES)
    return (f"## Anomalies\n\nAnomalies: {total} ({', '.join(parts)}; listed in anomalies.csv). "
            f"Skipped runs (not made, see their message): {skipped}.")


def scaling_section(omissions: list[str]) -> str:
    """Which puzzles have growth exponents, and why the others have none."""
    if not omissions:
        return ("## Scaling\n\nGrowth exponents with their 95% confidence intervals are in "
                "tables/scaling_exponents, figures in figures/scaling.")
    return ("## Scaling\n\nGrowth exponents are fitted only on size ladders (sets tagged `ladder` in "
            "set.yaml with at least 3 grid sizes), per set. Omitted:\n\n" + "\n".join(f"- {o}" for o in omissions))


BY_SET_ROWS = 60
"""The most rows the per-set configuration table may have to be printed in the summary."""


def by_set_section(by_set: pd.DataFrame, shift: float, measure: str) -> str:
    """Every configuration on each instance set: solved, SGM time, nodes, root LP time (the
    whole table when it has at most :data:`BY_SET_ROWS` rows, else where to find it)."""
    head = "## Every configuration per instance set\n\n"
    if len(by_set) > BY_SET_ROWS:
        return head + (f"{len(by_set)} rows, in `tables/configurations_by_set.md` (and .csv, .tex): per "
                       "set and configuration the solved count, SGM time, nodes and root LP time.")
    sgm = sgm_column(measure, shift)
    shown = pd.DataFrame({
        "set": by_set["instance_set"], "formulation": by_set["formulation"], "configuration": by_set["solver"],
        "solved": by_set["solved"].astype(str) + "/" + by_set["runs"].astype(str),
        "SGM time (s)": by_set[sgm], "time limits": by_set["time_limit"],
        "nodes (SGM)": by_set["nodes_sgm_s100"], "root LP (s, median)": by_set["root_lp_time_median"]})
    return head + (f"SGM: shifted geometric mean of the {measure}, shift {shift:g} s, unsolved runs at the "
                   "time limit (build time included); nodes: SGM with shift 100, the count at termination "
                   "for unsolved runs; root LP: when the solver had its first LP relaxation solved, median "
                   "over the runs (-- for configurations without an LP).\n\n" + markdown_table(shown))


TABLE_TITLES = {
    "headline": "best solver per formulation (the paper's headline table)",
    "best_vs_cpsat": "best MIP configuration against CP-SAT's best, per puzzle",
    "best_vs_cpsat_by_set": "the same per instance set",
    "best_vs_cpsat_hardest": "the same on each set's hardest tenth for CP-SAT",
    "configurations": "every configuration: counts, SGMs, nodes, model sizes",
    "configurations_by_set": "every configuration per instance set",
    "ratios": "SGMs scaled by each puzzle's best configuration, with the virtual best",
    "wilcoxon": "every paired Wilcoxon test between formulations, Holm-adjusted",
    "pairwise": "every pair of formulations per set and solver, with its verdict (Markdown)",
    "noise": "run-to-run noise of each configuration per set, from its repeats",
    "scaling_exponents": "growth exponents on the size ladders",
    "variability": "spread of time over seeds and permutations",
    "instance_times": "per instance and configuration: mean time over seeds (CSV only)",
    "instance_spreads": "per instance and configuration: spread over seeds and permutations (CSV only)",
}
"""What each table of ``tables/`` holds, in the order the files section lists them."""
SINGLE_RUNS = ("every configuration ran each instance once (one seed, no symmetry permutations), so there is "
               "no spread to measure")
NO_PAIR = "no puzzle has two formulations run on one solver"
ABSENT_REASONS = {
    "scaling_exponents": "no instance set of this run is a size ladder with at least 3 grid sizes (see Scaling)",
    "variability": SINGLE_RUNS, "instance_spreads": SINGLE_RUNS,
    "wilcoxon": NO_PAIR, "pairwise": NO_PAIR,
    "best_vs_cpsat_hardest": "no constraint-programming configuration (solver_kind cp) ran",
}
"""Why a table is empty, and so not written (otherwise: no rows in this run)."""


def absent_reason(name: str) -> str:
    return ABSENT_REASONS.get(name, "no rows in this run")


def results_path(path) -> str:
    """A table file's path in the results folder: ``tables/NAME`` or ``tables/supplement/NAME``."""
    path = Path(path)
    folder = "tables/supplement" if path.parent.name == "supplement" else path.parent.name
    return f"{folder}/{path.name}"


def files_section(written: dict[str, list], absent: dict[str, str]) -> str:
    """Which tables were written where (body LaTeX in ``tables/``, supplement LaTeX in
    ``tables/supplement/``), and why each absent one is absent (``absent``: name -> reason)."""
    lines = ["## Files", "", "Figures (PNG, PDF) in `figures/`; the paper section in `paper/` (`findings.tex`, "
             "`setup.tex`, `paper.pdf`, and `supplement.pdf` with the long tables); the results page "
             "`index.html`. Tables in `tables/` (CSV at full precision, Markdown; LaTeX in `tables/` for the "
             "body of a paper, in `tables/supplement/` as longtables for a one-column supplement):", ""]
    for name in [*TABLE_TITLES, *sorted(set(written) - set(TABLE_TITLES))]:
        what = TABLE_TITLES.get(name, name)
        if name in written:
            files = ", ".join(f"`{results_path(path)}`" for path in written[name])
            lines.append(f"- {name}: {what}; {files}")
        elif name in absent:
            lines.append(f"- {name}: not written: {absent[name]}")
    lines += ["", "Every claim with its numbers is in `findings.json`; every statistic is defined in the "
              "docstrings of `puzzlebench.analysis`."]
    return "\n".join(lines)


def summary_markdown(runs: pd.DataFrame, noise: pd.DataFrame | None, configurations: pd.DataFrame,
                     best: pd.DataFrame, shift: float, measure: str,
                     best_by_set: pd.DataFrame | None = None, claims: str = "",
                     scaling_omissions=(), skipped: int = 0,
                     by_set: pd.DataFrame | None = None, hardest: pd.DataFrame | None = None,
                     configuration_noise: pd.DataFrame | None = None, setup: RunSetup | None = None,
                     files: str | None = None, analysis: str | None = None) -> str:
    """The whole summary.md text, the claims first; ``shift`` is the headline SGM shift the
    ``best`` table used; ``claims`` the Markdown of :func:`~puzzlebench.analysis.paper.findings_markdown`
    (rendered from the claims' data); ``skipped`` the number of runs not made; ``by_set`` the table of
    :func:`~puzzlebench.analysis.tables.set_configuration_table` (:func:`by_set_section`); ``hardest``
    that of :func:`~puzzlebench.analysis.tables.best_vs_reference_hardest`; ``configuration_noise``
    :meth:`~puzzlebench.analysis.noise.Noise.table`; ``setup`` the run's
    :class:`~puzzlebench.analysis.run_setup.RunSetup` (read from ``runs`` and ``noise`` when None); ``files``
    the files section (:func:`files_section`); ``analysis`` the id of the analysis (``analysis.json``)."""
    setup = run_setup(runs, noise, measure) if setup is None else setup
    sections = [
        "# puzzlebench results summary" + (f"\n\nAnalysis `{analysis}` (the id findings.json, paper.pdf, "
                                            "index.html and analysis.json share)." if analysis else ""),
        claims or "## Claims\n\nNo runs.",
        anomaly_section(runs, skipped),
        setup_markdown(setup),
        noise_markdown(setup, configuration_noise),
        scaling_section(list(scaling_omissions)),
        "## Best configuration per puzzle against CP-SAT\n\n"
        f"SGM = shifted geometric mean of time over all runs, shift {shift:g} s, unsolved at the time limit; "
        "ratio = MIP SGM / CP-SAT SGM (> 1: CP-SAT's is the smaller); solved = instances solved by every run, "
        "preprocessed = those the formulation's preprocessing alone solved (its time counted, "
        "the solver not credited). As in the claims, a configuration whose instances were mostly solved before "
        "any solver ran is no candidate for best, and formulations that give one model are one candidate "
        "(named a = b); note: a side that reached a solver on fewer instances than a test needs. The claims "
        "above decide which differences count.\n\n"
        + markdown_table(best),
        *([] if best_by_set is None or not len(best_by_set) else [
            "## Best configuration per instance set against CP-SAT\n\n"
            "The same per set, with why the best MIP configuration is slow or fails: mip_nodes and "
            "mip_lp_iterations are its SGMs (shift 100; unsolved runs with the count at termination), "
            "mip_root_share its share of runs solved at the root. A set whose best MIP configuration "
            "solved none of its instances with 0 nodes stopped in the root node, typically before the root "
            "LP relaxation was solved (solved runs with 0 nodes were solved in the root node).\n\n"
            + markdown_table(best_by_set)]),
        *([] if hardest is None or not len(hardest) else [
            "## The hardest tenth of each set against CP-SAT\n\n"
            "The best-vs-CP-SAT comparison per set over the tenth of its instances (at least one) on which "
            "CP-SAT is slowest (its best configuration's time), where a better model should show most. A row "
            "over fewer instances than a test needs says so (note): its ratio is no claim.\n\n"
            + markdown_table(hardest[["puzzle", "instance_set", "instances_kept", "instances_in_set", "mip_best",
                                      "mip_sgm", f"{REFERENCE_SOLVER}_best", f"{REFERENCE_SOLVER}_sgm", "ratio",
                                      "mip_solved", f"{REFERENCE_SOLVER}_solved", "note"]])]),
        *([] if by_set is None or not len(by_set) else [by_set_section(by_set, shift, measure)]),
        files if files is not None else files_section({}, {}),
    ]
    return "\n\n".join(sections) + "\n"
