"""IBM CPLEX through the cplex package: ``variables.add`` for the columns, ``linear_constraints.add``
for the rows and one ``set_coefficients`` call with the matrix triplets.

Rows: ``E`` where ``row_lower == row_upper``, ``G``/``L`` for one finite bound,
``R`` (right-hand side the lower bound, range the width) for two; a row with no
finite bound is left out.

Figures: ``solver_time`` is the growth of CPLEX's own clock (``get_time``,
wall clock) across ``solve``, ``nodes`` ``get_num_nodes_processed``,
``lp_iterations`` ``get_num_iterations``, the bounds the incumbent's objective
and ``MIP.get_best_objective``; the presolved size is parsed from the log
("Reduced MIP has R rows, C columns", 0 and 0 when "All rows and columns
eliminated"); ``root_solved`` means the solve completed with no node after the root.

Options: ``threads``, ``randomseed``, ``timelimit``, ``mip.tolerances.mipgap``;
solver options are CPLEX parameters by their dotted path
(``mip.strategy.search: 1``, ``preprocessing.presolve: 0``), set after those.

Licence: the cplex package runs as the Community Edition unless a full CPLEX
is installed (``CPLEX_STUDIO_DIR...``/``cpxchecklic``).  A problem over the
edition's size limit is refused with CPLEX error 1016 ("Community Edition.
Problem size limits exceeded"): that run is ``skipped`` with CPLEX's message,
so a full installation lifts the limit.
"""

from __future__ import annotations

import numpy as np

from ..model import Model
from ..records import SolveOptions, SolverResult
from ..registry import solver
from ._capture import captured_output
from ._common import captured_solve, finished, finite_or, licence_limit, refuse_harness_options, \
    rounded_solution, time_limit_or_none, with_logged_size

_SIZE_LIMIT_ERROR = 1016  # CPXERR_RESTRICTED_VERSION
_PRESOLVED = r"Reduced MIP has (\d+) rows, (\d+) columns"
_PRESOLVED_EMPTY = r"All rows and columns eliminated"


def cplex_version() -> str:
    import cplex
    with captured_output():
        return f"CPLEX {cplex.Cplex().get_version()}"


def _parameter(problem, path: str):
    node = problem.parameters
    for part in path.replace("/", ".").split("."):
        node = getattr(node, part)
    if not hasattr(node, "set"):
        raise AttributeError(f"{path} is a parameter group")
    return node


def _set_parameters(problem, settings: dict) -> None:
    import cplex
    for name, value in settings.items():
        try:
            _parameter(problem, name).set(value)
        except AttributeError:
            raise ValueError(f"CPLEX has no parameter {name!r}") from None
        except (cplex.exceptions.CplexError, TypeError, ValueError) as exc:
            raise ValueError(f"CPLEX parameter {name}={value!r}: {exc}") from None


_HARNESS_OPTIONS = {"timelimit": "time limit", "randomseed": "seed", "threads": "threads"}


def check_cplex_options(settings: dict) -> None:
    """Set ``settings`` on a fresh CPLEX problem; ValueError with CPLEX's reason for the first refused."""
    refuse_harness_options(settings, _HARNESS_OPTIONS, "CPLEX")
    import cplex
    with captured_output():
        problem = cplex.Cplex()
        try:
            _set_parameters(problem, settings)
        finally:
            problem.end()


def _load_arrays(cplex, problem, model: Model) -> None:
    infinity = cplex.infinity
    problem.variables.add(obj=model.objective.tolist(), lb=finite_or(model.col_lower, infinity).tolist(),
                          ub=finite_or(model.col_upper, infinity).tolist(),
                          types=np.where(model.integrality, "I", "C").tolist())
    problem.objective.set_offset(float(model.offset))
    lower, upper = model.row_lower, model.row_upper
    lo, up = np.isfinite(lower), np.isfinite(upper)
    kept = np.flatnonzero(lo | up)
    kind = np.where(lower == upper, "E", np.where(lo & up, "R", np.where(lo, "G", "L")))[kept]
    rhs = np.where(lo, lower, upper)[kept]
    rng = np.where(kind == "R", (upper - lower)[kept], 0.0)
    problem.linear_constraints.add(senses="".join(kind), rhs=rhs.tolist(), range_values=rng.tolist())
    A = model.A[kept].tocoo()
    if A.nnz:
        problem.linear_constraints.set_coefficients(zip(A.row.tolist(), A.col.tolist(), A.data.tolist()))


