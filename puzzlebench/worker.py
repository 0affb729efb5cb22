"""Hard time limits and crash isolation: solves run in a reusable child process.

The parent sends ``(solver name, model arrays, options)`` through a pipe and
waits at most ``time_limit + grace`` seconds.  A child that does not answer in
time is killed and the solve recorded as ``time_limit``; a child that dies
(a segfault in a solver library) is recorded as ``error``.  Either way a fresh
child serves the next solve.  The child imports each solver library once, so a
batch pays interpreter start and imports once, not per solve.
"""

from __future__ import annotations

import dataclasses
import multiprocessing as mp
import os
import signal
import time

from .model import Model
from .records import SolveOptions, SolverResult


def default_grace(time_limit: float) -> float:
    """Seconds a solver may overrun its own limit before it is killed."""
    return max(2.0, 0.1 * time_limit)


def _serve(conn) -> None:
    from .registry import get_solver
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        solver_name, model, options = job
        try:
            result = get_solver(solver_name).solve(model, options)
        except Exception as exc:  # an adapter bug must not take the batch down
            result = SolverResult("error", message=f"{type(exc).__name__}: {exc}")
        conn.send(result)


class SolverProcess:
    """A child process that runs solves one at a time under a hard wall-clock limit."""

    def __init__(self, grace: float | None = None):
        self.grace = grace
        self._ctx = mp.get_context("fork")
        self._proc = None
        self._conn = None

    def _start(self) -> None:
        parent, child = self._ctx.Pipe()
        self._proc = self._ctx.Process(target=_serve, args=(child,), daemon=True)
        self._proc.start()
        child.close()
        self._conn = parent

    def _kill(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            os.kill(self._proc.pid, signal.SIGKILL)
        if self._proc is not None:
            self._proc.join()
        if self._conn is not None:
            self._conn.close()
        self._proc = self._conn = None

    def solve(self, solver_name: str, model: Model, options: SolveOptions) -> SolverResult:
        if self._proc is None or not self._proc.is_alive():
            self._start()
        portable = dataclasses.replace(model, decode=None, separate=None)
        grace = default_grace(options.time_limit) if self.grace is None else self.grace
        start = time.perf_counter()
        try:
            self._conn.send((solver_name, portable, options))
            if self._conn.poll(options.time_limit + grace):
                return self._conn.recv()
        except (EOFError, BrokenPipeError, ConnectionResetError):
            self._proc.join(1.0)
            code = self._proc.exitcode
            self._kill()
            why = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            return SolverResult("error", message=f"solver process died ({why})")
        elapsed = time.perf_counter() - start
        self._kill()
        return SolverResult("time_limit", solver_time=elapsed,
                            message=f"killed after {elapsed:.1f} s: the solver ignored its "
                                    f"{options.time_limit:g} s limit")

    def close(self) -> None:
        self._kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
