"""The run's setup, read once from the results store: machine, versions, solver configurations, limits,
seeds, instance sets and the machine's measured noise.  :func:`run_setup` reads it; summary.md
(:func:`setup_markdown`, :func:`noise_markdown`), the paper (:func:`setup_paragraph`) and the results
page render it.

The reference noise is that of the fixed reference solve (noise.csv): its median, range, coefficient
of variation (sample std / mean) and geometric standard deviation g = exp(sd(log t)), the machine's
health check; the noise each claim is judged against comes from the configurations' own repeats
(:mod:`~puzzlebench.analysis.noise`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .latex import escape, plain_significant
from .outcomes import measured_time

TIME_MEASURE_TEXT = {"time": "solver time + model build time (`solver_time + build_time`)",
                     "wall": "wall time of the solver calls + model build time (`wall_time + build_time`)"}
REFERENCE_SOLVE = "sudoku, binary formulation, HiGHS"
"""The fixed reference puzzle every job solves at its start and end (puzzlebench.run.batch)."""


def distinct(series: pd.Series) -> list[str]:
    """The distinct values of a column in order, floats as %g, empty strings dropped."""
    values = series.dropna()
    values = values[values.astype(str) != ""]
    return [f"{v:g}" if isinstance(v, float) else str(v) for v in sorted(values.unique())]


def listed(values: list[str]) -> str:
    """Values comma-separated ("--" if none)."""
    return ", ".join(values) if values else "--"


@dataclass(frozen=True)
class Noise:
    """The reference solve's times: count, median, min, max, coefficient of variation, geometric sd."""

    solves: int
    median: float
    low: float
    high: float
    cv: float
    factor: float


@dataclass(frozen=True)
class SolverConfiguration:
    """One solver configuration of the run: name, adapter, kind (mip or cp), options (JSON text), versions."""

    name: str
    adapter: str
    kind: str
    options: str
    versions: str


@dataclass(frozen=True)
class RunSetup:
    """Everything a reader needs to repeat the run (see the module doc); lists hold the distinct values."""

    cpu_models: list[str]
    cpu_counts: list[str]
    hosts: list[str]
    platforms: list[str]
    puzzlebench_versions: list[str]
    commits: list[str]
    python_versions: list[str]
    configurations: list[SolverConfiguration]
    threads: list[str]
    time_limits: list[str]
    seeds: list[str]
    repeats: int
    permutations: int
    runs: int
    puzzles: int
    formulations: int
    solvers: int
    first_date: pd.Timestamp | None
    last_date: pd.Timestamp | None
    sets: dict[str, int]
    measure: str
    noise: Noise | None
    load_average: str = "--"   # 1-minute load average at the jobs' starts: "median (min-max)"
    cpu_pressure: str = "--"   # share of the time some task waited for a CPU, per run: "median (min-max)"


def noise_of(noise: pd.DataFrame | None, measure: str = "time") -> Noise | None:
    """:class:`Noise` of the reference solves, or None without any."""
    if noise is None or not len(noise):
        return None
    times = measured_time(noise, measure).dropna()
    if not len(times):
        return None
    positive = times[times > 0]
    cv = times.std(ddof=1) / times.mean() if len(times) > 1 else np.nan
    factor = float(np.exp(np.log(positive).std(ddof=1))) if len(positive) > 1 else np.nan
    return Noise(len(times), float(times.median()), float(times.min()), float(times.max()), float(cv), factor)


def spread(values: pd.Series, percent: bool = False) -> str:
    """"median (min-max)" of a column, "--" when it is empty."""
    values = pd.to_numeric(values, errors="coerce").dropna()
    if not len(values):
        return "--"
    scale, unit = (100, "%") if percent else (1, "")
    return (f"{scale * values.median():.3g}{unit} (median; {scale * values.min():.3g}{unit}-"
            f"{scale * values.max():.3g}{unit})")


def _configurations(runs: pd.DataFrame) -> list[SolverConfiguration]:
    entries = []
    for name, part in runs.dropna(subset=["solver"]).groupby("solver"):
        def values(column):
            return listed(distinct(part[column])) if column in part else "--"
        adapter, options = values("solver_adapter"), values("solver_options")
        entries.append(SolverConfiguration(name, name if adapter == "--" else adapter, values("solver_kind"),
                                           "none" if options in ("--", "{}") else options,
                                           values("solver_version")))
    return entries


