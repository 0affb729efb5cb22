"""Hard time limits and crash isolation: solves run in a reusable child process.

The parent sends ``(adapter name, model arrays, options)`` through a socket and
waits at most ``time_limit + grace`` seconds; the child answers with the solve's
:class:`~puzzlebench.solvers.base.Attempt` (its reading and log), which the parent
finishes into the result, reading the log's figures while the child solves the next
model.  A child that does not answer in time is killed and the solve recorded as
``time_limit``; a child that dies (a segfault in a solver library) is recorded as
``error``.  Either way a fresh child serves the next solve.  The child imports each
solver library once, so a batch pays interpreter start and imports once, not per solve.
Nothing crosses twice: each array of a model (the constraint matrix, the bounds, the objective, ...)
that equals the one of the model the child solved before goes without it, and the child puts its own
back (a batch of one formulation sends the matrix once, and a Sudoku batch only the bounds that the
givens fix); the reading comes back without the model's integrality mask, which the parent holds.

A solve is :meth:`SolverProcess.submit` then :meth:`SolverProcess.collect`
(:meth:`SolverProcess.solve` does both).  Several solves may be submitted before
the first is collected: the child runs them one at a time, in order, and takes
the next one as soon as it has sent a result, without waiting for the parent,
which meanwhile checks the previous grid or builds the next model.  The parent
never blocks on writing a model while the child is busy (what does not fit in
the socket buffer is written while :meth:`~SolverProcess.collect` waits), so
neither side can wait for the other forever.

Each solve's clock starts when the child is free to take it: when its model was
sent or, if the child was still busy then, when the child finished the solve
before it.  The time limit counts from there, and the wall time (the solve as
seen from outside the solver: sending the model, the adapter, the result) runs
from there to the moment the child is done with the solve (its result made, or, read apart,
handed to the second thread: the next solve's clock starts then), so the parent being busy
elsewhere never adds to it.  Times are ``time.monotonic()``, one clock for both
processes.

The child receives each request in a thread of its own as it comes (the next model is unpickled,
and for an adapter that reads apart loaded into a solver object of its own, :meth:`~puzzlebench.solvers.base.Adapter.prepare`,
while the solve before runs), and makes and sends the replies of the solves whose adapter
:attr:`~puzzlebench.solvers.base.Adapter.reads_apart` (HiGHS) in another: that thread reads a solve's
result from the solver while the main thread runs the next solve (the solver's library lets it: it
releases Python's GIL while it solves), so receiving a model and reading, pickling and sending a
result take no time between two solves.  At most one reading is in flight, and every reply before a
solve whose adapter does not read apart is sent before that solve starts (its library may hold the
GIL while it solves), so no answer ever waits for the solve after it.

The child, and any program it starts (CBC), ends when the parent dies, whether it
exits or is killed (see :mod:`puzzlebench.system.processes`).
"""

from __future__ import annotations

import copy
import functools
import multiprocessing as mp
import os
import queue
import select
import shutil
import signal
import socket
import struct
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler

import numpy as np

from ..model import Model
from ..registry import SolverInfo, get_solver, loaded_solver
from ..solvers.base import Attempt, Prepared
from ..solvers.contract import SolveOptions, SolverResult
from ..system.processes import OWNER, owner, remove_leftovers

TEMPORARY = r"puzzlebench-" + OWNER + r"-\w+"
"""A solver process's temporary folder in ``$TMPDIR``, named by the job that owns it."""
_clock = time.monotonic  # system-wide (CLOCK_MONOTONIC): comparable between parent and child
_READABLE = select.POLLIN | select.POLLHUP | select.POLLERR


def default_grace(time_limit: float) -> float:
    """Seconds a solver may overrun its own limit before it is killed."""
    return max(2.0, 0.1 * time_limit)


def _serve(conn, parent_end: int, parent_pid: int, folder: str) -> None:
    """The child's loop: it dies with the parent (PR_SET_PDEATHSIG) and closes the parent's end
    of the socket it inherited, so that the parent's exit is also an end of file here.  Its
    temporary files (CBC's model and solution, SCIP's statistics) go into ``folder``, which the
    parent removes.  Its descriptors 1 and 2 stay on its capture file
    (:func:`~puzzlebench.system.capture.stand_capture`)."""
    from ..system.capture import stand_capture
    from ..system.processes import die_with_parent
    die_with_parent(parent_pid)
    os.close(parent_end)
    tempfile.tempdir = os.environ["TMPDIR"] = folder
    stand_capture()  # the process only solves: its output stays on the capture file
    requests, replies = _Requests(conn), _Replies(conn)
    while True:
        request = requests.get()
        if request is None:  # the parent closed its end
            replies.drain()
            return
        if not reads_apart(get_solver(request[0])):
            replies.drain()  # its solve may hold the GIL: the answers before it go first
        reply = reply_to(*request)
        replies.drain()  # one reading in flight at most: the solve before's is done (its session is free)
        if reply.apart:
            replies.put(reply)
        else:
            conn.send(reply.message())


