"""Capture what a solver library prints to the C-level stdout and stderr.

Solver libraries write their logs with ``printf``/``std::cout`` straight to file
descriptors 1 and 2, which Python's ``sys.stdout`` redirection cannot see.
:func:`captured_output` points both descriptors at a temporary file for the
duration of a solve and restores them afterwards, so the log ends up in
``SolverResult.log`` and nothing reaches the terminal.  With ``echo`` a
thread copies the log to the original stdout as it grows, so a verbose solve
is shown live and still captured (the log is the same either way, so figures
parsed from it never depend on ``verbose``).

The capture file (in memory where possible) is made once per process and emptied (truncated) at the
start of each capture, so a batch of thousands of short solves does not
create and delete a file per solve.  A forked child makes its own on first
use: parent and child never share one file or its offset.

Python-level output (gurobipy's and CPLEX's logs go through ``sys.stdout``,
Xpress's licence notice through ``warnings``) is captured too: for the duration
``sys.stdout`` and ``sys.stderr`` are text streams on the redirected descriptors.

The redirection is process-wide: solves that capture their output must not run
in parallel threads of one process (run them in separate processes).

A process that does nothing but solve (the solver process, :mod:`puzzlebench.run.worker`) calls
:func:`stand_capture` once: descriptors 1 and 2 then stay on the capture file, and a capture reads
what was written to it while the capture lasted, instead of redirecting the descriptors and restoring
them around each solve (``benchmarks/overhead.py`` shows what it saves).  What is written
between two captures goes on to the process's original stderr at the next one.
"""

from __future__ import annotations

import ctypes
import os
import sys
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

_LIBC = ctypes.CDLL(None)
_ECHO_INTERVAL = 0.05
_sink: tuple[int, object] | None = None  # (pid, file) of this process's capture file
_depth = 0  # captures in progress in this process (a nested one gets a file of its own)
_STANDING_LIMIT = 1 << 20  # a standing capture file is emptied between captures once it holds this much


@dataclass
class _Standing:
    """The standing capture of process ``pid``: descriptors 1 and 2 on ``sink``, the original ones kept as
    ``out`` and ``err``; ``end`` is where the last capture's text ended."""

    pid: int
    sink: int
    out: int
    err: int
    end: int = 0


_standing: _Standing | None = None


@dataclass
class CapturedText:
    """The captured output; ``text`` is filled in when the capture ends."""

    text: str = ""


def _flush_all() -> None:
    """Flush Python's and the C library's stdout/stderr buffers."""
    sys.stdout.flush()
    sys.stderr.flush()
    _LIBC.fflush(None)


def _copy_new_bytes(source: int, target: int, start: int) -> int:
    """Write the bytes of ``source`` from offset ``start`` to ``target``; return the new offset."""
    while chunk := os.pread(source, 1 << 16, start):
        os.write(target, chunk)
        start += len(chunk)
    return start


def _memory_file():
    """An anonymous file in memory where the system has them (Linux), else a temporary file."""
    if hasattr(os, "memfd_create"):
        return open(os.memfd_create("puzzlebench-solver-log"), "w+b")
    return tempfile.TemporaryFile()


def _reusable_sink() -> int:
    """The descriptor of this process's capture file, emptied and rewound."""
    global _sink
    if _sink is None or _sink[0] != os.getpid():
        _sink = (os.getpid(), _memory_file())  # deleted when the process ends
    fd = _sink[1].fileno()
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _read_range(fd: int, start: int, end: int) -> bytes:
    chunks = []
    while start < end and (chunk := os.pread(fd, end - start, start)):
        chunks.append(chunk)
        start += len(chunk)
    return b"".join(chunks)


@contextmanager
def _echoed(echo: bool, sink: int, target: int, start: int) -> Iterator[None]:
    """While it lasts, with ``echo``, copy what is written to ``sink`` from offset ``start`` on to ``target``
    (every :data:`_ECHO_INTERVAL` seconds, and the rest, flushed, at its end)."""
    if not echo:
        yield
        return
    stop = threading.Event()
    copied = [start]

    def echo_loop():
        while not stop.wait(_ECHO_INTERVAL):
            copied[0] = _copy_new_bytes(sink, target, copied[0])

    thread = threading.Thread(target=echo_loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        _flush_all()
        stop.set()
        thread.join()
        _copy_new_bytes(sink, target, copied[0])


def stand_capture() -> None:
    """Keep file descriptors 1 and 2 of this process on its capture file from now on (the module's
    docstring); for a process that only solves.  Called again in the same process, it does nothing."""
    global _standing
    if _standing is not None and _standing.pid == os.getpid():
        return
    _flush_all()
    sink = _reusable_sink()
    out, err = os.dup(1), os.dup(2)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    _standing = _Standing(os.getpid(), sink, out, err)


def _standing_capture(echo: bool) -> Iterator[CapturedText]:
    """A capture under :func:`stand_capture`: the text written to the capture file while it lasts."""
    global _depth
    standing = _standing
    captured = CapturedText()
    _flush_all()
    start = os.lseek(standing.sink, 0, os.SEEK_CUR)
    if start > standing.end:  # written between captures: no solve's, so on to the original stderr
        os.write(standing.err, _read_range(standing.sink, standing.end, start))
    if start > _STANDING_LIMIT:
        os.ftruncate(standing.sink, 0)
        start = os.lseek(standing.sink, 0, os.SEEK_SET)
    _depth += 1
    try:
        with _echoed(echo, standing.sink, standing.out, start):
            yield captured
    finally:
        _flush_all()
        _depth -= 1
        standing.end = os.lseek(standing.sink, 0, os.SEEK_CUR)
        captured.text = _read_range(standing.sink, start, standing.end).decode("utf-8", errors="replace")


@contextmanager
def captured_output(echo: bool = False) -> Iterator[CapturedText]:
    """Redirect file descriptors 1 and 2 to the capture file; collect the text on exit (under
    :func:`stand_capture`, read what was written to the standing capture file meanwhile)."""
    global _depth
    if not _depth and _standing is not None and _standing.pid == os.getpid():
        yield from _standing_capture(echo)
        return
    captured = CapturedText()
    _flush_all()
    own = tempfile.TemporaryFile() if _depth else None  # nested: the outer capture keeps its file
    sink = own.fileno() if own else _reusable_sink()
    _depth += 1
    saved = {fd: os.dup(fd) for fd in (1, 2)}
    python_streams = sys.stdout, sys.stderr
    try:
        for fd in saved:
            os.dup2(sink, fd)
        sys.stdout, sys.stderr = (open(fd, "w", closefd=False, buffering=1) for fd in (1, 2))
        with _echoed(echo, sink, saved[1], 0):
            yield captured
    finally:
        _flush_all()
        if sys.stdout is not python_streams[0]:
            sys.stdout.close(), sys.stderr.close()
            sys.stdout, sys.stderr = python_streams
        for fd, copy in saved.items():
            os.dup2(copy, fd)
        for copy in saved.values():
            os.close(copy)
        _depth -= 1
        captured.text = _read_range(sink, 0, os.fstat(sink).st_size).decode("utf-8", errors="replace")
        if own:
            own.close()
