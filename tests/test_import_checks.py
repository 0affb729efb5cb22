"""``import`` checks everything before it writes (issue 21, items 1 and 7; issue 22): bad options and
bad puzzles are refused with one line and exit 2, and then nothing is written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.io.sets import load_set

ROOT = Path(__file__).parent.parent
SUDOKU_4 = "sudoku 4 2x2\n1 . . .\n. . 3 .\n. 4 . .\n. . . 2\n"
SOLUTION_4 = "1 2 3 4\n1 2 3 4\n1 2 3 4\n1 2 3 4\n"  # keeps the given 1, breaks the columns
TAKUZU_6 = "-1--0-----0-1---1-0-00------1-0---1-"
TAKUZU_6_SOLUTION = "010101101010010011101100001011110100"


def cli(*args, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "puzzlebench", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=timeout)


def refused(result: subprocess.CompletedProcess, *fragments: str) -> bool:
    lines = result.stderr.strip().splitlines()
    return result.returncode == 2 and len(lines) == 1 and "Traceback" not in result.stderr \
        and all(f in lines[0] for f in fragments)


def _import(tmp_path: Path, source: Path, *options: str, timeout: float = 120):
    out = tmp_path / "instances" / "sudoku" / "new"
    return cli("import", source, "-o", out, "--source", "s", "--licence", "l", *options, timeout=timeout), out


# ---------------------------------------------------------------- issue 21, item 1

@pytest.mark.parametrize("value", ["nan", "inf", "1e7"])
def test_import_unique_time_limit_is_checked_at_the_door(tmp_path, value):
    # was: nan spun at 100% CPU until killed; inf and 1e7 an OverflowError traceback after the set was written
    source = tmp_path / "p.txt"
    source.write_text(SUDOKU_4)
    result, out = _import(tmp_path, source, "--unique", "--time-limit", value, timeout=60)
    assert refused(result, "--time-limit", value), result.stderr
    assert not out.exists()


# ---------------------------------------------------------------- issue 21, item 7

@pytest.mark.parametrize("box", ["1x4", "0x0"])
def test_import_box_is_checked_against_the_box_the_file_states(tmp_path, box):
    # was: written into set.yaml unchecked, while the native header says 2x2
    source = tmp_path / "p.txt"
    source.write_text(SUDOKU_4)
    result, out = _import(tmp_path, source, "--box", box)
    assert refused(result, box), result.stderr
    assert not out.exists()


def test_import_refuses_a_takuzu_solution_of_the_wrong_length(tmp_path):
    # was: imported with the solution silently dropped ("0 reference solution(s)")
    source = tmp_path / "b.txt"
    source.write_text(f"{TAKUZU_6} {TAKUZU_6_SOLUTION[:-2]}\n")
    result, out = _import(tmp_path, source, "--puzzle", "takuzu")
    assert refused(result, "b.txt:1:", "the solution word has 34 characters, the puzzle 36"), result.stderr
    assert not out.exists()


def test_import_refuses_a_takuzu_its_own_validate_would_refuse(tmp_path):
    # was: a 102x102 line got through import and left a set that validate refuses
    source = tmp_path / "big.txt"
    source.write_text("-" * (102 * 102) + "\n")
    result, out = _import(tmp_path, source, "--puzzle", "takuzu")
    assert refused(result, "big.txt:1:", "102x102"), result.stderr
    assert not out.exists()


def test_import_refuses_a_wrong_reference_solution_before_writing(tmp_path):
    # was: found only by the validate that ran after the set was written (the set stayed on disk)
    source = tmp_path / "p.txt"
    source.write_text(SUDOKU_4)
    (tmp_path / "p.solution.txt").write_text(SOLUTION_4)
    result, out = _import(tmp_path, source)
    assert refused(result, "p.txt:1:", "the reference solution is wrong"), result.stderr
    assert not out.exists()


# ---------------------------------------------------------------- keeping what can be kept (issue 22)

def test_skip_invalid_imports_the_rest_and_lists_each_refused_puzzle(tmp_path):
    good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    source = tmp_path / "many.txt"
    source.write_text(f"{good}\n{'1' * 81}\n{good[:-1]}x\n")
    strict, out = _import(tmp_path, source)
    assert refused(strict, "many.txt:2:", "(and 1 more refused; --skip-invalid imports the rest)"), strict.stderr
    assert not out.exists()
    kept, out = _import(tmp_path, source, "--skip-invalid")
    assert kept.returncode == 0, kept.stderr
    skipped = kept.stderr.strip().splitlines()
    assert len(skipped) == 2 and skipped[0].startswith("skipped: ") and "many.txt:2: givens conflict" in skipped[0]
    assert "many.txt:3:" in skipped[1] and "'x'" in skipped[1]
    assert load_set("sudoku/new", out).count() == 1
    assert "many.txt:2: givens conflict" in (out / "SOURCE.md").read_text()


def test_unique_keeps_the_solution_it_found_as_the_reference(tmp_path):
    source = tmp_path / "p.txt"
    source.write_text(SUDOKU_4)
    result, out = _import(tmp_path, source, "--unique")
    assert result.returncode == 0, result.stderr
    assert "1/1 reference solutions valid, 1/1 unique" in result.stdout
    (entry,) = load_set("sudoku/new", out).entries()
    assert entry.solution is not None and entry.solution[0, 0] == 1


def test_unique_refuses_a_puzzle_with_two_solutions(tmp_path):
    source = tmp_path / "p.txt"
    source.write_text("sudoku 4 2x2\n1 . . .\n. . . .\n. . . .\n. . . .\n")
    result, out = _import(tmp_path, source, "--unique")
    assert refused(result, "p.txt:1:", "has more than one solution"), result.stderr
    assert not out.exists()


def test_a_companion_file_keeps_every_listed_solution(tmp_path):
    source = tmp_path / "p.txt"
    source.write_text("sudoku 4 2x2\n1 . . .\n. . . .\n. . . .\n. . . .\n")
    grids = ["1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n", "1 2 3 4\n3 4 1 2\n2 3 4 1\n4 1 2 3\n"]
    (tmp_path / "p.solution.txt").write_text("\n".join(grids))
    result, out = _import(tmp_path, source)
    assert result.returncode == 0, result.stderr
    assert "2 reference solution(s)" in result.stdout
    assert "sudoku/new/p.txt#1: 2 listed solutions: not unique" in result.stdout
    (entry,) = load_set("sudoku/new", out).entries()
    assert len(entry.solutions) == 2
    validated = cli("validate", "sudoku/new", "--root", tmp_path / "instances", "--unique")
    assert validated.returncode == 1 and "2 listed solutions: not unique" in validated.stdout


def test_reference_match_means_matches_one_of_them():
    from puzzlebench.run.batch import _matches
    first, second = np.array([[1, 2], [2, 1]]), np.array([[2, 1], [1, 2]])
    assert _matches((first, second), [[2, 1], [1, 2]]) is True
    assert _matches((first,), [[2, 1], [1, 2]]) is False
    assert _matches((), [[2, 1], [1, 2]]) is None and _matches((first,), None) is None


@pytest.mark.parametrize("instance_set, options", [
    ("killer/generated", ()), ("kakuro/janko", ()), ("takuzu/distinct", ("--distinct",)), ("takuzu/seed", ()),
    ("sudoku/seed", ()), ("kenken/generated", ()),
])
def test_unique_certifies_with_the_formulation_the_kind_names(tmp_path, monkeypatch, instance_set, options):
    # issue 24: the default formulation of --unique was picked by the name "takuzu" (binary for every other kind)
    from puzzlebench.cli import main
    from puzzlebench.io.sets import get_set
    from puzzlebench.run.validation import Uniqueness
    from puzzlebench.kinds import get_kind
    kind = instance_set.split("/")[0]
    used = []
    real = Uniqueness.__init__

    def record(self, formulation, solver, time_limit):
        used.append(formulation)
        real(self, formulation, solver, time_limit)

    monkeypatch.setattr(Uniqueness, "__init__", record)
    out = tmp_path / "instances" / kind / "new"
    code = main(["import", str(get_set(instance_set).files[0]), "-o", str(out), "--source", "s", "--licence", "l",
                 "--unique", *options])
    assert code == 0
    assert used == [get_kind(kind).certifying_formulation]
