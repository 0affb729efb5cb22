"""Hardening, round 4 (issue 34): files written whole or not at all, calibrate's checks, and compare of
one file given twice.  Each test fails on the code before the fix."""

from __future__ import annotations

import errno
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from puzzlebench import Sudoku
from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError
from puzzlebench.io import format_puzzle
from puzzlebench.system import atomic

ROOT = Path(__file__).resolve().parents[1]


class FullDisk:
    """A text file whose writes fail with ENOSPC once ``room`` characters were written."""

    def __init__(self, path, room: int):
        self.fh, self.room = open(path, "w", encoding="utf-8"), room

    def write(self, text: str) -> int:
        if len(text) > self.room:
            self.fh.write(text[:self.room])
            self.fh.flush()
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= len(text)
        return self.fh.write(text)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.fh.close()


@pytest.fixture
def one_puzzle_set(tmp_path, monkeypatch) -> Path:
    """An instance root with sudoku/seed holding one puzzle (its first file)."""
    source = ROOT / "instances/sudoku/seed"
    folder = tmp_path / "instances/sudoku/seed"
    folder.mkdir(parents=True)
    first = sorted(p for p in source.iterdir() if p.suffix == ".txt" and not p.name.endswith(".solution.txt"))[0]
    shutil.copy(first, folder / first.name)
    monkeypatch.setenv("PUZZLEBENCH_INSTANCES", str(tmp_path / "instances"))
    return folder


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "out.csv"
    path.write_text("old,whole\n")
    monkeypatch.setattr(atomic, "open", lambda p, *a, **k: FullDisk(p, 5), raising=False)
    with pytest.raises(PuzzleError) as caught:
        atomic.write_whole(path, "new,text,longer than the room\n")
    assert str(caught.value) == f"{path}: cannot write it: No space left on device"
    assert path.read_text() == "old,whole\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]
    monkeypatch.undo()
    atomic.write_whole(path, "new\n")
    assert path.read_text() == "new\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


