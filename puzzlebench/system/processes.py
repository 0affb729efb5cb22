"""Processes that end with their parent, and the temporaries they leave when they cannot.

A solver process dies with the job that started it (:func:`die_with_parent`); a job started by
the workflow ends when the workflow does (:func:`watch_workflow`), and SIGTERM unwinds it
(:func:`exit_on_sigterm`) so that its solver is killed and its temporary files are removed.
What a SIGKILL leaves (temporaries named by :func:`owner`) the next run removes
(:func:`remove_leftovers`)."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int, signum: int = signal.SIGKILL) -> None:
    """Ask Linux to send this process ``signum`` when its parent dies (``prctl(PR_SET_PDEATHSIG)``).

    Call it first thing in a child (after fork, before exec: the setting survives
    exec).  ``parent_pid`` is the parent's pid taken before the fork: if the parent
    is already gone, and the child was adopted, the child exits at once (SIGKILL) or
    gets ``signum`` now.  Elsewhere than Linux this does nothing.
    """
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signum)
    if os.getppid() != parent_pid:
        if signum == signal.SIGKILL:
            os._exit(1)
        os.kill(os.getpid(), signum)


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists on this machine (it may belong to another user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner() -> str:
    """``PID@HOST``, in the name of a temporary file or folder: the process that made it, and on which
    machine (a results folder on a cluster's shared file system has temporaries of many)."""
    import socket
    return f"{os.getpid()}@{socket.gethostname()}"


OWNER = r"(?P<pid>\d+)@(?P<host>.+)"
"""The regular expression of :func:`owner`'s text, for the patterns of :func:`remove_leftovers`."""


def remove_leftovers(folder, pattern: str, keep=()) -> list:
    """Remove the entries of ``folder`` (files, links or folders) whose whole name matches ``pattern``
    (a regular expression holding :data:`OWNER`) when their process, on this machine, is gone: what
    a killed run (SIGKILL: no clean-up possible) left behind; the names in ``keep`` stay.  Returns
    the paths removed."""
    import re
    import shutil
    import socket
    from pathlib import Path
    compiled, host, removed = re.compile(pattern), socket.gethostname(), []
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return removed
    for entry in entries:
        found = compiled.fullmatch(entry.name)
        if found is None or entry.name in keep or found["host"] != host or int(found["pid"]) == os.getpid() \
                or pid_alive(int(found["pid"])):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        removed.append(entry)
    return removed


WORKFLOW_PID = "PUZZLEBENCH_WORKFLOW_PID"
"""The environment variable through which the Snakefile tells its jobs the workflow's process id."""
GRACE = 10.0  # seconds a process may take to unwind after SIGTERM before it is killed


def exit_on_sigterm() -> None:
    """Make SIGTERM raise SystemExit(143) in the main thread, so that ``finally`` blocks and context
    managers run (the solver process killed, temporary files removed) before the process ends; a
    process that has not ended :data:`GRACE` seconds later is killed."""
    def unwind(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends it at once
        _kill_after(GRACE)
        raise SystemExit(128 + signum)
    import threading
    if threading.current_thread() is threading.main_thread():  # signal handlers live there only
        signal.signal(signal.SIGTERM, unwind)


def _kill_after(seconds: float) -> None:
    import threading
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGKILL))
    timer.daemon = True
    timer.start()


def watch_workflow(environ=None) -> int | None:
    """When :data:`WORKFLOW_PID` names an ancestor of this process (the snakemake that started the
    job's shell), SIGTERM this process as soon as that ancestor ends, however it ends (``kill -9``
    included: a thread waits on a pidfd of it), or its own parent (the job's shell) does
    (PR_SET_PDEATHSIG).  Returns the pid watched, or None."""
    text = (os.environ if environ is None else environ).get(WORKFLOW_PID, "")
    if not text.isdigit():
        return None
    import select
    import threading

    import psutil
    pid = int(text)
    try:
        parents = [parent.pid for parent in psutil.Process().parents()]
        if pid not in parents:
            return None  # a value inherited from elsewhere: not this process's workflow
        die_with_parent(parents[0], signal.SIGTERM)  # the job's shell, killed alone, ends it too
        handle = os.pidfd_open(pid)
    except (ProcessLookupError, psutil.NoSuchProcess):  # gone already
        os.kill(os.getpid(), signal.SIGTERM)
        return pid

    def wait() -> None:
        select.select([handle], [], [])  # readable once the process has ended
        os.kill(os.getpid(), signal.SIGTERM)
    threading.Thread(target=wait, name="workflow-watchdog", daemon=True).start()
    return pid
