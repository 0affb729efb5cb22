"""HiGHS through highspy: the model goes in as CSR arrays in one ``passModel`` call.

Figures: ``nodes`` is HiGHS's ``mip_node_count``, which counts the root node
(1 when the root solved the model, 0 when presolve did); ``lp_iterations`` is
``simplex_iteration_count``; ``solver_time`` is the growth of ``getRunTime()``
across the ``run()``; the presolved size is parsed from the first "Presolve
reductions" line of the log ("Reduced to empty" gives 0 rows, 0 columns); ``root_lp_time`` is the
time column of the first branch-and-bound log line with LP iterations (:data:`LOG`).
``root_solved`` means the solve completed with ``mip_node_count <= 1``, that is without branching.

Solver options (``SolveOptions.solver_options``) go to ``setOptionValue`` after
the common ones, before the model goes in (``small_matrix_value``, ``infinite_bound`` and others bear on
how HiGHS takes a model in); HiGHS checks each name and value (:meth:`HighsAdapter.set_option`).
The process reuses its Highs objects (:class:`_Pool`): a solve takes a free one, preferably one that holds
exactly its options already (a batch sets them once on each; otherwise the object's options are reset
and set), and gives it back when its result is read.  So a solve's result can be read on one object while
the next solve runs on another (``reads_apart``: highspy's ``run()`` releases Python's GIL, and the read
step prints nothing), and a solver process passes the next model into another free one, its output off,
while a solve runs (:meth:`HighsAdapter.prepare`): only into an object that holds that solve's options
already, and only when ``passModel`` has nothing to say (it warns, for instance, of matrix values it
drops): else the solve passes the model itself, its output on, and its log holds what HiGHS says.

Threads: HiGHS runs one thread scheduler per process, fixed by the first
``run()``.  The adapter resets that scheduler whenever ``options.threads``
differs from the count it last used, so each solve gets the count it asks for;
HiGHS code elsewhere in the same process that runs with another count forces a
reset at the next solve here.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from dataclasses import dataclass, replace

import numpy as np

from ..model import Model
from ..registry import adapter
from ..system.capture import captured_output
from ._common import time_limit_or_none
from .base import Adapter, Prepared, Reading
from .contract import SolveOptions
from .logs import LogTable, Rule, Section

LOG = LogTable((
    Section("presolve", (Rule(r"Presolve reductions: rows (?P<presolved_rows>\d+)\(-?\d+\); "
                              r"columns (?P<presolved_cols>\d+)\("),)),
    # the first branch-and-bound line whose LpIters column is not 0: its Time column (one line: no \s)
    Section("tree", (Rule(r"^[ \t]*[A-Z]?[ \t]+\d+[ \t]+\d+[ \t]+\d+[ \t]+[\d.]+%.*?[ \t][1-9]\d*[ \t]+"
                           r"(?P<root_lp_time>[\d.]+)s[ \t]*$"),)),
))
"""The figures of HiGHS's log: the presolved size and the root LP time."""

_scheduler_threads: int | None = None  # the thread count of the scheduler this module set up
_pool: _Pool | None = None  # the Highs objects of this process (a forked child makes its own)


def highs_version() -> str:
    import highspy
    return f"HiGHS {highspy.HIGHS_VERSION_MAJOR}.{highspy.HIGHS_VERSION_MINOR}.{highspy.HIGHS_VERSION_PATCH}"


def presolved_size(log: str) -> tuple[int | None, int | None]:
    """Rows and columns after HiGHS's presolve, from its log; (None, None) when not logged."""
    figures = LOG.parse(log)
    return figures.get("presolved_rows"), figures.get("presolved_cols")


def root_lp_time(log: str) -> float | None:
    """When the root LP was solved: the time column (seconds since the run began) of the first
    branch-and-bound log line with LP iterations; None when no such line was logged."""
    return LOG.parse(log).get("root_lp_time")


@dataclass
class _Reused:
    """One of the process's Highs objects and the options it holds, all of them set (None: unknown)."""

    highs: object
    applied: SolveOptions | None = None

    def holds(self, options: SolveOptions) -> bool:
        """Whether the object holds exactly ``options``, all of them set."""
        return self.applied is not None and self.applied == options


