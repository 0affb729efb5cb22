"""The adapter contract: the steps every solver adapter has, and the one solve that runs them.

An adapter is a subclass of :class:`Adapter` registered with
:func:`puzzlebench.registry.adapter`.  It gives the steps, and :meth:`Adapter.solve`
(arrays) and :meth:`Adapter.solve_mps` (the solver's own MPS reader, when it has one)
run them the same way for every solver:

1. with the solver's C-level and Python-level output captured (echoed live with
   ``verbose``; :mod:`puzzlebench.system.capture`): :meth:`~Adapter.start` a solver object for the
   solve, load the model into it (:meth:`~Adapter.load_arrays` or
   :meth:`~Adapter.load_mps`), :meth:`~Adapter.apply_options` (the common ones,
   :meth:`~Adapter.set_common`, then each solver option, :meth:`~Adapter.set_option`),
   :meth:`~Adapter.optimize`, :meth:`~Adapter.read` the result into a :class:`Reading`,
   and :meth:`~Adapter.close` the solver object;
2. an exception in any step becomes an ``error`` result with its text, or a
   ``skipped`` one when :meth:`~Adapter.licence_refusal` recognizes a licence size limit
   (both without figures: a run that failed or was refused has no presolve to report;
   a status the reading cannot name is an ``error`` with the figures the solver gave);
3. the figures of the adapter's :attr:`~Adapter.log_table` are read from the captured
   log (:meth:`~Adapter.with_log`), over the reading's own: the presolved size and the
   root LP time, for the solvers that only log them; an infeasible run whose presolve
   emptied the model has no presolved size (presolve proved the infeasibility);
4. the :class:`~puzzlebench.solvers.contract.SolverResult` is built once from the reading and the log,
   the point's integer columns rounded to the nearest integer, with ``root_solved`` = the solve
   completed (optimal or infeasible) and presolve solved the model or the solver explored at most
   :attr:`~Adapter.root_nodes` nodes.

Steps 1 and 2 are :meth:`Adapter.attempt`, the part that needs the solver (a solver process runs
it), steps 3 and 4 :meth:`Adapter.finish` (the process that asked for the solve runs it).  For an
adapter that :attr:`~Adapter.reads_apart`, :meth:`Adapter.attempt_apart` splits step 1 after ``optimize``:
a solver process reads one solve's result in its second thread while the next solve runs; such an adapter
may also :meth:`~Adapter.prepare` a solve (start its session and load its model) in the thread that
receives it, while the solve before runs.

An adapter holds no state across solves (a solve's state is its session), so any instance of
its class solves alike: the registry holds one, and a module's ``solve_<name>`` functions are
another's bound methods.  Status conventions and the shared helpers are in :mod:`._common`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

import numpy as np

from ..system.capture import captured_output
from ._common import finished, licence_limit, refuse_harness_options, rounded_solution
from .contract import FIGURE_TYPES, SolveFigures, SolveOptions, SolverResult
from .logs import LogTable


@dataclass
class Reading(SolveFigures):
    """What :meth:`Adapter.read` reads from the solver after the solve: its status, point, message
    and figures (:class:`~puzzlebench.store.records.SolveFigures`, those of the result it becomes);
    ``solved_in_presolve`` is True when presolve alone solved the model (a solver that counts a
    node even then).

    ``x`` is the point in column order as the solver gives it (a sequence of floats) and
    ``integrality`` the columns' integrality mask: :meth:`Adapter.finish` rounds the integer columns
    (:func:`~._common.rounded_solution`), in the process that asked for the solve, so a solver process
    goes on to its next solve sooner.  A reading without ``integrality`` gives ``x`` rounded already."""

    status: str
    x: Sequence[float] | np.ndarray | None = None
    message: str = ""
    solved_in_presolve: bool = False
    integrality: np.ndarray | None = None


_READING_ONLY = ("solved_in_presolve", "integrality")  # what finish reads, not a field of the result


@dataclass
class Attempt:
    """A solve as far as the solver takes it (:meth:`Adapter.attempt`): the captured log and the
    reading, or, for a solve that failed or was refused, its final result (``failure``).
    :meth:`Adapter.finish` makes the :class:`~puzzlebench.solvers.contract.SolverResult`; a solver
    process sends the attempt and the parent finishes it, so reading the log never delays the next
    solve."""

    log: str
    reading: Reading | None = None
    failure: SolverResult | None = None


@dataclass
class Prepared:
    """A solve's session with its model loaded ahead of the solve (:meth:`Adapter.prepare`), and what the
    load step returned."""

    session: Any
    loaded: Any


@dataclass
class Solved:
    """A solve as far as its ``optimize`` step (:meth:`Adapter.attempt_apart`): the captured log and the
    open session with what the load step returned, or the exception a step raised; ``reading`` once read."""

    log: str
    session: Any = None
    loaded: Any = None
    reading: Reading | None = None
    failure: Exception | None = None


class Adapter(ABC):
    """One solver.  Subclasses set the class attributes and give the abstract steps.

    ``name`` is the solver's public name (``--solver highs``), ``label`` how messages
    spell the solver (``HiGHS``), ``kind`` "mip" or "cp" (a constraint-programming
    reference), ``all_different`` True for an adapter that reads ``Model.all_different``,
    ``products`` True for one that reads ``Model.products``.
    ``harness_options`` maps the solver's own names of the settings the harness makes
    (spelled by :meth:`canonical_option`) to the setting: a solver option may not set them.
    ``root_nodes`` is the node count of a solve that did not branch (1 for a solver that
    counts the root node, 0 for one that does not).  ``reads_apart`` is True for an adapter whose
    :meth:`read` may run in another thread while the next solve runs (:meth:`attempt_apart`): its read
    step prints nothing, its library lets other threads run during ``optimize`` (it releases Python's
    GIL) and :meth:`start` never gives the session of a solve not yet read.
    """

    name: ClassVar[str]
    label: ClassVar[str]
    description: ClassVar[str]
    kind: ClassVar[str] = "mip"
    all_different: ClassVar[bool] = False
    products: ClassVar[bool] = False
    harness_options: ClassVar[dict[str, str]] = {}
    log_table: ClassVar[LogTable] = LogTable()
    root_nodes: ClassVar[int] = 1
    reads_apart: ClassVar[bool] = False

    # -- the steps ---------------------------------------------------------------------------------

    @abstractmethod
    def version(self) -> str:
        """The solver's name and version ("HiGHS 1.16.0"); raises when its library does not load."""

    @abstractmethod
    def start(self, options: SolveOptions) -> Any:
        """A fresh solver object (a "session") for one solve, its logging on."""

    @abstractmethod
    def load_arrays(self, session, model) -> Any:
        """Put the arrays of ``model`` into ``session``; return what :meth:`read` needs to know of
        the columns (their integrality mask, for most adapters)."""

    def load_mps(self, session, path: str) -> Any:
        """Read the MPS file ``path`` into ``session`` with the solver's own reader, as
        :meth:`load_arrays` (an adapter without a reader does not override this)."""
        raise NotImplementedError(f"{self.label} has no MPS reader of its own")

    @abstractmethod
    def set_common(self, session, options: SolveOptions) -> None:
        """Set the harness's settings: ``threads``, ``seed``, ``time_limit`` (none when
        :func:`~._common.time_limit_or_none` says so) and ``mip_gap``."""

    @abstractmethod
    def set_option(self, session, name: str, value) -> None:
        """Set one solver option; ValueError with the solver's reason when it refuses it."""

    @abstractmethod
    def optimize(self, session) -> None:
        """Run the solve."""

    @abstractmethod
    def read(self, session, loaded) -> Reading:
        """The result of the solve; ``loaded`` is what the load step returned."""

    def close(self, session) -> None:
        """Free what ``session`` holds (nothing by default)."""

    def prepare(self, model, options: SolveOptions) -> Prepared | None:
        """For an adapter that :attr:`reads_apart`: the session of a solve of ``model`` with ``options``, the model
        loaded, made ahead of the solve in another thread while a solve runs (so the loading prints nothing and
        touches no session in use), or None (the default) when it cannot be: the solve then starts and loads
        as usual (:meth:`attempt_apart`)."""
        return None

    def resume(self, prepared: Prepared, options: SolveOptions) -> Any:
        """The session of ``prepared`` made ready for its solve (its logging on), in the thread that solves,
        the output captured; the session itself by default."""
        return prepared.session

    def licence_refusal(self, exc: Exception) -> str | None:
        """The solver's reason when ``exc`` is its refusal of a model over its licence's size
        limit, else None (a solver without size-limited licences: always None)."""
        return None

    # -- shared behaviour --------------------------------------------------------------------------

    @property
    def reads_mps(self) -> bool:
        """Whether the adapter has the solver's own MPS reader."""
        return type(self).load_mps is not Adapter.load_mps

    def canonical_option(self, name: str) -> str:
        """How :attr:`harness_options` spells the option ``name`` (lower case by default)."""
        return name.lower()

    def apply_options(self, session, options: SolveOptions) -> None:
        """The common settings, then each of ``options.solver_options`` (so a solver option wins)."""
        self.set_common(session, options)
        for name, value in options.solver_options.items():
            self.set_option(session, name, value)

    def check_options(self, settings: dict) -> None:
        """ValueError naming the first of ``settings`` that sets one of the harness's settings or
        that the solver refuses, set on a fresh solver object."""
        refuse_harness_options(settings, self.harness_options, self.label, canonical=self.canonical_option)
        with captured_output():
            session = self.start(SolveOptions())
            try:
                for name, value in settings.items():
                    self.set_option(session, name, value)
            finally:
                self.close(session)

    def with_log(self, reading: Reading, logged: dict) -> Reading:
        """``reading`` with the figures of :attr:`log_table` taken from ``logged`` (the parsed log)
        where the log has them."""
        return replace(reading, **{name: FIGURE_TYPES[name](logged[name]) for name in self.log_table.figures
                                   if name in FIGURE_TYPES and name in logged})

    def licence_message(self, reason: str, log: str) -> str:
        """The ``message`` of a run refused for the licence's size limit (the solver's reason)."""
        return licence_limit(self.label, reason)

    def solve(self, model, options: SolveOptions) -> SolverResult:
        """Solve the arrays of ``model``."""
        return self.finish(self.attempt(model, options))

    def solve_mps(self, path, options: SolveOptions) -> SolverResult:
        """Solve the MPS file ``path`` with the solver's own reader."""
        return self.finish(self._attempt(lambda session: self.load_mps(session, str(path)), options))

    def attempt(self, model, options: SolveOptions) -> Attempt:
        """The solve of the arrays of ``model`` up to its reading and log (steps 1 and 2): the part that
        needs the solver, which a solver process runs; :meth:`finish` does the rest."""
        return self._attempt(lambda session: self.load_arrays(session, model), options)

    def attempt_apart(self, model, options: SolveOptions, prepared: Prepared | None = None) -> Callable[[], Attempt]:
        """:meth:`attempt` in two parts, for an adapter that :attr:`reads_apart`: the solve runs now, up to
        its ``optimize`` step (its output captured as the log), and the function returned reads it and closes
        its session into the :class:`Attempt` (a solver process calls it in its second thread while the next
        solve runs).  With ``prepared`` (:meth:`prepare`) the solve resumes that session, its model loaded."""
        solved = self._solved(lambda session: self.load_arrays(session, model), options, read=False,
                              prepared=prepared)
        return lambda: self._attempted(solved)

    def finish(self, attempt: Attempt) -> SolverResult:
        """The result of ``attempt`` (steps 3 and 4): the log's figures read, the integer columns of the
        point rounded (:class:`Reading`), ``root_solved`` set."""
        if attempt.failure is not None:
            return attempt.failure
        reading = self.with_log(attempt.reading, self.log_table.parse(attempt.log))
        if reading.status == "infeasible" and (reading.presolved_rows, reading.presolved_cols) == (0, 0):
            reading = replace(reading, presolved_rows=None, presolved_cols=None)  # presolve proved it
        root_solved = finished(reading.status) and (
            reading.solved_in_presolve or reading.nodes is not None and reading.nodes <= self.root_nodes)
        values = {f.name: getattr(reading, f.name) for f in fields(Reading) if f.name not in _READING_ONLY}
        if reading.x is not None and reading.integrality is not None:
            values["x"] = rounded_solution(reading.x, reading.integrality)
        return SolverResult(**values, root_solved=root_solved, log=attempt.log)

    def _attempt(self, load, options: SolveOptions) -> Attempt:
        return self._attempted(self._solved(load, options, read=True))

    def _solved(self, load, options: SolveOptions, read: bool, prepared: Prepared | None = None) -> Solved:
        """Start a session, load it (``load(session)``), apply the options and optimize, the output captured;
        with ``read``, read the result and close the session too, inside the capture (else the session stays
        open for :meth:`_attempted`, unless a step failed).  A ``prepared`` session is resumed instead, its
        model loaded already."""
        solved = Solved("")
        with captured_output(echo=options.verbose) as out:
            try:
                solved.session = self.start(options) if prepared is None else self.resume(prepared, options)
            except Exception as exc:  # an adapter never lets a solver failure escape
                solved.failure = exc
                if prepared is not None:
                    self.close(prepared.session)
            else:
                try:
                    solved.loaded = load(solved.session) if prepared is None else prepared.loaded
                    self.apply_options(solved.session, options)
                    self.optimize(solved.session)
                    if read:
                        solved.reading = self.read(solved.session, solved.loaded)
                except Exception as exc:
                    solved.failure = exc
                finally:
                    if read or solved.failure is not None:
                        self.close(solved.session)
        solved.log = out.text
        return solved

    def _attempted(self, solved: Solved) -> Attempt:
        """The :class:`Attempt` of ``solved``, read (and its session closed) first if it is not yet."""
        if solved.reading is None and solved.failure is None:
            try:
                solved.reading = self.read(solved.session, solved.loaded)
            except Exception as exc:
                solved.failure = exc
            finally:
                self.close(solved.session)
        log, failure = solved.log, solved.failure
        if failure is None:
            return Attempt(log, solved.reading)
        try:
            reason = self.licence_refusal(failure)
        except ImportError:  # the solver's library does not load: the failure is not its refusal
            reason = None
        if reason is not None:
            return Attempt(log, failure=SolverResult("skipped", message=self.licence_message(reason, log), log=log))
        return Attempt(log, failure=SolverResult("error", message=f"{type(failure).__name__}: {failure}", log=log))
