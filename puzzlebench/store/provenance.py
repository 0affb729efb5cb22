"""Where and with what a run was made: recorded with every results row."""

from __future__ import annotations

import datetime
import functools
import platform
import socket
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from .. import __version__
from .._tree import TREE


@dataclass
class Provenance:
    """Where and with what a run was made (the same for every row of a job but ``date``).

    ``date`` is the job's start (UTC, ISO 8601); ``solver_versions`` a JSON object of
    every registered adapter's version; ``load_average`` the machine's 1-minute load average
    at the job's start (None where the system does not give one)."""

    puzzlebench_version: str = ""
    git_commit: str = ""
    python_version: str = ""
    cpu_model: str = ""
    cpu_count: int | None = None
    hostname: str = ""
    platform: str = ""
    date: str = ""
    solver_versions: str = ""
    load_average: float | None = None


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
    repo = TREE
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


def load_average() -> float | None:
    """The 1-minute load average, or None where the system has none."""
    import os
    try:
        return round(float(os.getloadavg()[0]), 2)
    except (AttributeError, OSError):
        return None


def cpu_pressure_total() -> float | None:
    """Seconds, since boot, during which some task waited for a CPU (``/proc/pressure/cpu``,
    the "some" line's total); None where the kernel does not report pressure."""
    try:
        for line in Path("/proc/pressure/cpu").read_text().splitlines():
            if line.startswith("some"):
                return int(line.rsplit("total=", 1)[1]) / 1e6
    except (OSError, ValueError, IndexError):
        pass
    return None


def stamp(solver_versions: str = "") -> dict:
    """Machine facts plus the current UTC time and load: the fields of :class:`Provenance`."""
    return asdict(Provenance(**machine(), solver_versions=solver_versions,
                             date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                             load_average=load_average()))
