"""COPT (Cardinal Optimizer) through coptpy's matrix interface: one ``loadMatrix`` call with the CSC matrix.

Rows go in as ``row_lower <= A x <= row_upper`` directly (COPT takes both sides,
infinite ones as ``COPT.INFINITY``).

Figures: ``solver_time`` is ``SolvingTime``, ``nodes`` ``NodeCnt``,
``lp_iterations`` ``SimplexIter``, the bounds ``BestObj`` and ``BestBnd``; the
presolved size is parsed from the log ("The presolved problem has: R rows, C
columns", 0 and 0 when "Problem was solved during presolve"); ``root_solved``
means the solve completed with at most one node.

Options: ``Threads``, ``RandSeed``, ``TimeLimit``, ``RelGap``; solver options are
COPT parameters (``setParam``: ``Presolve: 0``, ``HeurLevel: 0``), set after those.

Licence: COPT looks for its licence files in the working folder, next to the
Python binary, in ``~/copt`` and in ``COPT_LICENSE_DIR``; without one it runs
"with size limitations for non-commercial use" and refuses a larger problem
with a licence error (its log: "The size is limited to 2000 variables and 2000
constraints").  That run is ``skipped`` with COPT's own words, so a licence
file lifts the limit.  One COPT environment per process is reused.
"""

from __future__ import annotations

import os
import re
from importlib.metadata import version

import numpy as np

from ..model import Model
from ..records import SolveOptions, SolverResult
from ..registry import solver
from ._capture import captured_output
from ._common import captured_solve, finished, finite_or, licence_limit, logged_size, refuse_harness_options, \
    rounded_solution, time_limit_or_none

_LICENCE_ERROR = "(LICENSE)"
_LIMIT_LINES = re.compile(r"^.*(?:size is limited to|exceeding the size limit).*$", re.MULTILINE)
_PRESOLVED = r"The presolved problem has:\s+(\d+) rows, (\d+) columns"
_PRESOLVED_EMPTY = r"Problem was solved during presolve"
_env: tuple[int, object] | None = None  # (pid, coptpy.Envr) of this process


def copt_version() -> str:
    import coptpy
    return (f"COPT {coptpy.COPT.VERSION_MAJOR}.{coptpy.COPT.VERSION_MINOR}.{coptpy.COPT.VERSION_TECHNICAL} "
            f"(coptpy {version('coptpy')})")


def _environment():
    """This process's COPT environment (a forked child starts its own)."""
    global _env
    import coptpy
    if _env is None or _env[0] != os.getpid():
        _env = (os.getpid(), coptpy.Envr())
    return _env[1]


def _set_parameters(model, settings: dict) -> None:
    import coptpy
    for name, value in settings.items():
        try:
            model.setParam(name, value)
        except (AttributeError, TypeError, ValueError, coptpy.CoptError) as exc:
            raise ValueError(f"COPT parameter {name}={value!r}: {exc}") from None


_HARNESS_OPTIONS = {"timelimit": "time limit", "randseed": "seed", "threads": "threads", "barthreads": "threads",
                    "simplexthreads": "threads", "crossoverthreads": "threads", "miptasks": "threads"}


def _check_range(model, name: str, value) -> None:
    """ValueError for a number outside the parameter's range (``getParamInfo``: name, current,
    default, minimum, maximum), which ``setParam`` would clamp to the nearest bound without a word."""
    try:
        _, _, _, low, high = model.getParamInfo(name)
    except Exception:  # an unknown name: setParam says so
        return
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not low <= value <= high:
        raise ValueError(f"COPT parameter {name}={value!r}: outside its range {low:g}..{high:g}")


def check_copt_options(settings: dict) -> None:
    """Set ``settings`` on a fresh COPT model; ValueError with COPT's reason for the first refused, for a
    value outside the parameter's range, or for a parameter the harness sets."""
    refuse_harness_options(settings, _HARNESS_OPTIONS, "COPT")
    with captured_output():
        model = _environment().createModel("check")
        try:
            for name, value in settings.items():
                _check_range(model, name, value)
            _set_parameters(model, settings)
        finally:
            model.dispose()