def run_setup(runs: pd.DataFrame, noise: pd.DataFrame | None, measure: str = "time") -> RunSetup:
    """The :class:`RunSetup` of the store's runs (every run made) and the reference solves ``noise``."""
    dates = pd.to_datetime(runs["date"], errors="coerce", utc=True).dropna()
    sets = runs.groupby("instance_set", dropna=False)["instance"].nunique()
    return RunSetup(
        cpu_models=distinct(runs["cpu_model"]), cpu_counts=distinct(runs["cpu_count"]),
        hosts=distinct(runs["hostname"]), platforms=distinct(runs["platform"]),
        puzzlebench_versions=distinct(runs["puzzlebench_version"]), commits=distinct(runs["git_commit"]),
        python_versions=distinct(runs["python_version"]), configurations=_configurations(runs),
        threads=distinct(runs["threads"]), time_limits=distinct(runs["time_limit"]),
        seeds=distinct(runs["seed"]),
        repeats=int(runs["repeat"].max()) + 1 if len(runs) and "repeat" in runs else 1,
        permutations=int(runs["permutation"].max()) if len(runs) else 0, runs=len(runs),
        puzzles=runs["puzzle"].nunique(), formulations=runs["formulation"].nunique(),
        solvers=runs["solver"].nunique(), first_date=dates.min() if len(dates) else None,
        last_date=dates.max() if len(dates) else None,
        sets={str(name): int(count) for name, count in sets.items()}, measure=measure,
        noise=noise_of(noise, measure),
        load_average=spread(runs["load_average"]) if "load_average" in runs else "--",
        cpu_pressure=spread(runs["cpu_pressure"], percent=True) if "cpu_pressure" in runs else "--")


def date_range(setup: RunSetup) -> str:
    if setup.first_date is None:
        return "--"
    return f"{setup.first_date:%Y-%m-%d %H:%M} to {setup.last_date:%Y-%m-%d %H:%M} UTC"


def setup_markdown(setup: RunSetup) -> str:
    """The setup section of summary.md."""
    lines = [
        "## Setup", "",
        f"- Hardware: {listed(setup.cpu_models)}; {listed(setup.cpu_counts)} CPUs; host {listed(setup.hosts)}; "
        f"{listed(setup.platforms)}",
        f"- Versions: puzzlebench {listed(setup.puzzlebench_versions)} (commit {listed(setup.commits)}), "
        f"Python {listed(setup.python_versions)}",
        "- Solvers: " + ("; ".join(f"{c.name} {c.versions}" for c in setup.configurations) or "--"),
        "- Solver configurations (name: adapter, kind, options): "
        + ("; ".join(f"{c.name}: {c.adapter}, {c.kind}, options {c.options}" for c in setup.configurations)
           or "--"),
        f"- Threads: {listed(setup.threads)}; time limit: {listed(setup.time_limits)} s; "
        f"seeds: {listed(setup.seeds)}; repeats of each seed: {setup.repeats}; symmetry permutations per puzzle "
        f"besides the original: {setup.permutations}",
        f"- Load while running: 1-minute load average {setup.load_average} at the jobs' starts; CPU pressure "
        f"(share of the time some task waited for a CPU) {setup.cpu_pressure}",
        f"- Runs: {setup.runs}; puzzle types: {setup.puzzles}; formulations: {setup.formulations}; solvers: "
        f"{setup.solvers}; dates: {date_range(setup)}",
        "- Instance sets (puzzles run): " + (", ".join(f"{name}: {count}" for name, count in setup.sets.items())
                                             or "--"),
        f"- Time measure: {TIME_MEASURE_TEXT[setup.measure]}; unsolved runs count at the time limit. A run is "
        "solved when its outcome is solved (a grid the checker accepts) or infeasible_proved (infeasible, and "
        "no reference solution nor other run shows a grid); wrong, false_infeasible, no_grid and error runs "
        "count as unsolved; skipped runs are left out.",
    ]
    return "\n".join(lines)