def test_calibrate_on_a_full_disk_keeps_the_old_calibration_and_names_the_file(one_puzzle_set, monkeypatch, capsys):
    old = "# an earlier calibration\nname,size\nx,9x9\n"
    path = one_puzzle_set / "calibration.csv"
    path.write_text(old)
    monkeypatch.setattr(atomic, "open", lambda p, *a, **k: FullDisk(p, 200), raising=False)
    assert main(["calibrate", "sudoku/seed", "--time-limit", "20"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"puzzlebench: error: {path}: cannot write it: No space left on device" or (
        f"{path}: cannot write it: No space left on device" in err[-1] and len(err[-1].splitlines()) == 1), err
    assert path.read_text() == old
    assert sorted(p.name for p in one_puzzle_set.iterdir() if p.name.startswith(".")) == []


def test_calibrate_refuses_an_empty_set_and_writes_nothing(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "instances/sudoku/empty"
    folder.mkdir(parents=True)
    (folder / "set.yaml").write_text("puzzle: sudoku\n")       # a set folder with no puzzle file
    monkeypatch.setenv("PUZZLEBENCH_INSTANCES", str(tmp_path / "instances"))
    assert main(["calibrate", "sudoku/empty"]) == 2
    assert "has no puzzles: nothing to calibrate" in capsys.readouterr().err
    assert not (folder / "calibration.csv").exists()


def test_calibrate_says_which_puzzle_it_recorded_at_the_time_limit(one_puzzle_set, capsys):
    grid = np.zeros((4, 4), int)
    grid[0, :2] = 1, 2
    grid[2, 2], grid[3, 2] = 3, 4        # cell (1,3) has no candidate: infeasible
    (one_puzzle_set / "no-candidate.txt").write_text(format_puzzle(Sudoku(grid, name="no-candidate"), "native"))
    assert main(["calibrate", "sudoku/seed", "--time-limit", "5"]) == 0
    err = capsys.readouterr().err
    assert "sudoku/seed/no-candidate.txt#1: infeasible" in err and "recorded at the time limit 5 s" in err
    rows = (one_puzzle_set / "calibration.csv").read_text().splitlines()
    assert any(row.startswith("no-candidate.txt#1,4x4,") for row in rows), rows


def test_calibrate_repeats_are_capped_as_the_workflows(capsys):
    assert main(["calibrate", "sudoku/seed", "--repeats", "1001"]) == 2    # (not 10**9: the old code would try it)
    assert "--repeats: must be an integer 1..1000, not '1001'" in capsys.readouterr().err


def test_a_whole_float_per_set_samples_as_its_integer():
    from puzzlebench.workflow.planner import plan
    base = {"instance_sets": ["kakuro/janko"], "formulations": {"kakuro": ["binary"]}, "solvers": ["highs"]}
    as_float = plan({**base, "sample": {"per_set": 3.0}})
    as_int = plan({**base, "sample": {"per_set": 3}})
    assert [job.names for job in as_float] == [job.names for job in as_int] and len(as_int[0].names) == 3


@pytest.mark.parametrize("value", [None, ""])
def test_a_results_folder_of_null_or_nothing_is_refused_in_one_line(tmp_path, value):
    import json
    import subprocess
    import sys
    study = tmp_path / "study.yaml"
    study.write_text(json.dumps({"results": value}))
    done = subprocess.run([sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-n", "--directory",
                           str(tmp_path), "--configfile", str(study)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "config results = " in done.stderr and "non-empty folder path" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "None").exists()


def test_a_one_cell_kenken_builds_with_every_formulation(tmp_path):
    """A one-cell cage's operator is "": `op in "x/"` took it for a product (ZeroDivisionError in log-linear)."""
    from puzzlebench.io import read_puzzle
    from puzzlebench.registry import formulations
    from puzzlebench.run.runner import run
    from puzzlebench.solvers.contract import SolveOptions
    path = tmp_path / "k1.txt"
    path.write_text("kenken 1\nA\nA 1\n")
    puzzle = read_puzzle(path).puzzle
    for info in formulations("kenken"):
        record = run(puzzle, info.name, "highs", SolveOptions(time_limit=20))
        assert record.verified, (info.name, record.status, record.message)


def test_a_formulation_whose_applies_check_fails_is_that_runs_error_and_the_job_goes_on(monkeypatch):
    from puzzlebench import registry
    from puzzlebench.registry import FormulationInfo, get_formulation
    from puzzlebench.run.batch import run_job
    from puzzlebench.run.jobs import Job

    def fails(puzzle):
        """puzzles it cannot tell"""
        return 1 / 0

    binary = get_formulation("sudoku", "binary")
    monkeypatch.setitem(registry._FORMULATIONS, ("sudoku", "fragile"),
                        FormulationInfo("sudoku", "fragile", "binary, with a failing applies check", binary.build, fails))
    rows = [r for r in run_job(Job("sudoku/seed", ("binary", "fragile"), "highs", repeats=1, time_limit=20),
                               progress=False) if r.get("role") == "run"]
    assert sorted(r["formulation"] for r in rows) == ["binary", "binary", "fragile", "fragile"]
    fragile = [r for r in rows if r["formulation"] == "fragile"]
    assert all("ZeroDivisionError" in r["message"] for r in fragile), fragile
    assert all(r["verified"] for r in rows if r["formulation"] == "binary")


def test_permute_does_not_overwrite_files_it_would_write(tmp_path, capsys):
    sudoku = str(ROOT / "instances/sudoku/seed/matlab_cleve.txt")
    out = tmp_path / "copies"
    assert main(["permute", sudoku, "--count", "3", "--seed", "1", "-o", str(out)]) == 0
    first = sorted(out.glob("*~p1.txt"))[0]
    first.write_text("my own edit\n")
    capsys.readouterr()
    assert main(["permute", sudoku, "--count", "3", "--seed", "2", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "exists: permute does not overwrite" in err and str(out) in err and len(err.strip().splitlines()) == 1
    assert first.read_text() == "my own edit\n"
    assert main(["permute", sudoku, "--count", "3", "--seed", "2", "-o", str(tmp_path / "other")]) == 0
    (tmp_path / "a-file").write_text("x")
    assert main(["permute", sudoku, "--count", "1", "-o", str(tmp_path / "a-file")]) == 2


def test_a_chunk_that_cannot_be_written_is_named_and_leaves_nothing(tmp_path, monkeypatch):
    from puzzlebench.run import batch
    path = tmp_path / "chunks" / "job.jsonl"
    monkeypatch.setattr(batch.Path, "open", lambda self, mode="r", **k: FullDisk(self, 10))
    with pytest.raises(PuzzleError) as caught:
        batch.write_rows_atomically(iter([{"a": 1}, {"b": 2}]), path)
    assert str(caught.value) == f"{path}: cannot write it: No space left on device"
    assert list(path.parent.iterdir()) == []


def test_an_os_error_without_a_file_name_prints_no_empty_name(monkeypatch, capsys):
    from puzzlebench.commands import compare
    monkeypatch.setattr(compare, "run", lambda args: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left")))
    assert main(["compare", "a", "b"]) == 2
    assert capsys.readouterr().err == "puzzlebench: error: No space left\n"


class FakePoint:
    """An installed entry point (name, value, load) as importlib.metadata gives it."""

    def __init__(self, name, load):
        self.name, self.value, self.load = name, f"scratch_plugin:{name}", load


def _exits():
    raise SystemExit(0)


@pytest.mark.parametrize("group", ["kinds", "formulations", "solvers"])
def test_a_plugin_that_exits_on_import_is_one_line_naming_it(monkeypatch, group):
    import puzzlebench.kinds as kinds
    from puzzlebench import registry
    if group == "kinds":
        monkeypatch.setattr(kinds, "entry_points", lambda group: [FakePoint("quitter", _exits)])
        monkeypatch.setattr(kinds, "_loaded", [False])
        load = kinds._load
    else:
        monkeypatch.setattr(registry, "entry_points", lambda group: [FakePoint("quitter", _exits)])
        monkeypatch.setitem(registry._loaded, group, False)
        load = lambda: registry._load(group)     # noqa: E731
    with pytest.raises(PuzzleError, match=r"entry point 'quitter' \(scratch_plugin:quitter\) .* failed to load: "
                                          r"SystemExit: 0"):
        load()


def test_a_plugin_kind_shadowing_a_built_in_is_named(monkeypatch):
    import puzzlebench.kinds as kinds
    from kind_variants import variant
    shadow = variant(kinds.get_kind("sudoku"))
    monkeypatch.setattr(kinds, "entry_points", lambda group: [FakePoint("my-sudoku", lambda: shadow)])
    monkeypatch.setattr(kinds, "_loaded", [False])
    with pytest.raises(PuzzleError, match=r"entry point 'my-sudoku' \(scratch_plugin:my-sudoku\) of group "
                                          r"puzzlebench.kinds: puzzle kind 'sudoku' is registered twice"):
        kinds._load()


@pytest.mark.parametrize("changes, problem", [
    ({"name": ""}, "puzzle kind name '': must be a word a file header can start with"),
    ({"name": "two words"}, "puzzle kind name 'two words': must be a word"),
    ({"name": "9x9"}, "puzzle kind name '9x9': must be a word"),
    ({"check": None}, "puzzle kind 'sudoku': gives no check (every kind does)"),
    ({"draw": None, "describe": "text"}, "puzzle kind 'sudoku': gives no describe, draw (every kind does)"),
    ({"procedure": None}, "puzzle kind 'sudoku': its generator gives no procedure (a generator gives spec_type, "
                          "generate, specs, command, procedure, solution_columns)"),
    ({"certifying_formulation": None}, "puzzle kind 'sudoku': its generator needs a certifying_formulation"),
    ({"type": "Sudoku"}, "puzzle kind 'sudoku': type must be a class"),
])
def test_a_kind_missing_what_every_kind_gives_is_refused_when_registered(changes, problem):
    import puzzlebench.kinds as kinds
    from kind_variants import variant
    broken = variant(kinds.get_kind("sudoku"), **changes)
    with pytest.raises(PuzzleError) as caught:
        kinds.register_kind(broken)
    assert problem in str(caught.value)


def test_solve_refuses_a_fifo_a_device_and_an_endless_file_at_once(tmp_path):
    """A FIFO with no writer hung solve; /dev/zero was read until memory ran out: each is one line, exit 2."""
    import os
    import subprocess
    import sys
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as fh:                  # sparse: no disk is used
        fh.truncate(200 * 2**20)
    for path, problem in ((fifo, "not a regular file (a FIFO)"), ("/dev/zero", "not a regular file (a device"),
                          (tmp_path, "not a regular file (a folder)"), (huge, "larger than 128 MiB: not read")):
        done = subprocess.run([sys.executable, "-m", "puzzlebench", "solve", str(path), "--solver", "highs"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and problem in done.stderr and str(path) in done.stderr, (path, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_link_out_of_a_set_folder_is_refused_without_reading_it(tmp_path, monkeypatch):
    from puzzlebench.io.sets import get_set
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET first line\n")
    folder = tmp_path / "instances/sudoku/linked"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "instances/sudoku/seed/matlab_cleve.txt", folder / "a.txt")
    (folder / "b.txt").symlink_to(secret)
    monkeypatch.setenv("PUZZLEBENCH_INSTANCES", str(tmp_path / "instances"))
    with pytest.raises(PuzzleError) as caught:
        get_set("sudoku/linked").entries()
    assert str(caught.value).startswith(f"{folder / 'b.txt'}: a link that leads outside the set folder")
    assert "TOP-SECRET" not in str(caught.value)
    (folder / "b.txt").unlink()
    (folder / "a.solution.txt").symlink_to(secret)       # a companion solution file: the same rule
    with pytest.raises(PuzzleError, match="a link that leads outside the set folder"):
        get_set("sudoku/linked").entries()


def test_a_long_file_name_leaves_its_set_readable(tmp_path, monkeypatch):
    """A 251-character name: its companion name (<stem>.solution.txt) is too long to exist."""
    from puzzlebench.io.sets import get_set
    folder = tmp_path / "instances/sudoku/long"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "instances/sudoku/seed/matlab_cleve.txt", folder / ("x" * 247 + ".txt"))
    shutil.copy(ROOT / "instances/sudoku/seed/fjmc_blog2025.txt", folder / "short.txt")
    monkeypatch.setenv("PUZZLEBENCH_INSTANCES", str(tmp_path / "instances"))
    assert len(get_set("sudoku/long").entries()) == 2


def test_an_analysis_killed_midway_is_marked_and_compare_refuses_its_folder(tmp_path, monkeypatch, capsys):
    """analyze writes analysis.json last (its id, which findings.json carries) and removes it first: a
    folder whose analysis died after findings.json was written is not read as a finished run."""
    import json

    import pyarrow.parquet as pq
    from test_claims import runs_of

    from puzzlebench.analysis import pipeline, run_analysis
    from puzzlebench.store.results import table_from_rows
    rows = runs_of({"binary": 3.0, "reduced": 1.0}) + runs_of({"binary": 1.0, "reduced": 0.3}, solver="cpsat",
                                                              solver_kind="cp", seed=5)
    pq.write_table(table_from_rows(rows), tmp_path / "runs.parquet")
    out = tmp_path / "results"
    written = run_analysis(tmp_path / "runs.parquet", out)
    marker = json.loads((out / "analysis.json").read_text())
    assert marker["analysis"] == json.loads((out / "findings.json").read_text())["analysis"]
    assert {"findings.json", "summary.md", "index.html"} <= set(marker["files"]) and written[-1] == out / "analysis.json"
    analysis = marker["analysis"]   # every output names the analysis it belongs to
    assert f"Analysis `{analysis}`" in (out / "summary.md").read_text()
    assert f"<meta name='puzzlebench-analysis' content='{analysis}'>" in (out / "index.html").read_text()
    assert (out / "paper/findings.tex").read_text().startswith(f"% puzzlebench analysis {analysis}\n")
    info = subprocess.run(["pdfinfo", str(out / "paper/paper.pdf")], capture_output=True, text=True, check=True)
    assert f"Subject:         puzzlebench analysis {analysis}" in info.stdout
    assert main(["compare", str(out), str(out)]) == 0
    capsys.readouterr()

    def dies(*args, **kwargs):
        raise KeyboardInterrupt   # killed while writing the page, after findings.json
    monkeypatch.setattr(pipeline, "write_page", dies)
    with pytest.raises(KeyboardInterrupt):
        run_analysis(tmp_path / "runs.parquet", out)
    assert not (out / "analysis.json").exists()
    assert main(["compare", str(out), str(out)]) == 2
    err = capsys.readouterr().err
    assert "findings.json: of an analysis that did not finish" in err and len(err.strip().splitlines()) == 1
    # nothing of the run is left half-written: no temporary file anywhere in the folder
    assert not [p for p in out.rglob(".*.tmp-*")]