def reads_apart(info: SolverInfo) -> bool:
    """Whether solver ``info`` lets the solver process read a solve's result while the next solve runs."""
    return info.adapter is not None and info.adapter.reads_apart


@dataclass
class Reply:
    """A solve's answer, as the solver process sends it once ``make()`` has made it: with ``apart``, ``make``
    reads the result (:meth:`~puzzlebench.solvers.base.Adapter.attempt_apart`), which the solver process's
    second thread does while the next solve runs.  ``done`` is when the solve left the solver (the time
    the parent's wall time ends at), ``mask`` the model's integrality mask."""

    make: Callable[[], Attempt | SolverResult]
    mask: np.ndarray
    done: float
    apart: bool = False

    def message(self) -> tuple:
        """``(answer, mask held, done)``: the answer without the model's integrality mask, which the parent
        holds (``mask held``; :func:`result_of` puts it back)."""
        answered = self.make()
        reading = getattr(answered, "reading", None)
        mask_held = reading is not None and reading.integrality is self.mask
        if mask_held:
            reading.integrality = None
        return answered, mask_held, self.done


class _Requests:
    """The solver process's thread that receives each request as it comes, unpickles it and puts back the
    arrays it left out (those of the model before, :meth:`SolverProcess._framed`), and prepares its solve
    (:func:`prepare_ahead`), so the next model is ready, loaded, when a solve ends; :meth:`get` gives them in order
    as ``(adapter, model, options, prepared)``, then None at the parent's end of file (an error receiving one
    is raised by :meth:`get`)."""

    def __init__(self, conn):
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._receive_all, args=(conn,), name="puzzlebench-requests", daemon=True).start()

    def get(self) -> tuple | None:
        request = self._inbox.get()
        if isinstance(request, BaseException):
            raise request
        return request

    def _receive_all(self, conn) -> None:
        held = None  # the model of the last request, whole
        while True:
            try:
                adapter, model, options, same = conn.recv()
                held = whole(model, same, held)
                request = adapter, model, options, prepare_ahead(adapter, model, options)
            except EOFError:
                request = None
            except BaseException as exc:  # noqa: BLE001 -- the main thread raises it: the solver process ends
                request = exc
            self._inbox.put(request)
            if request is None or isinstance(request, BaseException):
                return


class _Replies:
    """The solver process's second thread: it makes and sends each reply handed to it, in order, while
    the main thread runs the next solve; :meth:`drain` waits until it has sent them all."""

    def __init__(self, conn):
        self._conn = conn
        self._todo: queue.Queue = queue.Queue()
        threading.Thread(target=self._send_all, name="puzzlebench-replies", daemon=True).start()

    def put(self, reply: Reply) -> None:
        self._todo.put(reply)

    def drain(self) -> None:
        self._todo.join()

    def _send_all(self) -> None:
        while True:
            reply = self._todo.get()
            try:
                try:
                    message = reply.message()
                except Exception as exc:  # an adapter bug must not leave the parent waiting
                    message = (SolverResult("error", message=f"{type(exc).__name__}: {exc}"), False, reply.done)
                self._conn.send(message)
            except OSError:  # the parent is gone: the main thread reads its end of file
                pass
            finally:
                self._todo.task_done()


def whole(model: Model, same: tuple[str, ...], held: Model | None) -> Model:
    """``model`` whole: its fields named in ``same`` (left out of the request, as equal to those of the model
    before: :meth:`SolverProcess._framed`) taken from ``held``."""
    for name in same:
        setattr(model, name, getattr(held, name))
    return model


def prepare_ahead(adapter: str, model: Model, options: SolveOptions) -> Prepared | None:
    """The solve of ``model`` by ``adapter`` started and its model loaded ahead
    (:meth:`~puzzlebench.solvers.base.Adapter.prepare`), by the thread that receives the requests while the
    solve before runs, for an adapter that :func:`reads_apart`; None for any other (or one not loaded yet, or
    whose preparing fails: its solve then starts as usual and reports what goes wrong)."""
    info = loaded_solver(adapter)
    if info is None or not reads_apart(info):
        return None
    try:
        return info.adapter.prepare(model, options)
    except Exception:  # noqa: BLE001 -- the solve loads the model itself
        return None


def reply_to(adapter: str, model: Model, options: SolveOptions, prepared: Prepared | None = None) -> Reply:
    """The solver process's :class:`Reply` to one request, the solve run (from ``prepared`` when the receiving
    thread prepared it).  The reply is made now unless the adapter :func:`reads_apart`."""
    info = get_solver(adapter)
    if not reads_apart(info):
        answered = answer(info, model, options)
        return Reply(lambda: answered, model.integrality, _clock())
    try:
        make = info.adapter.attempt_apart(model, options, prepared)
    except Exception as exc:  # an adapter bug must not take the batch down
        make = functools.partial(SolverResult, "error", message=f"{type(exc).__name__}: {exc}")
    return Reply(make, model.integrality, _clock(), apart=True)


