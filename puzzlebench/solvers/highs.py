"""HiGHS through highspy: the model goes in as CSR arrays in one ``passModel`` call.

Figures: ``nodes`` is HiGHS's ``mip_node_count``, which counts the root node
(1 when the root solved the model, 0 when presolve did); ``lp_iterations`` is
``simplex_iteration_count``; ``solver_time`` is the growth of ``getRunTime()``
across the ``run()``; the presolved size is parsed from the first "Presolve
reductions" line of the log ("Reduced to empty" gives 0 rows, 0 columns); ``root_lp_time`` is the
time column of the first branch-and-bound log line with LP iterations (:func:`root_lp_time`).
``root_solved`` means the solve completed with ``mip_node_count <= 1``, that is without branching.

Solver options (``SolveOptions.solver_options``) go to ``setOptionValue`` after
the common ones; HiGHS checks each name and value (:func:`check_highs_options`).

Threads: HiGHS runs one thread scheduler per process, fixed by the first
``run()``.  The adapter resets that scheduler whenever ``options.threads``
differs from the count it last used, so each solve gets the count it asks for;
HiGHS code elsewhere in the same process that runs with another count forces a
reset at the next solve here.
"""

from __future__ import annotations

import os
import re
from typing import Callable

import numpy as np

from ..model import Model
from ..records import SolveOptions, SolverResult
from ..registry import solver
from ._capture import captured_output
from ._common import captured_solve, finished, refuse_harness_options, rounded_solution, time_limit_or_none

_PRESOLVE_LINE = re.compile(r"Presolve reductions: rows (\d+)\(-?\d+\); columns (\d+)\(")
_TREE_LINE = re.compile(r"^\s*[A-Z]?\s+\d+\s+\d+\s+\d+\s+[\d.]+%.*?\s(\d+)\s+([\d.]+)s\s*$", re.MULTILINE)
_scheduler_threads: int | None = None  # the thread count of the scheduler this module set up
_instance: tuple[int, object] | None = None  # (pid, Highs) reused by this process's solves


def highs_version() -> str:
    import highspy
    return f"HiGHS {highspy.HIGHS_VERSION_MAJOR}.{highspy.HIGHS_VERSION_MINOR}.{highspy.HIGHS_VERSION_PATCH}"


def presolved_size(log: str) -> tuple[int | None, int | None]:
    """Rows and columns after HiGHS's presolve, from its log; (None, None) when not logged."""
    found = _PRESOLVE_LINE.search(log)
    return (int(found[1]), int(found[2])) if found else (None, None)


def _set_option(highs, name: str, value) -> bool:
    """Set one HiGHS option; False when HiGHS refuses the name or the value."""
    import highspy
    if isinstance(value, int) and not isinstance(value, bool) \
            and highs.getOptionType(name)[1] == highspy.HighsOptionType.kDouble:
        value = float(value)  # an integer given for a real option
    return highs.setOptionValue(name, value) != highspy.HighsStatus.kError


_HARNESS_OPTIONS = {"time_limit": "time limit", "random_seed": "seed", "threads": "threads"}


def check_highs_options(settings: dict) -> None:
    """Set ``settings`` on a fresh Highs object; ValueError with HiGHS's reason for the first refused
    (HiGHS checks each value against the option's type and range), or for an option the harness sets."""
    import highspy
    refuse_harness_options(settings, _HARNESS_OPTIONS, "HiGHS")
    with captured_output() as out:
        highs = highspy.Highs()
        highs.setOptionValue("output_flag", True)
        highs.setOptionValue("log_to_console", True)
    for name, value in settings.items():
        with captured_output() as out:
            accepted = _set_option(highs, name, value)
        if not accepted:
            reason = out.text.strip().splitlines()[-1].strip() if out.text.strip() else "refused"
            raise ValueError(f"HiGHS option {name}={value!r}: {reason}")


def solve_highs_mps(path: str, options: SolveOptions) -> SolverResult:
    """Solve the MPS file ``path`` with HiGHS's own reader."""
    return run_highs(lambda highs: load_mps(highs, path), options)


@solver("highs", version=highs_version, kind="mip", options=check_highs_options, mps=solve_highs_mps,
        description="HiGHS branch-and-cut MIP solver (highspy), model passed as CSR arrays.")
def solve_highs(model: Model, options: SolveOptions) -> SolverResult:
    """Solve ``model`` with HiGHS."""
    return run_highs(lambda highs: _load_arrays(highs, model), options)


def run_highs(load: Callable, options: SolveOptions) -> SolverResult:
    """Solve the model that ``load(highs)`` puts into a fresh Highs object.

    ``load`` returns the integrality mask of the columns it loaded.
    """
    result = captured_solve(lambda: _solve(load, options), options)
    result.presolved_rows, result.presolved_cols = presolved_size(result.log)
    result.root_lp_time = root_lp_time(result.log)
    return result


