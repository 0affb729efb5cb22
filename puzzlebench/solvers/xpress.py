"""FICO Xpress through the xpress package's matrix interface: one ``loadMIP`` call with the CSC arrays.

Rows: ``E`` where ``row_lower == row_upper``, ``G``/``L`` for one finite bound,
``R`` (right-hand side the upper bound, range the width) for two, ``N`` for none.

Figures: ``solver_time`` is the ``time`` attribute, ``nodes`` ``nodes``,
``lp_iterations`` ``simplexiter``, the bounds ``mipbestobjval`` and
``bestbound``; the presolved size is parsed from the log ("Presolved problem
has: R rows C cols", 0 and 0 when presolve solved the problem); ``root_solved``
means the solve completed with at most one node.

Options: ``threads``, ``randomseed``, ``timelimit``, ``miprelstop``; solver
options are Xpress controls (``setControl``: ``presolve: 0``, ``heuremphasis: 0``),
set after those.

Licence: xpress finds a licence the usual way (``XPAUTH_PATH`` or the ``XPRESS``
folder) and otherwise runs under the Community licence it ships with.  A
problem the licence does not allow is refused by Xpress with error 120
("Problem has too many rows and columns. The maximum is 5000"): that run is
``skipped`` with Xpress's message, so a full licence lifts the limit.
"""

from __future__ import annotations

import re
import warnings
from importlib.metadata import version

import numpy as np

from ..model import Model
from ..records import SolveOptions, SolverResult
from ..registry import solver
from ._capture import captured_output
from ._common import captured_solve, finished, finite_or, licence_limit, refuse_harness_options, \
    rounded_solution, time_limit_or_none, with_logged_size

_SIZE_LIMIT_ERROR = 120
_ERROR_CODE = re.compile(r"\?(\d+) Error")
_PRESOLVED = r"Presolved problem has:\s+(\d+) rows\s+(\d+) cols"
_PRESOLVED_EMPTY = r"Problem is (?:integer )?(?:optimal|solved) \(presolved\)|Presolved problem has:\s+0 rows\s+0 cols"


def _xpress():
    """The xpress module, its licence notice silenced (the log records the licence in use)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import xpress
    return xpress


def xpress_version() -> str:
    xp = _xpress()
    return f"FICO Xpress {xp.getVersion()} (xpress {version('xpress')})"


def _problem(xp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return xp.problem()


def _set_controls(problem, settings: dict) -> None:
    for name, value in settings.items():
        try:
            problem.setControl(name, value)
        except Exception as exc:
            raise ValueError(f"Xpress control {name}={value!r}: {exc}") from None


_HARNESS_OPTIONS = {"timelimit": "time limit", "maxtime": "time limit", "randomseed": "seed", "threads": "threads"}


def check_xpress_options(settings: dict) -> None:
    """Set ``settings`` on a fresh Xpress problem; ValueError with Xpress's reason for the first refused."""
    refuse_harness_options(settings, _HARNESS_OPTIONS, "Xpress", canonical=lambda name: name.lower().removeprefix("xprs_"))
    xp = _xpress()
    with captured_output():
        problem = _problem(xp)
    _set_controls(problem, settings)


def _row_types(model: Model):
    lower, upper = model.row_lower, model.row_upper
    lo, up = np.isfinite(lower), np.isfinite(upper)
    kind = np.where(lower == upper, "E", np.where(lo & up, "R", np.where(lo, "G", np.where(up, "L", "N"))))
    rhs = np.where(up, upper, np.where(lo, lower, 0.0))
    rng = np.where(kind == "R", upper - lower, 0.0)
    return kind.tolist(), rhs, rng


def _load_arrays(xp, problem, model: Model) -> None:
    kind, rhs, rng = _row_types(model)
    A = model.A.tocsc()
    integers = np.flatnonzero(model.integrality)
    problem.loadMIP("", kind, rhs, rng, model.objective, A.indptr, None, A.indices, A.data,
                    finite_or(model.col_lower, xp.infinity), finite_or(model.col_upper, xp.infinity),
                    ["I"] * len(integers), integers)
    if model.offset:
        problem.chgObj([-1], [-float(model.offset)])  # column -1: the objective row's RHS, minus the constant


def _run(load, options: SolveOptions, integrality) -> SolverResult:
    xp = _xpress()
    problem = _problem(xp)
    problem.setControl("outputlog", 1)
    problem.setControl("threads", int(options.threads))
    problem.setControl("randomseed", int(options.seed))
    problem.setControl("miprelstop", float(options.mip_gap))
    limit = time_limit_or_none(options)
    if limit is not None:
        problem.setControl("timelimit", limit)
    _set_controls(problem, options.solver_options)
    try:
        load(xp, problem)
        problem.optimize()
    except xp.SolverError as exc:
        codes = [int(code) for code in _ERROR_CODE.findall(str(exc))]
        if _SIZE_LIMIT_ERROR in codes:
            return licence_limit("Xpress", str(exc))
        raise
    return _read_result(xp, problem, integrality)


def _read_result(xp, problem, integrality) -> SolverResult:
    attributes = problem.attributes
    solution_status = attributes.solstatus
    stop = attributes.stopstatus
    has_solution = solution_status in (xp.SolStatus.OPTIMAL, xp.SolStatus.FEASIBLE)
    if solution_status == xp.SolStatus.OPTIMAL:
        status = "optimal"
    elif solution_status == xp.SolStatus.INFEASIBLE:
        status = "infeasible"
    elif stop == xp.StopType.TIMELIMIT:
        status = "time_limit"
    else:
        status = "feasible" if has_solution else "error"
    columns = attributes.originalcols
    if integrality is None:
        types = problem.getColType(0, columns - 1) if columns else []
        integrality = np.array([t != "C" for t in types], dtype=bool)
    nodes = int(attributes.nodes)
    dual = float(attributes.bestbound)
    return SolverResult(
        status=status,
        x=rounded_solution(problem.getSolution()[:columns], integrality) if has_solution else None,
        message=f"Xpress solve status {xp.SolveStatus(attributes.solvestatus).name}, solution status "
                f"{xp.SolStatus(solution_status).name}, stop {xp.StopType(stop).name}",
        solver_time=float(attributes.time),
        nodes=nodes,
        lp_iterations=int(attributes.simplexiter),
        primal_bound=float(attributes.mipbestobjval) if has_solution else None,
        dual_bound=dual if status != "infeasible" and abs(dual) < xp.infinity else None,
        root_solved=finished(status) and nodes <= 1,
    )


def _with_presolved_size(result: SolverResult) -> SolverResult:
    return with_logged_size(result, _PRESOLVED, _PRESOLVED_EMPTY)


def solve_xpress_mps(path: str, options: SolveOptions) -> SolverResult:
    """Solve the MPS file ``path`` with Xpress's own reader."""
    return _with_presolved_size(captured_solve(
        lambda: _run(lambda xp, problem: problem.readProb(str(path)), options, None), options))


@solver("xpress", version=xpress_version, kind="mip", options=check_xpress_options, mps=solve_xpress_mps,
        description="FICO Xpress MIP solver (xpress), model passed with loadMIP; "
                    "Community licence without a licence file.")
def solve_xpress(model: Model, options: SolveOptions) -> SolverResult:
    """Solve ``model`` with Xpress."""
    return _with_presolved_size(captured_solve(
        lambda: _run(lambda xp, problem: _load_arrays(xp, problem, model), options, model.integrality),
        options))
