"""Numbers on the command line are checked at the door; solution counts stream and have a budget."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzlebench.cli import main

ROOT = Path(__file__).resolve().parents[1]
SUDOKU = str(ROOT / "instances/sudoku/seed/matlab_cleve.txt")
SOLVE = ["solve", SUDOKU]
BATCH = ["batch", "--set", "sudoku/seed", "--formulation", "binary", "--solver", "highs", "-o", "x.jsonl"]
EMPTY_SUDOKU = "sudoku 4 2x2\n" + ". . . .\n" * 4  # 288 solutions


@pytest.mark.parametrize("argv, option", [
    (SOLVE + ["--time-limit", "nan"], "--time-limit"), (SOLVE + ["--time-limit", "inf"], "--time-limit"),
    (SOLVE + ["--time-limit", "0"], "--time-limit"), (SOLVE + ["--gap", "-1"], "--gap"),
    (SOLVE + ["--gap", "nan"], "--gap"), (SOLVE + ["--seed", "-5"], "--seed"),
    (SOLVE + ["--seed", "2147483648"], "--seed"), (SOLVE + ["--seed", "2147483647"], "--seed"),
    (SOLVE + ["--threads", "100000"], "--threads"), (SOLVE + ["--threads", "0"], "--threads"),
    (SOLVE + ["--count-solutions", "-3"], "--count-solutions"), (SOLVE + ["--index", "-1"], "--index"),
    (SOLVE + ["--count-solutions", "2", "--count-time-limit", "-1"], "--count-time-limit"),
    (BATCH + ["--seed", "-5"], "--seed"), (BATCH + ["--time-limit", "nan"], "--time-limit"),
    (BATCH + ["--threads", "100000"], "--threads"), (BATCH + ["--max-instances", "-1"], "--max-instances"),
    (BATCH + ["--permutations", "-1"], "--permutations"),
    (["check", SUDOKU, SUDOKU, "--index", "-2"], "--index"),
    (["permute", SUDOKU, "--count", "0", "--seed", "1", "-o", "d"], "--count"),
    (["permute", SUDOKU, "--count", "2", "--seed", "-1", "-o", "d"], "--seed"),
    (["generate", "sudoku", "--size", "4", "--count", "1", "--seed", "0", "--time-limit", "inf", "-o", "d"],
     "--time-limit"),
    (["generate", "sudoku", "--size", "4", "--count", "1", "--seed", "0", "--blank-fraction", "1.5", "-o", "d"],
     "--blank-fraction"),
    (["validate", "sudoku/seed", "--unique", "--time-limit", "nan"], "--time-limit"),
    (["analyze", "r.parquet", "--shift", "-1"], "--shift"),
])
def test_bad_numbers_are_refused_with_one_line_naming_the_option(tmp_path, monkeypatch, capsys, argv, option):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"argument {option}: must be" in err, err
    assert not list(tmp_path.iterdir())  # nothing written


def test_count_solutions_prints_each_solution_and_the_count(tmp_path, capsys):
    puzzle = tmp_path / "empty.txt"
    puzzle.write_text(EMPTY_SUDOKU)
    assert main(["solve", str(puzzle), "--count-solutions", "5", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["solution"] for line in lines[:-1]] == [1, 2, 3, 4, 5]
    assert len({json.dumps(line["grid"]) for line in lines[:-1]}) == 5
    assert {k: lines[-1][k] for k in ("solutions", "complete", "partial", "status")} == \
        {"solutions": 5, "complete": False, "partial": False, "status": "optimal"}  # capped at 5 of 288


def test_count_solutions_streams_and_reports_a_partial_count_at_its_budget(tmp_path):
    puzzle = tmp_path / "empty.txt"
    puzzle.write_text("sudoku 16 4x4\n" + " ".join(["."] * 16) + "\n" + (" ".join(["."] * 16) + "\n") * 15)
    start = time.monotonic()
    count = subprocess.Popen([sys.executable, "-m", "puzzlebench", "solve", str(puzzle), "--solver", "cpsat",
                              "--count-solutions", "1000000", "--count-time-limit", "6"],
                             stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        first = count.stdout.readline()
        assert first.startswith("# 1: solution 1") and count.poll() is None  # printed while still counting
        rest = count.stdout.read()
        assert count.wait(60) == 0
    finally:
        if count.poll() is None:
            count.kill()
    assert time.monotonic() - start < 6 + 15  # the budget, plus start-up and one solve's grace
    last = rest.splitlines()[-1]
    assert last.startswith("1: partial count: ") and "budget 6 s" in last, last
    found = int(last.split("partial count: ")[1].split()[0])
    assert found >= 1 and rest.count(": solution ") == found - 1


def _started(argv, cwd) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "puzzlebench", *argv], cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def _wait_for(condition, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_permute_writes_copies_as_it_goes(tmp_path):
    out = tmp_path / "copies"
    permute = _started(["permute", SUDOKU, "--count", "10000", "--seed", "1", "-o", str(out)], tmp_path)
    try:
        _wait_for(lambda: out.is_dir() and len(list(out.glob("*~p*.txt"))) >= 20)
        assert permute.poll() is None  # written long before the last of 10^4 copies
    finally:
        permute.kill()
        permute.wait()


def test_interrupted_generate_leaves_a_valid_set(tmp_path):
    import signal
    out = tmp_path / "sudoku" / "gen"
    generate = _started(["generate", "sudoku", "--size", "9", "--count", "200", "--seed", "3", "-o", str(out)],
                        tmp_path)
    try:
        _wait_for(lambda: len(list(out.glob("sudoku-*[0-9].txt"))) >= 2)
        assert (out / "set.yaml").is_file() and (out / "SOURCE.md").is_file()
        generate.send_signal(signal.SIGINT)
        assert generate.wait(30) == 130
    finally:
        if generate.poll() is None:
            generate.kill()
            generate.wait()
    assert "interrupted:" in generate.stderr.read()
    made = len(list(out.glob("sudoku-*[0-9].txt")))
    assert f"count: {made}\n" in (out / "set.yaml").read_text()
    assert main(["validate", "sudoku/gen", "--root", str(tmp_path)]) == 0