def root_lp_time(log: str) -> float | None:
    """When the root LP was solved: the time column (seconds since the run began) of the first
    branch-and-bound log line with LP iterations; None when no such line was logged."""
    for found in _TREE_LINE.finditer(log):
        if int(found[1]) > 0:
            return float(found[2])
    return None


def _load_arrays(highs, model: Model) -> np.ndarray:
    A = model.A
    status = highs.passModel(
        model.num_cols, model.num_rows, A.nnz, 2, 1, float(model.offset),
        model.objective, model.col_lower, model.col_upper, model.row_lower, model.row_upper,
        A.indptr.astype(np.int32, copy=False), A.indices.astype(np.int32, copy=False), A.data,
        model.integrality.astype(np.int32))
    _check(status, "passModel")
    return model.integrality


def load_mps(highs, path: str) -> np.ndarray:
    """Read an MPS file into ``highs``; return its integrality mask."""
    import highspy
    _check(highs.readModel(str(path)), f"readModel({path})")
    types = highs.getLp().integrality_
    if not types:  # HiGHS keeps no integrality list for a model without integer columns
        return np.zeros(highs.getNumCol(), dtype=bool)
    return np.array([t == highspy.HighsVarType.kInteger for t in types], dtype=bool)


def _check(status, what: str) -> None:
    import highspy
    if status == highspy.HighsStatus.kError:
        raise RuntimeError(f"HiGHS {what} failed")


def _use_threads(threads: int) -> None:
    """Make the process-wide HiGHS scheduler run ``threads`` threads."""
    global _scheduler_threads
    import highspy
    if _scheduler_threads != threads:
        highspy.Highs.resetGlobalScheduler(True)
        _scheduler_threads = threads


def _set_options(highs, options: SolveOptions) -> None:
    settings = {"output_flag": True, "log_to_console": True, "threads": int(options.threads),
                "random_seed": int(options.seed), "mip_rel_gap": float(options.mip_gap)}
    limit = time_limit_or_none(options)
    if limit is not None:
        settings["time_limit"] = limit
    for name, value in settings.items():
        _check(highs.setOptionValue(name, value), f"option {name}={value!r}")
    for name, value in options.solver_options.items():
        if not _set_option(highs, name, value):
            raise RuntimeError(f"HiGHS option {name}={value!r} refused")


def _solve(load: Callable, options: SolveOptions) -> SolverResult:
    _use_threads(options.threads)
    highs = _emptied_highs()
    _set_options(highs, options)
    integrality = load(highs)
    clock_before = highs.getRunTime()
    highs.run()
    return _read_result(highs, integrality, highs.getRunTime() - clock_before)


def _emptied_highs():
    """This process's Highs object, cleared of the previous model, solve and options.

    Reused because creating and destroying one costs 2% of a 9x9 solve.  Its run
    clock (``getRunTime``) is cumulative over the object's life, so a solve's time
    is the difference across ``run()``; ``time_limit`` counts per ``run()``.
    """
    global _instance
    import highspy
    if _instance is None or _instance[0] != os.getpid():  # a forked child makes its own
        _instance = (os.getpid(), highspy.Highs())
    highs = _instance[1]
    highs.clearModel()
    highs.resetOptions()
    return highs


def _read_result(highs, integrality: np.ndarray, run_time: float) -> SolverResult:
    import highspy
    ms = highspy.HighsModelStatus
    model_status = highs.getModelStatus()
    info = highs.getInfo()
    # a model without columns is solved by the empty point (HiGHS reports no solution for it)
    has_solution = info.primal_solution_status == highspy.kSolutionStatusFeasible or model_status == ms.kModelEmpty
    status = {ms.kOptimal: "optimal", ms.kModelEmpty: "optimal", ms.kInfeasible: "infeasible",
              ms.kTimeLimit: "time_limit"}.get(model_status, "feasible" if has_solution else "error")
    nodes = int(info.mip_node_count) if info.mip_node_count >= 0 else None  # -1: no branch-and-bound ran
    dual = float(info.mip_dual_bound)
    return SolverResult(
        status=status,
        x=rounded_solution(highs.getSolution().col_value, integrality) if has_solution else None,
        message=highs.modelStatusToString(model_status),
        solver_time=float(run_time),
        nodes=nodes,
        lp_iterations=int(info.simplex_iteration_count) if info.simplex_iteration_count >= 0 else None,  # -1: no LP
        primal_bound=float(info.objective_function_value) if has_solution else None,
        dual_bound=dual if np.isfinite(dual) else None,
        root_solved=finished(status) and nodes is not None and nodes <= 1,
    )
