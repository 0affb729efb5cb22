"""What each run counts as: solved or not, wrong or not, and the time it counts with.

Every analysis starts from :func:`prepare_runs`, which adds these columns to the
results store (one row per run):

* ``solved``: status optimal/feasible with a grid the checker accepted
  (``verified`` True), or status infeasible;
* ``wrong``: the checker rejected the grid (``verified`` False); never solved;
* ``measured``: the time measure, ``solver_time + build_time`` ("time", the
  default: model building and propagation count as the formulation's time;
  ``wall_time`` stands in for a missing ``solver_time``) or
  ``wall_time + build_time`` ("wall");
* ``time``: ``min(measured, time_limit)`` for solved runs and ``time_limit``
  for every other run (PAR1: unsolved runs count at the time limit);
* ``n``: the number of grid rows, parsed from ``size`` ("9x9" -> 9).

A configuration is (formulation, solver); an instance is (instance_set,
instance, permutation); a run is an instance solved by a configuration with
one seed.  Table statistics keep every run as one observation;
:func:`instance_times` averages the seeds of each instance.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

CONFIG = ["formulation", "solver"]
INSTANCE = ["instance_set", "instance", "permutation"]
FOUND_STATUSES = ("optimal", "feasible")
TIME_MEASURES = ("time", "wall")
REFERENCE_KIND = "cp"      # the reference side: runs whose solver_kind is "cp" (CP-SAT and any other CP solver)
REFERENCE_SOLVER = "cpsat"  # the reference side's column prefix in the best-vs-CP-SAT tables

NUMERIC_COLUMNS = ("seed", "threads", "time_limit", "wall_time", "solver_time", "build_time", "nodes",
                   "lp_iterations", "rows", "cols", "nonzeros", "presolved_rows", "presolved_cols",
                   "permutation", "cpu_count", "givens")
TEXT_COLUMNS = ("instance", "puzzle", "formulation", "solver", "solver_version", "solver_adapter",
                "solver_options", "solver_kind", "status", "message",
                "instance_set", "size", "puzzlebench_version", "git_commit", "python_version",
                "cpu_model", "hostname", "platform", "date", "solver_versions", "violations")
FLAG_COLUMNS = ("verified", "root_solved", "preprocessing_solved")
FLAG_VALUES = {True: True, False: False, "True": True, "False": False, "true": True, "false": False}


def load_runs(path) -> pd.DataFrame:
    """The results store at ``path``: Parquet, or CSV for any other suffix."""
    path = Path(path)
    return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)


def three_valued(values: pd.Series) -> pd.Series:
    """A True/False/None column (or its CSV spelling) as True, False or NaN."""
    return values.map(FLAG_VALUES)


def flag(values: pd.Series) -> pd.Series:
    """A True/False/None column as a boolean Series: True only where the value is True."""
    return three_valued(values).eq(True).astype(bool)


def _complete(runs: pd.DataFrame) -> pd.DataFrame:
    """``runs`` with every column the analysis reads (missing ones empty) in a usable dtype."""
    missing = [c for c in (*NUMERIC_COLUMNS, *TEXT_COLUMNS, *FLAG_COLUMNS) if c not in runs]
    runs = runs.assign(**{c: pd.Series(np.nan, index=runs.index, dtype=object) for c in missing})
    numbers = {c: pd.to_numeric(runs[c], errors="coerce") for c in NUMERIC_COLUMNS}
    numbers["permutation"] = numbers["permutation"].fillna(0).astype(int)
    # results written before records had solver_kind: the one CP solver then was cpsat
    numbers["solver_kind"] = runs["solver_kind"].where(runs["solver_kind"].notna() & runs["solver_kind"].ne(""),
                                                      np.where(runs["solver"].eq("cpsat"), REFERENCE_KIND, "mip"))
    return runs.assign(**numbers)


def measured_time(runs: pd.DataFrame, measure: str = "time") -> pd.Series:
    """``solver_time + build_time`` (solver_time falling back to wall_time) or ``wall_time + build_time``."""
    if measure not in TIME_MEASURES:
        raise ValueError(f"unknown time measure {measure!r} (known: {', '.join(TIME_MEASURES)})")
    build = pd.to_numeric(runs["build_time"], errors="coerce").fillna(0.0)
    wall = pd.to_numeric(runs["wall_time"], errors="coerce")
    if measure == "wall":
        return wall + build
    return pd.to_numeric(runs["solver_time"], errors="coerce").fillna(wall) + build


def grid_rows(size: pd.Series) -> pd.Series:
    """The number of grid rows of a size label "RxC" (NaN when absent)."""
    return pd.to_numeric(size.astype(str).str.extract(r"^\s*(\d+)\s*x", expand=False), errors="coerce")


def prepare_runs(runs: pd.DataFrame, measure: str = "time") -> pd.DataFrame:
    """The runs with ``solved``, ``wrong``, ``measured``, ``time`` and ``n`` added (see the module doc)."""
    runs = _complete(runs.reset_index(drop=True))
    verified = three_valued(runs["verified"])
    wrong = verified.eq(False).astype(bool)
    solved = (runs["status"].isin(FOUND_STATUSES) & flag(verified)) | runs["status"].eq("infeasible")
    measured = measured_time(runs, measure)
    return runs.assign(
        verified=verified, root_solved=flag(runs["root_solved"]),
        preprocessing_solved=flag(runs["preprocessing_solved"]), solved=solved, wrong=wrong,
        measured=measured, time=measured.clip(upper=runs["time_limit"]).where(solved, runs["time_limit"]),
        n=grid_rows(runs["size"]))


def instance_times(runs: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle, configuration and instance: the seeds' mean ``time`` and ``nodes``.

    ``solved`` is True when every seed solved the instance; ``runs`` counts the seeds;
    ``preprocessing_solved`` is True when the formulation's preprocessing alone solved it.
    """
    keys = ["puzzle", *CONFIG, *INSTANCE]
    grouped = runs.groupby(keys, sort=True, dropna=False)
    return grouped.agg(size=("size", "first"), n=("n", "first"), solver_kind=("solver_kind", "first"),
                       runs=("time", "size"),
                       solved=("solved", "all"), preprocessing_solved=("preprocessing_solved", "all"),
                       time=("time", "mean"), nodes=("nodes", "mean"),
                       time_limit=("time_limit", "max")).reset_index()