@dataclass
class _Session:
    reused: _Reused
    options_held: bool = False  # the reused object held this solve's options already when taken
    output: bool = True  # the output_flag its options give (a prepared session: off until resumed)
    run_time: float = 0.0  # the growth of getRunTime() across run()

    @property
    def highs(self):
        return self.reused.highs


# the harness's settings by the solver's own option names (Adapter.harness_options)
_HARNESS_SETTINGS = {"time_limit": "time limit", "random_seed": "seed", "threads": "threads"}


@adapter
class HighsAdapter(Adapter):
    """HiGHS (module docstring)."""

    name, label = "highs", "HiGHS"
    description = "HiGHS branch-and-cut MIP solver (highspy), model passed as CSR arrays."
    harness_options = _HARNESS_SETTINGS
    log_table = LOG
    reads_apart = True

    def version(self) -> str:
        return highs_version()

    def start(self, options: SolveOptions) -> _Session:
        """A free Highs object of the process with ``options`` set, before the model goes in (some bear on how
        HiGHS takes a model in: ``small_matrix_value``, ``infinite_bound``, ...): none to set when it holds
        exactly these already (a batch sets them once on each object)."""
        _use_threads(options.threads)
        pool = _pool_here()
        reused = pool.take(options)
        reused.highs.clearModel()
        session = _Session(reused, options_held=reused.holds(options))
        if not session.options_held:
            reused.applied = None
            highs = reused.highs
            try:
                highs.resetOptions()
                _check(highs.setOptionValue("output_flag", True), "option output_flag")
                _check(highs.setOptionValue("log_to_console", True), "option log_to_console")
                super().apply_options(session, options)
            except Exception:
                pool.give(reused)
                raise
            reused.applied = replace(options, solver_options=dict(options.solver_options))
        return session

    def apply_options(self, session: _Session, options: SolveOptions) -> None:
        """Nothing: :meth:`start` sets them, before the model goes in."""

    def prepare(self, model: Model, options: SolveOptions) -> Prepared | None:
        """A free Highs object that holds exactly ``options`` already, ``model`` passed into it with its output
        off; None when there is none, or when ``passModel`` does not simply accept the model (the solve then
        passes it itself, its output on: the log says why)."""
        pool = _pool
        if pool is None or pool.pid != os.getpid():
            return None
        reused = pool.take_holding(options)
        if reused is None:
            return None
        import highspy
        highs = reused.highs
        output = highs.getOptionValue("output_flag")[1]
        try:
            _check(highs.setOptionValue("output_flag", False), "option output_flag")
            highs.clearModel()
            accepted = self._pass_model(highs, model) == highspy.HighsStatus.kOk
        except Exception:  # noqa: BLE001 -- the solve passes the model itself and reports what goes wrong
            accepted = False
        if accepted:
            return Prepared(_Session(reused, options_held=True, output=output), model.integrality)
        highs.setOptionValue("output_flag", output)
        pool.give(reused)
        return None

    def resume(self, prepared: Prepared, options: SolveOptions) -> _Session:
        """The prepared session, its output as its options say (and HiGHS's scheduler for ``options.threads``)."""
        _use_threads(options.threads)
        session = prepared.session
        _check(session.highs.setOptionValue("output_flag", session.output), "option output_flag")
        return session

    def close(self, session: _Session) -> None:
        """The session's Highs object goes back to the process's pool."""
        _pool_here().give(session.reused)

    def load_arrays(self, session: _Session, model: Model) -> np.ndarray:
        _check(self._pass_model(session.highs, model), "passModel")
        return model.integrality

    @staticmethod
    def _pass_model(highs, model: Model):
        """``passModel`` of ``model``'s arrays (CSR, minimize) into ``highs``; HiGHS's status."""
        A = model.A
        return highs.passModel(
            model.num_cols, model.num_rows, A.nnz, 2, 1, float(model.offset),
            model.objective, model.col_lower, model.col_upper, model.row_lower, model.row_upper,
            A.indptr.astype(np.int32, copy=False), A.indices.astype(np.int32, copy=False), A.data,
            model.integrality.astype(np.int32))

    def load_mps(self, session: _Session, path: str) -> np.ndarray:
        return load_mps(session.highs, path)

    def set_common(self, session: _Session, options: SolveOptions) -> None:
        settings = {"threads": int(options.threads), "random_seed": int(options.seed),
                    "mip_rel_gap": float(options.mip_gap)}
        limit = time_limit_or_none(options)
        if limit is not None:
            settings["time_limit"] = limit
        for name, value in settings.items():
            _check(session.highs.setOptionValue(name, value), f"option {name}={value!r}")

    def set_option(self, session: _Session, name: str, value) -> None:
        """Set one HiGHS option; ValueError with HiGHS's reason when it refuses the name or the value
        (HiGHS checks each value against the option's type and range)."""
        import highspy
        session.reused.applied = None  # until apply_options has set them all
        highs = session.highs
        with captured_output() as out:
            if isinstance(value, int) and not isinstance(value, bool) \
                    and highs.getOptionType(name)[1] == highspy.HighsOptionType.kDouble:
                value = float(value)  # an integer given for a real option
            accepted = highs.setOptionValue(name, value) != highspy.HighsStatus.kError
        if not accepted:
            reason = out.text.strip().splitlines()[-1].strip() if out.text.strip() else "refused"
            raise ValueError(f"HiGHS option {name}={value!r}: {reason}")

    def optimize(self, session: _Session) -> None:
        clock_before = session.highs.getRunTime()
        session.highs.run()
        session.run_time = session.highs.getRunTime() - clock_before

    def read(self, session: _Session, integrality: np.ndarray) -> Reading:
        import highspy
        highs = session.highs
        ms = highspy.HighsModelStatus
        model_status = highs.getModelStatus()
        info = highs.getInfo()
        # a model without columns is solved by the empty point (HiGHS reports no solution for it)
        has_solution = info.primal_solution_status == highspy.kSolutionStatusFeasible \
            or model_status == ms.kModelEmpty
        status = {ms.kOptimal: "optimal", ms.kModelEmpty: "optimal", ms.kInfeasible: "infeasible",
                  ms.kTimeLimit: "time_limit"}.get(model_status, "feasible" if has_solution else "error")
        dual = float(info.mip_dual_bound)
        return Reading(
            status=status,
            x=highs.getSolution().col_value if has_solution else None,
            integrality=integrality,
            message=highs.modelStatusToString(model_status),
            solver_time=float(session.run_time),
            nodes=int(info.mip_node_count) if info.mip_node_count >= 0 else None,  # -1: no branch-and-bound ran
            lp_iterations=int(info.simplex_iteration_count) if info.simplex_iteration_count >= 0 else None,
            primal_bound=float(info.objective_function_value) if has_solution else None,
            dual_bound=dual if np.isfinite(dual) else None,
        )


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