def _load_arrays(coptpy, cm, model: Model) -> None:
    infinity = coptpy.COPT.INFINITY
    cm.loadMatrix(model.objective, model.A.tocsc(), finite_or(model.row_lower, infinity),
                  finite_or(model.row_upper, infinity), finite_or(model.col_lower, infinity),
                  finite_or(model.col_upper, infinity),
                  np.where(model.integrality, coptpy.COPT.INTEGER, coptpy.COPT.CONTINUOUS))
    if model.offset:
        cm.setObjConst(float(model.offset))


def _run(load, options: SolveOptions, integrality) -> SolverResult:
    import coptpy
    cm = _environment().createModel("puzzlebench")
    cm.setParam("Threads", int(options.threads))
    cm.setParam("RandSeed", int(options.seed))
    cm.setParam("RelGap", float(options.mip_gap))
    limit = time_limit_or_none(options)
    if limit is not None:
        cm.setParam("TimeLimit", limit)
    _set_parameters(cm, options.solver_options)
    load(coptpy, cm)
    try:
        cm.solve()
    except coptpy.CoptError as exc:
        if _LICENCE_ERROR in str(exc):
            return licence_limit("COPT", str(exc))
        raise
    return _read_result(coptpy.COPT, cm, integrality)


def _read_result(COPT, cm, integrality) -> SolverResult:
    code = cm.status
    is_mip = bool(cm.IsMIP)
    has_solution = bool(cm.HasMipSol) if is_mip else bool(cm.HasLpSol)
    status = {COPT.OPTIMAL: "optimal", COPT.INFEASIBLE: "infeasible", COPT.TIMEOUT: "time_limit"}.get(
        code, "infeasible" if code == COPT.INF_OR_UNB and not has_solution and _bounded(cm) else
        "feasible" if has_solution else "error")
    variables = cm.getVars()
    if integrality is None:
        integrality = np.array([cm.getVarType(v) != COPT.CONTINUOUS for v in variables], dtype=bool)
    nodes = int(cm.NodeCnt) if is_mip else 0
    primal = cm.BestObj if is_mip else cm.LpObjval
    dual = cm.BestBnd if is_mip else (cm.LpObjval if status == "optimal" else None)
    return SolverResult(
        status=status,
        x=rounded_solution(cm.getValues(), integrality) if has_solution else None,
        message=f"COPT status {code}",
        solver_time=float(cm.SolvingTime),
        nodes=nodes,
        lp_iterations=int(cm.SimplexIter),
        primal_bound=float(primal) if has_solution else None,
        dual_bound=float(dual) if dual is not None and status != "infeasible" and abs(dual) < COPT.INFINITY
        else None,
        root_solved=finished(status) and nodes <= 1,
    )


def _bounded(cm) -> bool:
    """Whether every column is integer: then INF_OR_UNB can only mean infeasible (puzzle models)."""
    return cm.Cols == cm.Ints + cm.Bins


def _finish(result: SolverResult) -> SolverResult:
    """The presolved size from the log; a licence refusal named in COPT's own log words."""
    if result.status == "skipped":
        limits = _LIMIT_LINES.findall(result.log)
        if limits:
            result.message = licence_limit("COPT", "; ".join(dict.fromkeys(line.strip() for line in limits))).message
    elif result.status != "error":
        result.presolved_rows, result.presolved_cols = logged_size(_PRESOLVED, _PRESOLVED_EMPTY, result.log)
    return result


def solve_copt_mps(path: str, options: SolveOptions) -> SolverResult:
    """Solve the MPS file ``path`` with COPT's own reader."""
    return _finish(captured_solve(lambda: _run(lambda coptpy, cm: cm.readMps(str(path)), options, None),
                                  options))


@solver("copt", version=copt_version, kind="mip", options=check_copt_options, mps=solve_copt_mps,
        description="COPT (Cardinal Optimizer) MIP solver (coptpy), model passed with loadMatrix; "
                    "size-limited without a licence file.")
def solve_copt(model: Model, options: SolveOptions) -> SolverResult:
    """Solve ``model`` with COPT."""
    return _finish(captured_solve(
        lambda: _run(lambda coptpy, cm: _load_arrays(coptpy, cm, model), options, model.integrality), options))
