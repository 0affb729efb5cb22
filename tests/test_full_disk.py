"""Files written whole or not at all on a real full (or read-only) file system (issue 34): a small
tmpfs is mounted for each test, filled, and the commands that replace or create files are run on it.

Mounting needs root, which CI has (it runs as root); elsewhere these tests are skipped, and under CI
they fail instead, so that they never pass by not running.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from puzzlebench.cli import main

ROOT = Path(__file__).resolve().parents[1]
PUZZLE = ROOT / "instances/sudoku/seed/matlab_cleve.txt"


def _mount(folder: Path, size: str) -> None:
    folder.mkdir(parents=True)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)],
                            capture_output=True, text=True)
    if result.returncode:
        message = f"cannot mount a tmpfs (root needed): {result.stderr.strip()}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def disk(tmp_path):
    """A 16 MiB tmpfs at ``tmp_path/disk``, unmounted after the test."""
    folder = tmp_path / "disk"
    _mount(folder, "16m")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(disk: Path) -> None:
    """Fill ``disk`` to the last byte (filler files grown until the file system says it is full)."""
    for name, block in (("filler", 4096), ("filler-tail", 1)):
        with open(disk / name, "wb", buffering=0) as fh:
            try:
                while True:
                    fh.write(b"\0" * block)
            except OSError as err:
                assert err.errno == errno.ENOSPC


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*"))


def whole(path: Path, data: bytes) -> bool:
    """Does ``data`` read as a whole file of its type (rewritten files differ in their time stamps)?"""
    if path.suffix == ".pdf":
        return data.rstrip().endswith(b"%%EOF")
    if path.suffix == ".html":
        return data.rstrip().endswith(b"</html>")
    if path.suffix == ".json":
        import json
        return json.loads(data) is not None
    if path.suffix == ".png":
        return data.endswith(b"IEND\xaeB`\x82")
    return data.endswith(b"\n") or path.suffix in (".aux", ".log")


def one_puzzle_set(disk: Path, monkeypatch) -> Path:
    folder = disk / "instances/sudoku/seed"
    folder.mkdir(parents=True)
    shutil.copy(PUZZLE, folder / PUZZLE.name)
    monkeypatch.setenv("PUZZLEBENCH_INSTANCES", str(disk / "instances"))
    return folder


def test_calibrate_on_a_full_disk_keeps_the_old_file_whole_and_names_it(disk, monkeypatch, capsys):
    folder = one_puzzle_set(disk, monkeypatch)
    old = "# an earlier calibration\n" + "name,size,seconds\n" + "x,9x9,0.5\n" * 2000
    (folder / "calibration.csv").write_text(old)
    fill(disk)
    assert main(["calibrate", "sudoku/seed", "--time-limit", "20"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith(f"{folder / 'calibration.csv'}: cannot write it: No space left on device"), err
    assert (folder / "calibration.csv").read_text() == old and hidden(disk) == []


def test_calibrate_into_a_read_only_folder_is_refused_before_any_solve(disk, monkeypatch, capsys):
    folder = one_puzzle_set(disk, monkeypatch)
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    solved = []
    from puzzlebench.run import runner
    monkeypatch.setattr(runner, "run_sequence", lambda *a, **k: solved.append(1) or iter(()))
    assert main(["calibrate", "sudoku/seed", "--time-limit", "20"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith(f"{folder / 'calibration.csv'}: cannot write it: Read-only file system"), err
    assert solved == [] and not (folder / "calibration.csv").exists()


def test_export_on_a_full_disk_keeps_the_file_it_would_replace(disk, capsys):
    target = disk / "model.mps"
    target.write_text("old model\n")
    fill(disk)
    assert main(["export", str(PUZZLE), "--formulation", "binary", "--output", str(target)]) == 2
    assert capsys.readouterr().err.strip().endswith(f"{target}: cannot write it: No space left on device")
    assert target.read_text() == "old model\n" and hidden(disk) == []


def test_draw_on_a_full_disk_keeps_the_file_it_would_replace(disk, capsys):
    target = disk / "puzzle.png"
    target.write_bytes(b"an earlier drawing")
    fill(disk)
    assert main(["draw", str(PUZZLE), "--output", str(target)]) == 2
    assert capsys.readouterr().err.strip().endswith(f"{target}: cannot write it: No space left on device")
    assert target.read_bytes() == b"an earlier drawing" and hidden(disk) == []


def test_import_on_a_full_disk_leaves_no_half_set(disk, capsys):
    out = disk / "sudoku" / "new"
    (disk / "sudoku").mkdir()
    fill(disk)
    assert main(["import", str(PUZZLE), "--output", str(out), "--puzzle", "sudoku", "--source", "test", "--licence", "CC0"]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert not out.exists() and hidden(disk) == []


@pytest.mark.parametrize("filled_before", [None, "compile_pdf", "write_page"])
def test_an_analysis_on_a_full_disk_leaves_every_old_output_whole(disk, tmp_path, monkeypatch, filled_before):
    """analyze into a folder whose earlier outputs are there when the disk fills (at once, or just before
    the PDF is compiled or the page written): it fails, every earlier output is whole (byte for byte),
    the folder is marked unfinished (no analysis.json) and no temporary is left."""
    import json

    import pyarrow.parquet as pq
    from test_claims import runs_of

    from puzzlebench.analysis import paper, pipeline, run_analysis
    from puzzlebench.errors import PuzzleError
    from puzzlebench.store.results import table_from_rows
    rows = runs_of({"binary": 3.0, "reduced": 1.0}) + runs_of({"binary": 1.0, "reduced": 0.3}, solver="cpsat",
                                                              solver_kind="cp", seed=5)
    pq.write_table(table_from_rows(rows), tmp_path / "runs.parquet")
    out = disk / "results"
    run_analysis(tmp_path / "runs.parquet", out)
    marker = json.loads((out / "analysis.json").read_text())
    target = out / ("paper/paper.pdf" if filled_before == "compile_pdf" else "index.html")
    # smaller than the new one: a file rewritten in place would free its blocks and fit the new one
    target.write_bytes(b"%PDF-1.4\n%%EOF\n" if target.suffix == ".pdf" else b"<html>earlier</html>\n")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != "analysis.json"}
    if filled_before is None:
        fill(disk)
    else:
        module = paper if filled_before == "compile_pdf" else pipeline
        original = getattr(module, filled_before)
        monkeypatch.setattr(module, filled_before, lambda *a, **k: (fill(disk), original(*a, **k))[1])
    with pytest.raises((PuzzleError, RuntimeError)):
        run_analysis(tmp_path / "runs.parquet", out)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert set(before) <= set(after) and marker["analysis"] and not (out / "analysis.json").exists()
    assert [str(p.relative_to(out)) for p, data in after.items() if not whole(p, data)] == []
    assert after[target] == before[target]   # the old one, byte for byte
    assert [p for p in hidden(disk) if not p.endswith(".building.log")] == []