def answer(info: SolverInfo, model: Model, options: SolveOptions) -> Attempt | SolverResult:
    """What the solver process sends back for one solve: an adapter's :class:`Attempt` (the parent
    reads its log: :func:`result_of`), a solver registered as a function its result."""
    try:
        if info.adapter is not None:
            return info.adapter.attempt(model, options)
        return info.solve(model, options)
    except Exception as exc:  # an adapter bug must not take the batch down
        return SolverResult("error", message=f"{type(exc).__name__}: {exc}")


def result_of(adapter: str, answered: Attempt | SolverResult, mask: np.ndarray | None = None) -> SolverResult:
    """The result of what :func:`answer` sent back for a solve by adapter ``adapter``; ``mask``: the
    model's integrality mask, for a reading that came back without it (the solver process's loop)."""
    if isinstance(answered, SolverResult):
        return answered
    if mask is not None and answered.reading is not None:
        answered.reading.integrality = mask
    try:
        return get_solver(adapter).adapter.finish(answered)
    except Exception as exc:  # an adapter bug must not take the batch down
        return SolverResult("error", message=f"{type(exc).__name__}: {exc}", log=answered.log)


def _arrays_of(value) -> tuple | None:
    """A model field's data as arrays: an array itself, a CSR matrix its shape and its three arrays; None for a
    field that is neither."""
    if isinstance(value, np.ndarray):
        return (value,)
    if getattr(value, "format", None) == "csr":  # Model.A (scipy's sparse matrices name their format)
        return np.asarray(value.shape), value.indptr, value.indices, value.data
    return None


def _same_fields(model: Model, held: Model) -> tuple[str, ...]:
    """The array fields of ``model`` that hold the same data as those of ``held``: the same object, or arrays
    of the same dtype and shape, equal entry for entry (a CSR matrix: each of its arrays)."""
    def same(value, before) -> bool:
        if value is before:
            return True
        ours, theirs = _arrays_of(value), _arrays_of(before)
        return theirs is not None and len(ours) == len(theirs) and all(
            a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b) for a, b in zip(ours, theirs))
    return tuple(name for name, value in vars(model).items()
                 if _arrays_of(value) is not None and same(value, getattr(held, name)))


def _frame(obj) -> bytes:
    """``obj`` as :meth:`multiprocessing.connection.Connection.send` writes it (so ``recv`` reads it)."""
    payload = ForkingPickler.dumps(obj)
    n = len(payload)
    head = struct.pack("!i", n) if n <= 0x7FFFFFFF else struct.pack("!iQ", -1, n)
    return head + bytes(payload)


@dataclass
class _Pending:
    payload: tuple           # (adapter name, portable model, options)
    submitted: float         # _clock() at submit
    limit: float
    grace: float
    sent: bool = False       # framed into the output for the current child