class _Pool:
    """The Highs objects of process ``pid`` not in use: a solve takes one (:meth:`take`) and gives it back
    when its result is read (:meth:`HighsAdapter.close`), so no solve gets the object of a solve whose result
    is not read yet.  An object is made when none is free; reused because making and destroying one costs 2%
    of a 9x9 solve.  An object's run clock (``getRunTime``) is cumulative over its life, so a solve's time is
    the difference across ``run()``; ``time_limit`` counts per ``run()``.  Thread-safe: a solver process
    takes objects in two threads (:meth:`HighsAdapter.prepare`) and gives them back in a third."""

    def __init__(self):
        self.pid = os.getpid()
        self._free: deque[_Reused] = deque()
        self._lock = threading.Lock()

    def take(self, options: SolveOptions) -> _Reused:
        """A free object holding exactly ``options``, else the one free the longest, else a new one."""
        with self._lock:
            reused = self._holding(options) or (self._free.popleft() if self._free else None)
        if reused is None:
            import highspy
            reused = _Reused(highspy.Highs())
        return reused

    def take_holding(self, options: SolveOptions) -> _Reused | None:
        """A free object holding exactly ``options``, or None."""
        with self._lock:
            return self._holding(options)

    def give(self, reused: _Reused) -> None:
        with self._lock:
            self._free.append(reused)

    def _holding(self, options: SolveOptions) -> _Reused | None:
        for reused in self._free:
            if reused.holds(options):
                self._free.remove(reused)
                return reused
        return None


def _pool_here() -> _Pool:
    """This process's pool of Highs objects (a forked child makes its own)."""
    global _pool
    if _pool is None or _pool.pid != os.getpid():
        _pool = _Pool()
    return _pool


_ADAPTER = HighsAdapter()
solve_highs = _ADAPTER.solve
solve_highs_mps = _ADAPTER.solve_mps
check_highs_options = _ADAPTER.check_options