def _run(load, options: SolveOptions, integrality) -> SolverResult:
    import cplex
    problem = cplex.Cplex()
    try:
        parameters = problem.parameters
        parameters.threads.set(int(options.threads))
        parameters.randomseed.set(int(options.seed))
        parameters.mip.tolerances.mipgap.set(float(options.mip_gap))
        limit = time_limit_or_none(options)
        if limit is not None:
            parameters.timelimit.set(limit)
        _set_parameters(problem, options.solver_options)
        load(cplex, problem)
        start = problem.get_time()
        try:
            problem.solve()
        except cplex.exceptions.CplexSolverError as exc:
            if exc.args[2] == _SIZE_LIMIT_ERROR:
                return licence_limit("CPLEX", str(exc))
            raise
        return _read_result(problem, integrality, problem.get_time() - start)
    finally:
        problem.end()


def _read_result(problem, integrality, run_time: float) -> SolverResult:
    import cplex
    solution = problem.solution
    codes = solution.status
    code = solution.get_status()
    is_mip = problem.variables.get_num_integer() > 0
    has_solution = solution.is_primal_feasible()
    if code in (codes.MIP_optimal, codes.optimal, codes.optimal_tolerance):
        status = "optimal"
    elif code in (codes.MIP_infeasible, codes.infeasible, codes.MIP_infeasible_or_unbounded,
                  codes.infeasible_or_unbounded):
        status = "infeasible"
    elif code in (codes.MIP_time_limit_feasible, codes.MIP_time_limit_infeasible, codes.abort_time_limit):
        status = "time_limit"
    else:
        status = "feasible" if has_solution else "error"
    if integrality is None:
        integrality = np.array([t != "C" for t in problem.variables.get_types()], dtype=bool) if is_mip \
            else np.zeros(problem.variables.get_num(), dtype=bool)
    nodes = int(solution.progress.get_num_nodes_processed()) if is_mip else 0
    dual = solution.MIP.get_best_objective() if is_mip and status != "infeasible" else None
    return SolverResult(
        status=status,
        x=rounded_solution(solution.get_values(), integrality) if has_solution else None,
        message=solution.get_status_string(),
        solver_time=float(run_time),
        nodes=nodes,
        lp_iterations=int(solution.progress.get_num_iterations()),
        primal_bound=float(solution.get_objective_value()) if has_solution else None,
        dual_bound=float(dual) if dual is not None and abs(dual) < cplex.infinity else None,
        root_solved=finished(status) and nodes == 0,
    )


def _with_presolved_size(result: SolverResult) -> SolverResult:
    return with_logged_size(result, _PRESOLVED, _PRESOLVED_EMPTY)


def solve_cplex_mps(path: str, options: SolveOptions) -> SolverResult:
    """Solve the MPS file ``path`` with CPLEX's own reader."""
    return _with_presolved_size(captured_solve(
        lambda: _run(lambda cplex, problem: problem.read(str(path), "mps"), options, None), options))


@solver("cplex", version=cplex_version, kind="mip", options=check_cplex_options, mps=solve_cplex_mps,
        description="IBM CPLEX MIP solver (cplex), model passed with variables.add/linear_constraints.add; "
                    "Community Edition without a full installation.")
def solve_cplex(model: Model, options: SolveOptions) -> SolverResult:
    """Solve ``model`` with CPLEX."""
    return _with_presolved_size(captured_solve(
        lambda: _run(lambda cplex, problem: _load_arrays(cplex, problem, model), options, model.integrality),
        options))