class SolverProcess:
    """A child process that runs solves one at a time under a hard wall-clock limit."""

    def __init__(self, grace: float | None = None):
        self.grace = grace
        self._ctx = mp.get_context("fork")
        self._proc = None
        self._conn: Connection | None = None   # reads results
        self._sock: socket.socket | None = None  # writes models, without blocking
        self._poll = None
        self._out = bytearray()                 # framed models not yet written
        self._pending: deque[_Pending] = deque()
        self._free_at = 0.0  # when the current child finished its last solve (or started)
        self._folder: str | None = None         # the children's temporary files (see _serve)
        self._held: Model | None = None          # the last model framed for the current child, whole

    # -- the child ---------------------------------------------------------------------------

    def _start(self) -> None:
        if self._folder is None:
            remove_leftovers(tempfile.gettempdir(), TEMPORARY)  # of solver processes whose parent was SIGKILLed
            self._folder = tempfile.mkdtemp(prefix=f"puzzlebench-{owner()}-")
        ours, theirs = socket.socketpair()
        child = Connection(theirs.detach())
        self._proc = self._ctx.Process(target=_serve, args=(child, ours.fileno(), os.getpid(), self._folder),
                                       daemon=True)
        self._proc.start()
        child.close()
        self._sock = ours
        self._conn = Connection(os.dup(ours.fileno()))
        self._poll = select.poll()
        self._free_at = _clock()
        self._out.clear()
        self._held = None
        for pending in self._pending:  # solves the previous child took with it go to the new one
            pending.sent = False

    def _alive(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    def _kill(self, keep_pending: bool = False) -> None:
        if not keep_pending:
            self._pending.clear()
        if self._alive():
            os.kill(self._proc.pid, signal.SIGKILL)
        if self._proc is not None:
            self._proc.join()
        for end in (self._conn, self._sock):
            if end is not None:
                end.close()
        self._proc = self._conn = self._sock = self._poll = None
        self._out.clear()

    def _write(self, block: bool = False) -> None:
        """Write what is waiting in the output; without ``block``, only what the socket takes now."""
        flags = 0 if block else socket.MSG_DONTWAIT
        try:
            while self._out:
                del self._out[: self._sock.send(self._out, flags)]
        except BlockingIOError:
            pass
        except OSError:  # the child is gone; collect() reads its end-of-file and reports it
            self._out.clear()

    def _queue_unsent(self, block: bool) -> None:
        """Start a child if there is none; frame every solve it has not been given; write.

        (A child that died is noticed by :meth:`collect`, which reads its end of file.)"""
        if self._proc is None:
            self._start()
        for pending in self._pending:
            if not pending.sent:
                self._out += _frame(self._framed(pending.payload))
                pending.sent = True
        self._write(block)

    def _framed(self, payload: tuple) -> tuple:
        """``payload`` as it goes to the child, ``(adapter, model, options, same)``: the model without
        each array (or matrix) equal to that of the model framed before for this child, ``same`` naming
        those; the child puts its own back (:func:`whole`)."""
        adapter, model, options = payload
        held, self._held = self._held, model
        if held is None:
            return adapter, model, options, ()
        same = _same_fields(model, held)
        if same:
            model = copy.copy(model)
            for name in same:
                setattr(model, name, None)
        return adapter, model, options, same

    # -- solves -------------------------------------------------------------------------------

    @staticmethod
    def portable(model: Model) -> Model:
        """The model without its callables (``decode``, ``separate``): what the child needs.

        A shallow copy, so the arrays are not copied or re-validated before pickling.
        """
        portable = copy.copy(model)
        portable.decode = None
        portable.separate = None
        return portable

    @property
    def busy(self) -> bool:
        """Whether a submitted solve has not been collected yet."""
        return bool(self._pending)

    def submit(self, adapter: str, model: Model, options: SolveOptions) -> None:
        """Queue one solve of ``model`` by solver adapter ``adapter`` (a registered adapter's name, not a
        configuration's) for the child (started if needed); :meth:`collect` returns the results in
        submission order."""
        grace = default_grace(options.time_limit) if self.grace is None else self.grace
        self._pending.append(_Pending((adapter, self.portable(model), options), _clock(),
                                      options.time_limit, grace))
        # an idle child reads everything, so the model may be written in full, blocking
        self._queue_unsent(block=len(self._pending) == 1)

    def collect(self) -> tuple[SolverResult, float]:
        """The result of the oldest submitted solve and its wall time (see the module docstring);
        waits until its time limit plus grace."""
        if not self._pending:
            raise RuntimeError("SolverProcess.collect: nothing was submitted")
        self._queue_unsent(block=False)
        oldest = self._pending[0]
        start = max(oldest.submitted, self._free_at)
        deadline = start + oldest.limit + oldest.grace
        fd = self._conn.fileno()
        try:
            while True:
                self._poll.register(fd, _READABLE | (select.POLLOUT if self._out else 0))
                remaining = deadline - _clock()
                events = self._poll.poll(max(0.0, remaining) * 1000) if remaining > 0 else []
                if any(mask & _READABLE for _, mask in events):
                    answered, mask_held, done = self._conn.recv()
                    self._pending.popleft()
                    self._free_at = done
                    adapter, model, _ = oldest.payload
                    return (result_of(adapter, answered, model.integrality if mask_held else None),
                            max(0.0, done - start))
                if events:
                    self._write()  # room for more of the next model
                elif _clock() >= deadline:
                    break
        except (EOFError, OSError):
            self._proc.join(1.0)
            code = self._proc.exitcode
            self._pending.popleft()
            self._kill(keep_pending=True)
            why = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            return SolverResult("error", message=f"solver process died ({why})"), _clock() - start
        elapsed = _clock() - start
        self._pending.popleft()
        self._kill(keep_pending=True)
        return SolverResult("time_limit", solver_time=elapsed,
                            message=f"killed after {elapsed:.1f} s: the solver ignored its "
                                    f"{oldest.limit:g} s limit"), elapsed

    def solve(self, adapter: str, model: Model, options: SolveOptions) -> SolverResult:
        """Solve ``model`` by adapter ``adapter`` in the child and wait for the result (submit, then collect)."""
        if self._pending:
            raise RuntimeError("SolverProcess.solve: collect the submitted solves first")
        self.submit(adapter, model, options)
        return self.collect()[0]

    def close(self) -> None:
        """Kill the child and remove its temporary files; solves submitted and not collected are dropped."""
        self._kill()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