def noise_markdown(setup: RunSetup, configuration_noise: pd.DataFrame | None = None) -> str:
    """The noise section of summary.md: the configurations' run-to-run noise from their repeats
    (``configuration_noise``, :meth:`~puzzlebench.analysis.noise.Noise.table`), then the reference
    solve, the machine's health check."""
    lines = ["## Machine noise", ""]
    if configuration_noise is not None and len(configuration_noise):
        sd = configuration_noise["geometric_sd"]
        lines += [f"Run-to-run noise of the configurations, from their {configuration_noise['source'].iloc[0]} "
                  f"(tables/noise): the geometric standard deviation of one run is {spread(sd)} over "
                  f"{len(sd)} configuration x set pairs; each claim's noise factor comes from these.", ""]
    noise = setup.noise
    if noise is None:
        return "\n".join(lines + ["No reference solves (noise.csv) were given."])
    return "\n".join(lines + [
        f"Machine health check: the fixed reference puzzle ({REFERENCE_SOLVE}), solved at the start and end of "
        f"every job: {noise.solves} solves, median {noise.median:.4g} s, min {noise.low:.4g} s, max "
        f"{noise.high:.4g} s, coefficient of variation {noise.cv:.3g} (sample std / mean), geometric standard "
        f"deviation {noise.factor:.3g}."])


def _seconds(value: str) -> str:
    return plain_significant(float(value)).replace(",", "{,}")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def setup_paragraph(setup: RunSetup) -> str:
    """The setup as one LaTeX paragraph for the paper (``paper/setup.tex``): machine, CPU, solver
    versions, time limit, threads, seeds, instance sets and counts, and the measured noise.  Numbers
    follow :func:`~puzzlebench.analysis.latex.significant`."""
    if not setup.runs:
        return "No runs were made."
    machine = (f"{escape(listed(setup.cpu_models))} ({listed(setup.cpu_counts)} CPUs, host "
               f"\\texttt{{{escape(listed(setup.hosts))}}}, {escape(listed(setup.platforms))})")
    solvers = _and([f"\\texttt{{{escape(c.name)}}} ({escape(c.versions)}"
                    + ("" if c.options == "none" else f"; options \\texttt{{{escape(c.options)}}}")
                    + (", the constraint-programming reference" if c.kind == "cp" else "") + ")"
                    for c in setup.configurations])
    limits = "/".join(setup.time_limits)
    seeds = listed(setup.seeds)
    seeds_text = f"seed {seeds}" if len(setup.seeds) == 1 else f"seeds {seeds} (times averaged over seeds)"
    if setup.repeats > 1:
        seeds_text += f", each run {setup.repeats} times (the median of the repeats taken per instance)"
    sets = _and([f"\\texttt{{{escape(name)}}} ({count})" for name, count in setup.sets.items()])
    permutations = (f", and {setup.permutations} symmetry-permuted cop{'y' if setup.permutations == 1 else 'ies'} "
                    "of every puzzle"
                    if setup.permutations else "")
    measure = {"time": "solver time plus model build time", "wall": "wall time plus model build time"}[setup.measure]
    text = [
        f"All {setup.runs:,} runs ran on {machine} with puzzlebench {escape(listed(setup.puzzlebench_versions))} "
        f"(commit \\texttt{{{escape(listed([c[:12] for c in setup.commits]))}}}) and Python {escape(listed(setup.python_versions))}"
        + (f", from {date_range(setup)}" if setup.first_date is not None else "") + ".",
        f"Solvers: {solvers}.",
        f"Each run had a time limit of {limits}~s, {listed(setup.threads)} solver thread"
        f"{'s' if setup.threads != ['1'] else ''} and {seeds_text}{permutations}; {setup.formulations} "
        f"formulations of {setup.puzzles} puzzle types on the instance sets (puzzles run) {sets}.",
        f"Time is the {measure}; an unsolved run counts at the time limit.",
    ]
    noise = setup.noise
    if noise is None:
        text.append("No reference solves were recorded, so the machine's noise was not measured.")
    else:
        text.append(
            f"The machine's noise, measured by a fixed reference puzzle ({REFERENCE_SOLVE}) solved at the start "
            f"and end of every job ({noise.solves} solves, median {_seconds(noise.median)}~s, range "
            f"{_seconds(noise.low)}--{_seconds(noise.high)}~s), is a geometric standard deviation of "
            f"{_seconds(noise.factor)}; each comparison is judged against the noise of its own configurations, "
            "measured from their repeats.")
    return "{\\sloppy " + " ".join(text) + "\\par}"  # long names in \\texttt may not break: stretch spaces
