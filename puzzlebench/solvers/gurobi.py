"""Gurobi through gurobipy's matrix interface: ``addMVar`` for the columns, ``addMConstr`` with the CSR matrix.

The rows go in as one ``addMConstr`` per sense: equality rows (``row_lower ==
row_upper``) as ``=``, every other finite lower bound as ``>=`` and every
other finite upper bound as ``<=`` (a ranged row is two Gurobi rows).

Figures: ``solver_time`` is ``Runtime``, ``nodes`` ``NodeCount`` (0 when the
root solved the model), ``lp_iterations`` ``IterCount``, the bounds ``ObjVal``
and ``ObjBound``; the presolved size is parsed from the log ("Presolved: R
rows, C columns", or 0 and 0 when presolve removed all; None when a heuristic
solved the model before presolve ran; :data:`LOG`); ``root_solved`` means the solve completed with at most
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
from dataclasses import dataclass

import numpy as np

from ..model import Model
from ..model.mps import mps_column_count
from ..registry import adapter
from .contract import SolveOptions
from ._common import finite_or, time_limit_or_none
from .base import Adapter, Reading
from .logs import LogTable, Rule, Section

_SIZE_LIMIT_ERROR = 10010  # GRB_ERROR_SIZE_LIMIT_EXCEEDED
LOG = LogTable((
    Section("presolve", (Rule(r"Presolved: (?P<presolved_rows>\d+) rows, (?P<presolved_cols>\d+) columns"),
                         Rule(r"Presolve: All rows and columns removed|Presolve removed all rows and columns",
                              values={"presolved_rows": 0, "presolved_cols": 0}))),
))
"""The figures of Gurobi's log: the presolved size."""
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


@dataclass
class _Session:
    model: object  # gurobipy.Model: an empty one, replaced by the one an MPS file is read into


@dataclass(frozen=True)
class _Loaded:
    """The columns to read: which are integer (None: Gurobi's types), how many (None: all)."""

    integrality: np.ndarray | None = None
    columns: int | None = None


# the harness's settings by the solver's own option names (Adapter.harness_options)
_HARNESS_SETTINGS = {"timelimit": "time limit", "seed": "seed", "threads": "threads"}


@adapter
class GurobiAdapter(Adapter):
    """Gurobi (module docstring)."""

    name, label = "gurobi", "Gurobi"
    description = ("Gurobi MIP solver (gurobipy), model passed with addMVar/addMConstr; "
                   "size-limited without a licence file.")
    harness_options = _HARNESS_SETTINGS
    log_table = LOG

    def version(self) -> str:
        return gurobi_version()

    def start(self, options: SolveOptions) -> _Session:
        import gurobipy
        return _Session(gurobipy.Model(env=_environment()))

    def close(self, session: _Session) -> None:
        session.model.dispose()

    def load_arrays(self, session: _Session, model: Model) -> _Loaded:
        """The rows as one ``addMConstr`` per sense (module docstring)."""
        from gurobipy import GRB
        gm = session.model
        vtype = np.where(model.integrality, GRB.INTEGER, GRB.CONTINUOUS)
        x = gm.addMVar(model.num_cols, lb=finite_or(model.col_lower, GRB.INFINITY),
                       ub=finite_or(model.col_upper, GRB.INFINITY), obj=model.objective, vtype=vtype)
        gm.ObjCon = float(model.offset)
        lower, upper = model.row_lower, model.row_upper
        equal = lower == upper
        for rows, sense, rhs in ((equal, GRB.EQUAL, lower),
                                 (~equal & np.isfinite(lower), GRB.GREATER_EQUAL, lower),
                                 (~equal & np.isfinite(upper), GRB.LESS_EQUAL, upper)):
            if rows.any():
                gm.addMConstr(model.A[rows], x, sense, rhs[rows])
        return _Loaded(model.integrality)

    def load_mps(self, session: _Session, path: str) -> _Loaded:
        """The file read into a model of its own (Gurobi appends a column per ranged row after the
        file's: the solution is the first ``mps_column_count`` columns)."""
        import gurobipy
        session.model.dispose()
        session.model = gurobipy.read(path, env=_environment())
        return _Loaded(columns=mps_column_count(path))

    def set_common(self, session: _Session, options: SolveOptions) -> None:
        gm = session.model
        gm.setParam("Threads", int(options.threads))
        gm.setParam("Seed", int(options.seed))
        gm.setParam("MIPGap", float(options.mip_gap))
        limit = time_limit_or_none(options)
        if limit is not None:
            gm.setParam("TimeLimit", limit)

    def set_option(self, session: _Session, name: str, value) -> None:
        import gurobipy
        try:
            session.model.setParam(name, value)
        except (gurobipy.GurobiError, TypeError, ValueError) as exc:
            raise ValueError(f"Gurobi parameter {name}={value!r}: {exc}") from None

    def optimize(self, session: _Session) -> None:
        session.model.optimize()

    def licence_refusal(self, exc: Exception) -> str | None:
        import gurobipy
        return str(exc) if isinstance(exc, gurobipy.GurobiError) and exc.errno == _SIZE_LIMIT_ERROR else None

    def read(self, session: _Session, loaded: _Loaded) -> Reading:
        from gurobipy import GRB
        gm = session.model
        code = gm.Status
        has_solution = gm.SolCount > 0
        bounded = code == GRB.INF_OR_UNBD and gm.NumVars == gm.NumIntVars  # bounded integer columns
        status = {GRB.OPTIMAL: "optimal", GRB.INFEASIBLE: "infeasible", GRB.TIME_LIMIT: "time_limit"}.get(
            code, "infeasible" if bounded else "feasible" if has_solution else "error")
        variables = gm.getVars()[:loaded.columns]
        integrality = loaded.integrality
        if integrality is None:
            integrality = np.array([v.VType != GRB.CONTINUOUS for v in variables], dtype=bool)
        dual = gm.ObjBound if gm.IsMIP and status != "infeasible" else None
        return Reading(
            status=status,
            x=gm.getAttr("X", variables) if has_solution else None,
            integrality=integrality,
            message=f"Gurobi status {code}",
            solver_time=float(gm.Runtime),
            nodes=int(gm.NodeCount),
            lp_iterations=int(gm.IterCount),
            primal_bound=float(gm.ObjVal) if has_solution else None,
            dual_bound=float(dual) if dual is not None and abs(dual) < GRB.INFINITY else None,
        )


_ADAPTER = GurobiAdapter()
solve_gurobi = _ADAPTER.solve
solve_gurobi_mps = _ADAPTER.solve_mps
check_gurobi_options = _ADAPTER.check_options
