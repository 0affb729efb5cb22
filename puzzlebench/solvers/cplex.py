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
eliminated"; :data:`LOG`); ``root_solved`` means the solve completed with no node after the root.

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

from dataclasses import dataclass

import numpy as np

from ..model import Model
from ..registry import adapter
from ..system.capture import captured_output
from ._common import finite_or, time_limit_or_none
from .base import Adapter, Reading
from .contract import SolveOptions
from .logs import LogTable, Rule, Section

_SIZE_LIMIT_ERROR = 1016  # CPXERR_RESTRICTED_VERSION
LOG = LogTable((
    Section("presolve", (Rule(r"Reduced MIP has (?P<presolved_rows>\d+) rows, (?P<presolved_cols>\d+) columns"),
                         Rule(r"All rows and columns eliminated", values={"presolved_rows": 0, "presolved_cols": 0}))),
))
"""The figures of CPLEX's log: the presolved size."""


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


@dataclass
class _Session:
    problem: object  # cplex.Cplex
    run_time: float = 0.0  # the growth of CPLEX's clock across solve()


# the harness's settings by the solver's own option names (Adapter.harness_options)
_HARNESS_SETTINGS = {"timelimit": "time limit", "randomseed": "seed", "threads": "threads"}


@adapter
class CplexAdapter(Adapter):
    """CPLEX (module docstring)."""

    name, label = "cplex", "CPLEX"
    description = ("IBM CPLEX MIP solver (cplex), model passed with variables.add/linear_constraints.add; "
                   "Community Edition without a full installation.")
    harness_options = _HARNESS_SETTINGS
    log_table = LOG
    root_nodes = 0

    def version(self) -> str:
        return cplex_version()

    def start(self, options: SolveOptions) -> _Session:
        import cplex
        return _Session(cplex.Cplex())

    def close(self, session: _Session) -> None:
        session.problem.end()

    def load_arrays(self, session: _Session, model: Model) -> np.ndarray:
        import cplex
        problem, infinity = session.problem, cplex.infinity
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
        return model.integrality

    def load_mps(self, session: _Session, path: str) -> None:
        session.problem.read(path, "mps")

    def set_common(self, session: _Session, options: SolveOptions) -> None:
        parameters = session.problem.parameters
        parameters.threads.set(int(options.threads))
        parameters.randomseed.set(int(options.seed))
        parameters.mip.tolerances.mipgap.set(float(options.mip_gap))
        limit = time_limit_or_none(options)
        if limit is not None:
            parameters.timelimit.set(limit)

    def set_option(self, session: _Session, name: str, value) -> None:
        """Set the CPLEX parameter at the dotted path ``name``."""
        import cplex
        try:
            _parameter(session.problem, name).set(value)
        except AttributeError:
            raise ValueError(f"CPLEX has no parameter {name!r}") from None
        except (cplex.exceptions.CplexError, TypeError, ValueError) as exc:
            raise ValueError(f"CPLEX parameter {name}={value!r}: {exc}") from None

    def optimize(self, session: _Session) -> None:
        start = session.problem.get_time()
        session.problem.solve()
        session.run_time = session.problem.get_time() - start

    def licence_refusal(self, exc: Exception) -> str | None:
        import cplex
        refused = isinstance(exc, cplex.exceptions.CplexSolverError) and exc.args[2] == _SIZE_LIMIT_ERROR
        return str(exc) if refused else None

    def read(self, session: _Session, integrality: np.ndarray | None) -> Reading:
        """The result; ``integrality`` None: from the column types."""
        import cplex
        problem = session.problem
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
        dual = solution.MIP.get_best_objective() if is_mip and status != "infeasible" else None
        return Reading(
            status=status,
            x=solution.get_values() if has_solution else None,
            integrality=integrality,
            message=solution.get_status_string(),
            solver_time=float(session.run_time),
            nodes=int(solution.progress.get_num_nodes_processed()) if is_mip else 0,
            lp_iterations=int(solution.progress.get_num_iterations()),
            primal_bound=float(solution.get_objective_value()) if has_solution else None,
            dual_bound=float(dual) if dual is not None and abs(dual) < cplex.infinity else None,
        )


_ADAPTER = CplexAdapter()
solve_cplex = _ADAPTER.solve
solve_cplex_mps = _ADAPTER.solve_mps
check_cplex_options = _ADAPTER.check_options
