"""FICO Xpress through the xpress package's matrix interface: one ``loadMIP`` call with the CSC arrays.

Rows: ``E`` where ``row_lower == row_upper``, ``G``/``L`` for one finite bound,
``R`` (right-hand side the upper bound, range the width) for two, ``N`` for none.

Figures: ``solver_time`` is the ``time`` attribute, ``nodes`` ``nodes``,
``lp_iterations`` ``simplexiter``, the bounds ``mipbestobjval`` and
``bestbound``; the presolved size is parsed from the log ("Presolved problem
has: R rows C cols", 0 and 0 when presolve solved the problem; :data:`LOG`); ``root_solved``
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
from ..registry import adapter
from .contract import SolveOptions
from ._common import finite_or, time_limit_or_none
from .base import Adapter, Reading
from .logs import LogTable, Rule, Section

_SIZE_LIMIT_ERROR = 120
_ERROR_CODE = re.compile(r"\?(\d+) Error")
LOG = LogTable((
    Section("presolve", (Rule(r"Presolved problem has:\s+(?P<presolved_rows>\d+) rows\s+(?P<presolved_cols>\d+) cols"),
                         Rule(r"Problem is (?:integer )?(?:optimal|solved) \(presolved\)",
                              values={"presolved_rows": 0, "presolved_cols": 0}))),
))
"""The figures of Xpress's log: the presolved size."""


def _xpress():
    """The xpress module, its licence notice silenced (the log records the licence in use)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import xpress
    return xpress


def xpress_version() -> str:
    xp = _xpress()
    return f"FICO Xpress {xp.getVersion()} (xpress {version('xpress')})"


def _row_types(model: Model):
    lower, upper = model.row_lower, model.row_upper
    lo, up = np.isfinite(lower), np.isfinite(upper)
    kind = np.where(lower == upper, "E", np.where(lo & up, "R", np.where(lo, "G", np.where(up, "L", "N"))))
    rhs = np.where(up, upper, np.where(lo, lower, 0.0))
    rng = np.where(kind == "R", upper - lower, 0.0)
    return kind.tolist(), rhs, rng


# the harness's settings by the solver's own option names (Adapter.harness_options)
_HARNESS_SETTINGS = {"timelimit": "time limit", "maxtime": "time limit", "randomseed": "seed",
                     "threads": "threads"}


@adapter
class XpressAdapter(Adapter):
    """Xpress (module docstring); the session is an ``xpress.problem``."""

    name, label = "xpress", "Xpress"
    description = ("FICO Xpress MIP solver (xpress), model passed with loadMIP; "
                   "Community licence without a licence file.")
    harness_options = _HARNESS_SETTINGS
    log_table = LOG

    def version(self) -> str:
        return xpress_version()

    def canonical_option(self, name: str) -> str:
        return name.lower().removeprefix("xprs_")

    def start(self, options: SolveOptions):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            problem = _xpress().problem()
        problem.setControl("outputlog", 1)
        return problem

    def load_arrays(self, problem, model: Model) -> np.ndarray:
        xp = _xpress()
        kind, rhs, rng = _row_types(model)
        A = model.A.tocsc()
        integers = np.flatnonzero(model.integrality)
        problem.loadMIP("", kind, rhs, rng, model.objective, A.indptr, None, A.indices, A.data,
                        finite_or(model.col_lower, xp.infinity), finite_or(model.col_upper, xp.infinity),
                        ["I"] * len(integers), integers)
        if model.offset:
            problem.chgObj([-1], [-float(model.offset)])  # column -1: the objective row's RHS, minus the constant
        return model.integrality

    def load_mps(self, problem, path: str) -> None:
        problem.readProb(path)

    def set_common(self, problem, options: SolveOptions) -> None:
        problem.setControl("threads", int(options.threads))
        problem.setControl("randomseed", int(options.seed))
        problem.setControl("miprelstop", float(options.mip_gap))
        limit = time_limit_or_none(options)
        if limit is not None:
            problem.setControl("timelimit", limit)

    def set_option(self, problem, name: str, value) -> None:
        try:
            problem.setControl(name, value)
        except Exception as exc:
            raise ValueError(f"Xpress control {name}={value!r}: {exc}") from None

    def optimize(self, problem) -> None:
        problem.optimize()

    def licence_refusal(self, exc: Exception) -> str | None:
        if isinstance(exc, _xpress().SolverError) and _SIZE_LIMIT_ERROR in map(int, _ERROR_CODE.findall(str(exc))):
            return str(exc)
        return None

    def read(self, problem, integrality: np.ndarray | None) -> Reading:
        """The result; ``integrality`` None: from the column types."""
        xp = _xpress()
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
        dual = float(attributes.bestbound)
        return Reading(
            status=status,
            x=problem.getSolution()[:columns] if has_solution else None,
            integrality=integrality,
            message=f"Xpress solve status {xp.SolveStatus(attributes.solvestatus).name}, solution status "
                    f"{xp.SolStatus(solution_status).name}, stop {xp.StopType(stop).name}",
            solver_time=float(attributes.time),
            nodes=int(attributes.nodes),
            lp_iterations=int(attributes.simplexiter),
            primal_bound=float(attributes.mipbestobjval) if has_solution else None,
            dual_bound=dual if status != "infeasible" and abs(dual) < xp.infinity else None,
        )


_ADAPTER = XpressAdapter()
solve_xpress = _ADAPTER.solve
solve_xpress_mps = _ADAPTER.solve_mps
check_xpress_options = _ADAPTER.check_options
