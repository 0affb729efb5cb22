"""Gurobi through gurobipy's matrix interface: ``addMVar`` for the columns, ``addMConstr`` with the CSR matrix.

The rows go in as one ``addMConstr`` per sense: equality rows (``row_lower ==
row_upper``) as ``=``, every other finite lower bound as ``>=`` and every
other finite upper bound as ``<=`` (a ranged row is two Gurobi rows).

Figures: ``solver_time`` is ``Runtime``, ``nodes`` ``NodeCount`` (0 when the
root solved the model), ``lp_iterations`` ``IterCount``, the bounds ``ObjVal``
and ``ObjBound``; the presolved size is parsed from the log ("Presolved: R
rows, C columns", or 0 and 0 when presolve removed all; None when a heuristic
solved the model before presolve ran); ``root_solved`` means the solve completed with at most
the root node explored.

Options: ``Threads``, ``Seed``, ``TimeLimit``, ``MIPGap``; solver options are
Gurobi parameters (``setParam``: ``MIPFocus: 1``, ``Presolve: 0``), set after those.

Licence: gurobipy finds its licence the usual way (``GRB_LICENSE_FILE``,
``gurobi.lic`` in the home folder, ...) and without one runs under the
size-limited licence it ships with.  A model too large for the licence is
refused by Gurobi with error 10010 ("Model too large for size-limited
license"): that run is ``skipped`` with Gurobi's message, so a full licence
lifts the limit without a code change.  One Gurobi environment per process is
reused (starting one checks the licence).
"""

from __future__ import annotations

import os

import numpy as np

from ..model import Model
from ..mps import mps_column_count
from ..records import SolveOptions, SolverResult
from ..registry import solver
from ._capture import captured_output
from ._common import captured_solve, finished, finite_or, licence_limit, logged_size, refuse_harness_options, \
    rounded_solution, time_limit_or_none

_SIZE_LIMIT_ERROR = 10010  # GRB_ERROR_SIZE_LIMIT_EXCEEDED
_PRESOLVED = r"Presolved: (\d+) rows, (\d+) columns"
_PRESOLVED_EMPTY = r"Presolve: All rows and columns removed|Presolve removed all rows and columns"
_env: tuple[int, object] | None = None  # (pid, gurobipy.Env) of this process


def gurobi_version() -> str:
    import gurobipy
    major, minor, technical = gurobipy.gurobi.version()
    return f"Gurobi {major}.{minor}.{technical}"


def _environment():
    """This process's Gurobi environment (a forked child starts its own)."""
    global _env
    import gurobipy
    if _env is None or _env[0] != os.getpid():
        env = gurobipy.Env(empty=True)
        env.setParam("OutputFlag", 1)
        env.start()
        _env = (os.getpid(), env)
    return _env[1]


def _set_parameters(model, settings: dict) -> None:
    import gurobipy
    for name, value in settings.items():
        try:
            model.setParam(name, value)
        except (gurobipy.GurobiError, TypeError, ValueError) as exc:
            raise ValueError(f"Gurobi parameter {name}={value!r}: {exc}") from None


_HARNESS_OPTIONS = {"timelimit": "time limit", "seed": "seed", "threads": "threads"}


def check_gurobi_options(settings: dict) -> None:
    """Set ``settings`` on a fresh Gurobi model; ValueError with Gurobi's reason for the first refused."""
    refuse_harness_options(settings, _HARNESS_OPTIONS, "Gurobi")
    import gurobipy
    with captured_output():
        model = gurobipy.Model(env=_environment())
    try:
        _set_parameters(model, settings)
    finally:
        model.dispose()


