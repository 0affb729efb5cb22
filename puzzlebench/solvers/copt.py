"""COPT (Cardinal Optimizer) through coptpy's matrix interface: one ``loadMatrix`` call with the CSC matrix.

Rows go in as ``row_lower <= A x <= row_upper`` directly (COPT takes both sides,
infinite ones as ``COPT.INFINITY``).

Figures: ``solver_time`` is ``SolvingTime``, ``nodes`` ``NodeCnt``,
``lp_iterations`` ``SimplexIter``, the bounds ``BestObj`` and ``BestBnd``; the
presolved size is parsed from the log ("The presolved problem has: R rows, C
columns", 0 and 0 when "Problem was solved during presolve", None when that proved the model
infeasible; :data:`LOG`); ``root_solved``
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
from ..registry import adapter
from .contract import SolveOptions
from ._common import finite_or, time_limit_or_none
from .base import Adapter, Reading
from .logs import LogTable, Rule, Section

_LICENCE_ERROR = "(LICENSE)"
_LIMIT_LINES = re.compile(r"^.*(?:size is limited to|exceeding the size limit).*$", re.MULTILINE)
LOG = LogTable((
    Section("presolve", (Rule(r"The presolved problem has:\s+(?P<presolved_rows>\d+) rows, "
                              r"(?P<presolved_cols>\d+) columns"),
                         Rule(r"Problem was solved during presolve",
                              values={"presolved_rows": 0, "presolved_cols": 0}))),
))
"""The figures of COPT's log: the presolved size."""
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


def _check_range(model, name: str, value) -> None:
    """ValueError for a number outside the parameter's range (``getParamInfo``: name, current,
    default, minimum, maximum), which ``setParam`` would clamp to the nearest bound without a word."""
    try:
        _, _, _, low, high = model.getParamInfo(name)
    except Exception:  # an unknown name: setParam says so
        return
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not low <= value <= high:
        raise ValueError(f"COPT parameter {name}={value!r}: outside its range {low:g}..{high:g}")


# the harness's settings by the solver's own option names (Adapter.harness_options)
_HARNESS_SETTINGS = {"timelimit": "time limit", "randseed": "seed", "threads": "threads", "barthreads": "threads",
                     "simplexthreads": "threads", "crossoverthreads": "threads", "miptasks": "threads"}


@adapter
class CoptAdapter(Adapter):
    """COPT (module docstring); the session is a COPT model."""

    name, label = "copt", "COPT"
    description = ("COPT (Cardinal Optimizer) MIP solver (coptpy), model passed with loadMatrix; "
                   "size-limited without a licence file.")
    harness_options = _HARNESS_SETTINGS
    log_table = LOG

    def version(self) -> str:
        return copt_version()

    def start(self, options: SolveOptions):
        return _environment().createModel("puzzlebench")

    def close(self, cm) -> None:
        cm.dispose()

    def load_arrays(self, cm, model: Model) -> np.ndarray:
        import coptpy
        infinity = coptpy.COPT.INFINITY
        cm.loadMatrix(model.objective, model.A.tocsc(), finite_or(model.row_lower, infinity),
                      finite_or(model.row_upper, infinity), finite_or(model.col_lower, infinity),
                      finite_or(model.col_upper, infinity),
                      np.where(model.integrality, coptpy.COPT.INTEGER, coptpy.COPT.CONTINUOUS))
        if model.offset:
            cm.setObjConst(float(model.offset))
        return model.integrality

    def load_mps(self, cm, path: str) -> None:
        cm.readMps(path)

    def set_common(self, cm, options: SolveOptions) -> None:
        cm.setParam("Threads", int(options.threads))
        cm.setParam("RandSeed", int(options.seed))
        cm.setParam("RelGap", float(options.mip_gap))
        limit = time_limit_or_none(options)
        if limit is not None:
            cm.setParam("TimeLimit", limit)

    def set_option(self, cm, name: str, value) -> None:
        """Set one COPT parameter, refusing a value outside its range (:func:`_check_range`)."""
        import coptpy
        _check_range(cm, name, value)
        try:
            cm.setParam(name, value)
        except (AttributeError, TypeError, ValueError, coptpy.CoptError) as exc:
            raise ValueError(f"COPT parameter {name}={value!r}: {exc}") from None

    def optimize(self, cm) -> None:
        cm.solve()

    def licence_refusal(self, exc: Exception) -> str | None:
        import coptpy
        return str(exc) if isinstance(exc, coptpy.CoptError) and _LICENCE_ERROR in str(exc) else None

    def licence_message(self, reason: str, log: str) -> str:
        """The limit in COPT's own log words when it logged them."""
        limits = _LIMIT_LINES.findall(log)
        return super().licence_message("; ".join(dict.fromkeys(line.strip() for line in limits)) if limits else reason,
                                       log)

    def read(self, cm, integrality: np.ndarray | None) -> Reading:
        """The result; ``integrality`` None: from the column types."""
        import coptpy
        COPT = coptpy.COPT
        code = cm.status
        is_mip = bool(cm.IsMIP)
        has_solution = bool(cm.HasMipSol) if is_mip else bool(cm.HasLpSol)
        status = {COPT.OPTIMAL: "optimal", COPT.INFEASIBLE: "infeasible", COPT.TIMEOUT: "time_limit"}.get(
            code, "infeasible" if code == COPT.INF_OR_UNB and not has_solution and _bounded(cm) else
            "feasible" if has_solution else "error")
        variables = cm.getVars()
        if integrality is None:
            integrality = np.array([cm.getVarType(v) != COPT.CONTINUOUS for v in variables], dtype=bool)
        primal = cm.BestObj if is_mip else cm.LpObjval
        dual = cm.BestBnd if is_mip else (cm.LpObjval if status == "optimal" else None)
        return Reading(
            status=status,
            x=cm.getValues() if has_solution else None,
            integrality=integrality,
            message=f"COPT status {code}",
            solver_time=float(cm.SolvingTime),
            nodes=int(cm.NodeCnt) if is_mip else 0,
            lp_iterations=int(cm.SimplexIter),
            primal_bound=float(primal) if has_solution else None,
            dual_bound=float(dual) if dual is not None and status != "infeasible" and abs(dual) < COPT.INFINITY
            else None,
        )


def _bounded(cm) -> bool:
    """Whether every column is integer: then INF_OR_UNB can only mean infeasible (puzzle models)."""
    return cm.Cols == cm.Ints + cm.Bins


_ADAPTER = CoptAdapter()
solve_copt = _ADAPTER.solve
solve_copt_mps = _ADAPTER.solve_mps
check_copt_options = _ADAPTER.check_options
