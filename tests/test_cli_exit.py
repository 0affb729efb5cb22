"""How the ``puzzlebench`` program ends (issue 38): :func:`puzzlebench.cli.console` flushes the
output, runs the ``atexit`` handlers and ends the process without the interpreter's teardown; with
a thread still running it exits the usual way.  A fresh interpreter runs the program each time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUDOKU = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n"
PROGRAM = """
import atexit, sys, threading, time
from pathlib import Path
marks = Path(sys.argv[1])
class Teardown:  # a module global's finaliser runs only in the interpreter's teardown
    def __del__(self):
        marks.joinpath("teardown").write_text("ran")
kept = Teardown()
atexit.register(lambda: marks.joinpath("atexit").write_text("ran"))
if sys.argv[2] == "thread":  # a thread that is not a daemon, still running when the command ends
    threading.Thread(target=lambda: (time.sleep(0.3), marks.joinpath("thread").write_text("ran"))).start()
sys.argv = ["puzzlebench", *sys.argv[3:]]
from puzzlebench.cli import console
console()
"""


def run(tmp_path: Path, thread: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROGRAM, str(tmp_path), thread, *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_the_program_ends_without_the_interpreters_teardown(tmp_path):
    puzzle = tmp_path / "one.txt"
    puzzle.write_text(SUDOKU)
    proc = run(tmp_path, "none", "solve", str(puzzle), "--formulation", "binary", "--solver", "highs")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith("# verified: yes")  # the piped (block-buffered) output is all there
    assert (tmp_path / "atexit").exists()
    assert not (tmp_path / "teardown").exists()


def test_a_bad_input_keeps_its_exit_code_and_message(tmp_path):
    proc = run(tmp_path, "none", "solve", str(tmp_path / "missing.txt"))
    assert proc.returncode == 2
    assert proc.stderr.startswith("puzzlebench: error: ") and "missing.txt" in proc.stderr
    assert (tmp_path / "atexit").exists()


def test_a_running_thread_is_waited_for(tmp_path):
    proc = run(tmp_path, "thread", "--version")
    assert proc.returncode == 0 and proc.stdout.startswith("puzzlebench ")
    assert (tmp_path / "thread").exists() and (tmp_path / "teardown").exists()  # the usual exit
