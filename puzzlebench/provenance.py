"""Where and with what a run was made: recorded with every results row."""

from __future__ import annotations

import datetime
import functools
import platform
import socket
import subprocess
from pathlib import Path

from . import __version__


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


def stamp() -> dict:
    """Machine facts plus the current UTC time."""
    return {**machine(), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