def _load_arrays(gm, model: Model) -> None:
    from gurobipy import GRB
    vtype = np.where(model.integrality, GRB.INTEGER, GRB.CONTINUOUS)
    x = gm.addMVar(model.num_cols, lb=finite_or(model.col_lower, GRB.INFINITY),
                   ub=finite_or(model.col_upper, GRB.INFINITY), obj=model.objective, vtype=vtype)
    gm.ObjCon = float(model.offset)
    lower, upper = model.row_lower, model.row_upper
    equal = lower == upper
    for rows, sense, rhs in ((equal, GRB.EQUAL, lower), (~equal & np.isfinite(lower), GRB.GREATER_EQUAL, lower),
                             (~equal & np.isfinite(upper), GRB.LESS_EQUAL, upper)):
        if rows.any():
            gm.addMConstr(model.A[rows], x, sense, rhs[rows])


def _run(load, options: SolveOptions, integrality=None, columns: int | None = None) -> SolverResult:
    """Solve the model ``load(env)`` returns; ``integrality`` None: read it from the model; the
    solution is its first ``columns`` columns (all when None)."""
    import gurobipy
    from gurobipy import GRB
    gm = load(_environment())
    try:
        gm.setParam("Threads", int(options.threads))
        gm.setParam("Seed", int(options.seed))
        gm.setParam("MIPGap", float(options.mip_gap))
        limit = time_limit_or_none(options)
        if limit is not None:
            gm.setParam("TimeLimit", limit)
        _set_parameters(gm, options.solver_options)
        try:
            gm.optimize()
        except gurobipy.GurobiError as exc:
            if exc.errno == _SIZE_LIMIT_ERROR:
                return licence_limit("Gurobi", str(exc))
            raise
        return _read_result(gm, GRB, integrality, columns)
    finally:
        gm.dispose()


def _read_result(gm, GRB, integrality, columns: int | None) -> SolverResult:
    code = gm.Status
    has_solution = gm.SolCount > 0
    bounded = code == GRB.INF_OR_UNBD and gm.NumVars == gm.NumIntVars  # bounded integer columns
    status = {GRB.OPTIMAL: "optimal", GRB.INFEASIBLE: "infeasible", GRB.TIME_LIMIT: "time_limit"}.get(
        code, "infeasible" if bounded else "feasible" if has_solution else "error")
    variables = gm.getVars()[:columns]
    if integrality is None:
        integrality = np.array([v.VType != GRB.CONTINUOUS for v in variables], dtype=bool)
    nodes = int(gm.NodeCount)
    dual = gm.ObjBound if gm.IsMIP and status != "infeasible" else None
    return SolverResult(
        status=status,
        x=rounded_solution(gm.getAttr("X", variables), integrality) if has_solution else None,
        message=f"Gurobi status {code}",
        solver_time=float(gm.Runtime),
        nodes=nodes,
        lp_iterations=int(gm.IterCount),
        primal_bound=float(gm.ObjVal) if has_solution else None,
        dual_bound=float(dual) if dual is not None and abs(dual) < GRB.INFINITY else None,
        root_solved=finished(status) and nodes <= 1,
    )


def _with_presolved_size(result: SolverResult) -> SolverResult:
    if result.status != "skipped" and not (result.status == "infeasible" and "Presolved:" not in result.log):
        result.presolved_rows, result.presolved_cols = logged_size(_PRESOLVED, _PRESOLVED_EMPTY, result.log)
    return result


def solve_gurobi_mps(path: str, options: SolveOptions) -> SolverResult:
    """Solve the MPS file ``path`` with Gurobi's own reader."""
    import gurobipy
    columns = mps_column_count(str(path))  # Gurobi appends a column per ranged row after the file's
    return _with_presolved_size(captured_solve(
        lambda: _run(lambda env: gurobipy.read(str(path), env=env), options, columns=columns), options))


@solver("gurobi", version=gurobi_version, kind="mip", options=check_gurobi_options,
        mps=solve_gurobi_mps,
        description="Gurobi MIP solver (gurobipy), model passed with addMVar/addMConstr; "
                    "size-limited without a licence file.")
def solve_gurobi(model: Model, options: SolveOptions) -> SolverResult:
    """Solve ``model`` with Gurobi."""
    import gurobipy

    def load(env):
        gm = gurobipy.Model(env=env)
        _load_arrays(gm, model)
        return gm
    return _with_presolved_size(captured_solve(lambda: _run(load, options, model.integrality), options))
