"""No orphans: a solver child, and CBC under it, end within 2 s of their parent's death."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[1]
SLOW = ROOT / "instances/sudoku/blank65-36/blank65-36x36-01.txt"  # CBC runs into a 60 s limit on it
PUZZLEBENCH = [sys.executable, "-m", "puzzlebench"]
COMMANDS = {
    "solve": [*PUZZLEBENCH, "solve", str(SLOW), "--solver", "cbc", "--time-limit", "60"],
    # a parent that exits (without any clean-up: os._exit) while its child solves
    "exit": [sys.executable, "-c", "import os, time; from puzzlebench.io import read_puzzle; "
             "from puzzlebench.solvers.contract import SolveOptions; from puzzlebench.run.runner import build; "
             "from puzzlebench.run.worker import SolverProcess; p = SolverProcess(); "
             f"p.submit('cbc', build(read_puzzle({str(SLOW)!r}).puzzle, 'binary').model, SolveOptions(time_limit=60)); "
             "time.sleep(3); os._exit(0)"],
    "batch": [*PUZZLEBENCH, "batch", "--set", "sudoku/blank65-36", "--formulation", "binary", "--solver",
              "cbc", "--time-limit", "60", "--max-instances", "1"],
}


def descendants_once_cbc_runs(parent: psutil.Process, timeout: float = 60) -> list[psutil.Process]:
    """The parent's descendants, once the solver child and a CBC program under it run (mid-solve)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = parent.children(recursive=True)
        if len(found) >= 2 and any("cbc" in os.path.basename(_exe(p)) for p in found):
            return found
        time.sleep(0.1)
    raise AssertionError("CBC never started")


def _exe(process: psutil.Process) -> str:
    try:
        return process.cmdline()[0]
    except (psutil.Error, IndexError):
        return ""


def alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    def running(p):
        try:
            return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False
    return [p for p in processes if running(p)]


@pytest.mark.slow
@pytest.mark.parametrize("command, how", [("solve", "SIGKILL"), ("solve", "SIGTERM"), ("batch", "SIGKILL"),
                                          ("batch", "SIGTERM"), ("exit", "")])
def test_children_end_with_their_parent(tmp_path, command, how):
    argv = COMMANDS[command] + (["-o", str(tmp_path / "out.jsonl")] if command == "batch" else [])
    parent = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    children = []
    try:
        children = descendants_once_cbc_runs(psutil.Process(parent.pid))
        if command != "exit":
            parent.send_signal(getattr(signal, how))
        parent.wait(10)
        deadline = time.monotonic() + 2
        while alive(children) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = alive(children)
        assert not left, f"{command} {how} left {[(p.pid, _exe(p)) for p in left]} running"
    finally:
        for p in alive(children):
            p.kill()
        if parent.poll() is None:
            parent.kill()
            parent.wait()
