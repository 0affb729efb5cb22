"""Where and with what a run was made: recorded with every results row."""

from __future__ import annotations

import datetime
import functools
import platform
import socket
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from . import __version__


@dataclass
class Provenance:
    """Where and with what a run was made (the same for every row of a job but ``date``).

    ``date`` is the job's start (UTC, ISO 8601); ``solver_versions`` a JSON object of
    every registered adapter's version."""

    puzzlebench_version: str = ""
    git_commit: str = ""
    python_version: str = ""
    cpu_model: str = ""
    cpu_count: int | None = None
    hostname: str = ""
    platform: str = ""
    date: str = ""
    solver_versions: str = ""


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_commit() -> str:
    """The commit of the puzzlebench checkout, with '+dirty' for local changes; 'unknown' outside git."""
    repo = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


@functools.cache
def machine() -> dict:
    """Facts that are the same for every run of this process."""
    import os
    return {"puzzlebench_version": __version__, "git_commit": git_commit(),
            "python_version": platform.python_version(), "cpu_model": cpu_model(),
            "cpu_count": os.cpu_count(), "hostname": socket.gethostname(), "platform": platform.platform()}


def stamp(solver_versions: str = "") -> dict:
    """Machine facts plus the current UTC time: the fields of :class:`Provenance`."""
    return asdict(Provenance(**machine(), solver_versions=solver_versions,
                             date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")))
