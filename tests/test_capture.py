"""The standing capture of a process that only solves (``stand_capture``): each capture holds what was
written while it lasted, C-level and Python-level, and nothing of the captures before it; what is written
between captures reaches the process's original stderr; a nested capture and echo work as without it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = textwrap.dedent("""
    import ctypes, json, os, sys
    from puzzlebench.system import capture
    from puzzlebench.system.capture import captured_output, stand_capture
    libc = ctypes.CDLL(None)
    capture._STANDING_LIMIT = LIMIT
    stand_capture()
    stand_capture()  # a second call changes nothing
    texts = []
    os.write(2, b"before the first capture\\n")
    for k in range(4):
        with captured_output() as out:
            libc.printf(b"C-level %d\\n", k)
            print(f"Python-level {k}")
            os.write(2, b"stderr %d\\n" % k)
        texts.append(out.text)
        os.write(2, b"between %d\\n" % k)
    with captured_output() as outer:
        print("outer before")
        with captured_output() as inner:
            libc.printf(b"inner\\n")
        print("outer after")
    texts += [outer.text, inner.text]
    with captured_output(echo=True) as echoed:
        libc.printf(b"shown and kept\\n")
    texts.append(echoed.text)
    json.dump(texts, open(sys.argv[1], "w"))
""")


def probe(tmp_path, limit: int):
    found = tmp_path / "texts.json"
    done = subprocess.run([sys.executable, "-c", PROBE.replace("LIMIT", str(limit)), str(found)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(found.read_text()), done.stdout, done.stderr


def test_each_standing_capture_holds_its_own_output_only(tmp_path):
    texts, stdout, stderr = probe(tmp_path, 1 << 20)
    for k in range(4):
        assert texts[k] == f"C-level {k}\nPython-level {k}\nstderr {k}\n"
    assert texts[4] == "outer before\nouter after\n" and texts[5] == "inner\n"
    assert texts[6] == "shown and kept\n"
    assert stdout == "shown and kept\n"  # echoed to the original stdout, and only that
    assert stderr == "before the first capture\n" + "".join(f"between {k}\n" for k in range(4))


def test_a_standing_capture_file_is_emptied_between_captures(tmp_path):
    texts, _, stderr = probe(tmp_path, 10)  # emptied at every capture: the texts are the same
    for k in range(4):
        assert texts[k] == f"C-level {k}\nPython-level {k}\nstderr {k}\n"
    assert texts[4:] == ["outer before\nouter after\n", "inner\n", "shown and kept\n"]
    assert stderr == "before the first capture\n" + "".join(f"between {k}\n" for k in range(4))


def test_the_solver_process_logs_each_solve_once():
    from puzzlebench.io import read_puzzles
    from puzzlebench.run.runner import build
    from puzzlebench.run.worker import SolverProcess
    from puzzlebench.solvers.contract import SolveOptions

    entries = read_puzzles(ROOT / "instances" / "sudoku" / "magictour1465" / "puzzles3_magictour_top1465.txt")[:3]
    with SolverProcess() as process:
        logs = [process.solve("highs", build(e.puzzle, "binary").model, SolveOptions()).log for e in entries]
    assert all(log.count("Solving report") == 1 for log in logs), logs
    assert len(set(logs)) == 3
