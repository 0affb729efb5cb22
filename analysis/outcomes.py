"""What each run counts as: solved or not, wrong or not, and the time it counts with.

Every analysis starts from :func:`prepare_runs`, which takes the results store
(one row per run, typed by :data:`puzzlebench.store.results.SCHEMA`, with the
``outcome`` the store decided), leaves out the ``skipped`` runs (they were not
made; :func:`skipped_runs` has them, counted in their own column) and adds:

* ``solved``: outcome ``solved`` (a grid the checker accepted) or
  ``infeasible_proved`` (an infeasible verdict no grid contradicts);
* ``wrong``: outcome ``wrong`` (the checker rejected the grid); never solved;
* ``measured``: the time measure, ``solver_time + build_time`` ("time", the
  default: model building and propagation count as the formulation's time;
  ``wall_time`` stands in for a missing ``solver_time``) or
  ``wall_time + build_time`` ("wall");
* ``time``: ``min(measured, time_limit)`` for solved runs and ``time_limit``
  for every other run (PAR1: unsolved, wrong, false_infeasible, no_grid and
  error runs count at the time limit);
* ``n``: the number of grid rows, parsed from ``size`` ("9x9" -> 9).

A configuration is (formulation, solver); an instance is (instance_set,
instance, permutation); a run is an instance solved by a configuration with
one seed, one of its ``repeat`` runs.  Table statistics keep every run as one observation;
:func:`instance_times` aggregates the repeats and seeds of each instance before any test.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from puzzlebench.store.results import SOLVED_OUTCOMES, read_store

CONFIG = ["formulation", "solver"]
INSTANCE = ["instance_set", "instance", "permutation"]
TIME_MEASURES = ("time", "wall")
REFERENCE_KIND = "cp"      # the reference side: runs whose solver_kind is "cp" (CP-SAT and any other CP solver)
REFERENCE_SOLVER = "cpsat"  # the reference side's column prefix in the best-vs-CP-SAT tables


def load_runs(paths) -> pd.DataFrame:
    """The results store at ``paths``: Parquet, CSV, or JSON-lines files (see :func:`puzzlebench.store.results.read_table`)."""
    return read_store(paths)


def flag(values: pd.Series) -> pd.Series:
    """A True/False/missing column (the store's nullable ``boolean``, or objects) as a plain boolean
    Series: True only where the value is True."""
    return values.eq(True).fillna(False).astype(bool)


def skipped_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """The runs of the store that were not made (outcome ``skipped``)."""
    return runs[runs["outcome"].eq("skipped")]


def solver_kinds(runs: pd.DataFrame) -> pd.Series:
    """``solver_kind``, with records written before it existed (empty) read as the one CP solver
    then, cpsat, being "cp" and every other solver "mip"."""
    kind = runs["solver_kind"]
    return kind.where(kind.notna() & kind.ne(""), np.where(runs["solver"].eq("cpsat"), REFERENCE_KIND, "mip"))


def measured_time(runs: pd.DataFrame, measure: str = "time") -> pd.Series:
    """``solver_time + build_time`` (solver_time falling back to wall_time) or ``wall_time + build_time``."""
    if measure not in TIME_MEASURES:
        raise ValueError(f"unknown time measure {measure!r} (known: {', '.join(TIME_MEASURES)})")
    build = runs["build_time"].astype(float).fillna(0.0)
    wall = runs["wall_time"].astype(float)
    if measure == "wall":
        return wall + build
    return runs["solver_time"].astype(float).fillna(wall) + build


def grid_rows(size: pd.Series) -> pd.Series:
    """The number of grid rows of a size label "RxC" (NaN when absent)."""
    return pd.to_numeric(size.astype(str).str.extract(r"^\s*(\d+)\s*x", expand=False), errors="coerce")


def prepare_runs(runs: pd.DataFrame, measure: str = "time") -> pd.DataFrame:
    """The runs made (outcome not ``skipped``) with ``solved``, ``wrong``, ``measured``, ``time``
    and ``n`` added (see the module doc)."""
    runs = runs[~runs["outcome"].eq("skipped")].reset_index(drop=True)
    solved = runs["outcome"].isin(SOLVED_OUTCOMES)
    measured = measured_time(runs, measure)
    return runs.assign(
        solver_kind=solver_kinds(runs),
        root_solved=flag(runs["root_solved"]), preprocessing_solved=flag(runs["preprocessing_solved"]),
        solved=solved, wrong=runs["outcome"].eq("wrong"), measured=measured,
        time=measured.clip(upper=runs["time_limit"]).where(solved, runs["time_limit"]),
        n=grid_rows(runs["size"]))


def instance_times(runs: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle, configuration and instance: ``time`` and ``nodes`` aggregated over its runs.

    First the median over the repeats of each seed (the repeats differ only by the machine's
    noise, and the median ignores a single disturbed run), then the geometric mean over the
    seeds (the seeds are the solver's performance variability, which a ratio averages on a log
    scale).  ``solved`` is True when every run solved the instance; ``runs`` counts the runs
    (seeds x repeats); ``preprocessing_solved`` is True when the formulation's preprocessing
    alone solved it; ``seeds`` counts the seeds.
    """
    keys = ["puzzle", *CONFIG, *INSTANCE]
    runs = runs.assign(repeat=runs["repeat"] if "repeat" in runs else 0)
    per_seed = runs.groupby([*keys, "seed"], sort=True, dropna=False).agg(
        size=("size", "first"), n=("n", "first"), solver_kind=("solver_kind", "first"), runs=("time", "size"),
        solved=("solved", "all"), preprocessing_solved=("preprocessing_solved", "all"),
        time=("time", "median"), nodes=("nodes", "median"), time_limit=("time_limit", "max")).reset_index()
    per_seed = per_seed.assign(log_time=np.log(per_seed["time"].astype(float).clip(lower=1e-9)))
    table = per_seed.groupby(keys, sort=True, dropna=False).agg(
        size=("size", "first"), n=("n", "first"), solver_kind=("solver_kind", "first"), runs=("runs", "sum"),
        seeds=("seed", "size"), solved=("solved", "all"), preprocessing_solved=("preprocessing_solved", "all"),
        log_time=("log_time", "mean"), nodes=("nodes", "mean"), time_limit=("time_limit", "max")).reset_index()
    time = np.exp(table.pop("log_time")).clip(upper=table["time_limit"])
    table.insert(table.columns.get_loc("nodes"), "time", time)
    return table
