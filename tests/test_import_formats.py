"""The layouts public collections come in (issue 14): MiniZinc data, the Kakuro comma layout,
Binairo lines, Killer rows; detection that names its candidates; ``import`` and ``export --to``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.checker import check
from puzzlebench.errors import PuzzleError
from puzzlebench.io import (
    detect_format,
    format_puzzle,
    format_solution,
    read_puzzle,
    read_puzzles,
    read_solution,
)
from puzzlebench.kinds import kind_key
from puzzlebench.io.sets import load_set
from puzzlebench.puzzles import Kakuro, KillerSudoku, Sudoku, Takuzu
from puzzlebench.run.runner import run
from puzzlebench.solvers.contract import SolveOptions

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data"
RENAMED = {"dzn": {"puzzle": "start", "n": "size"}}
EXAMPLES = [  # file, format, puzzle, puzzles in it, layout
    ("dzn/sudoku_4x4.dzn", "dzn", Sudoku, 1, None),
    ("dzn/sudoku_6x6_array2d.dzn", "dzn", Sudoku, 1, None),
    ("dzn/sudoku_4x4_renamed.dzn", "dzn", Sudoku, 1, RENAMED),
    ("dzn/killer_4x4_cages.dzn", "dzn", KillerSudoku, 1, None),
    ("dzn/killer_4x4_grid.dzn", "dzn", KillerSudoku, 1, None),
    ("dzn/kakuro_6x6.dzn", "dzn", Kakuro, 1, None),
    ("csv/kakuro_6x6.csv", "kakuro-csv", Kakuro, 1, None),
    ("csv/killers.csv", "killer-csv", KillerSudoku, 3, None),
    ("csv/killers_no_header.txt", "killer-csv", KillerSudoku, 2, None),
    ("binairo/binairo_6x6.txt", "lines", Takuzu, 3, None),
    ("binairo/binairo_4x6.txt", "lines", Takuzu, 1, None),
]


def write(tmp_path: Path, text: str, name: str = "p.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def cli(*args, cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "puzzlebench", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def _reference(path: Path, entry):
    companion = path.with_name(f"{path.stem}.solution{path.suffix}")
    if entry.solution is None and companion.is_file():
        return read_solution(companion, entry.puzzle)
    return entry.solution


@pytest.mark.parametrize("name, fmt, kind, count, layout", EXAMPLES)
def test_example_is_read_solved_verified_and_written_back(tmp_path, name, fmt, kind, count, layout):
    path = DATA / name
    assert detect_format(path) == fmt
    entries = read_puzzles(path, layout=layout)
    assert len(entries) == count and all(type(e.puzzle) is kind for e in entries)
    for entry in entries:
        record = run(entry.puzzle, "binary", "highs", SolveOptions(time_limit=30))
        assert record.status == "optimal" and record.verified, record.message
        reference = _reference(path, entry)
        if reference is not None:
            assert check(entry.puzzle, reference) == []
            assert (np.array(record.solution) == reference).all()  # the examples have one solution each
        back = read_puzzles(write(tmp_path, format_puzzle(entry.puzzle, fmt), "back" + path.suffix), format=fmt)
        assert kind_key(back[0].puzzle) == kind_key(entry.puzzle)
        if reference is not None and fmt != "dzn":
            solution = write(tmp_path, format_solution(entry.puzzle, reference, fmt), "sol" + path.suffix)
            assert (read_solution(solution, entry.puzzle) == reference).all()


# ---------------------------------------------------------------- the defects the issue reports

def test_dzn_starting_with_a_comment_is_read(tmp_path):
    # was: "cannot tell the file's format from '%'"
    path = write(tmp_path, "% a sudoku\nn = 2;\npuzzle = [| 1,_,_,_ | _,_,3,_ | _,4,_,_ | _,_,_,2 |];\n")
    assert detect_format(path) == "dzn"
    assert read_puzzle(path).puzzle.givens[1, 2] == 3


def test_kakuro_comma_layout_is_not_read_as_sudoku_lines():
    # was: detected as a 5x5 Sudoku in the lines format; --puzzle kakuro refused
    path = DATA / "csv/kakuro_6x6.csv"
    assert detect_format(path) == "kakuro-csv"
    assert isinstance(read_puzzle(path, puzzle="kakuro").puzzle, Kakuro)


def test_binairo_lines_with_solutions(tmp_path):
    # was: detected as a 6x6 Sudoku and refused with "givens conflict"; --puzzle takuzu refused
    path = DATA / "binairo/binairo_6x6.txt"
    entries = read_puzzles(path, puzzle="takuzu", format="lines")
    assert all(check(e.puzzle, e.solution) == [] for e in entries)
    assert [e.line for e in entries] == [2, 3, 4]
    assert read_puzzles(path, options={"distinct_lines": True})[0].puzzle.distinct_lines
    dots = write(tmp_path, "1" + "." * 35 + "\n")  # '.' blanks, 0 and 1 only: both readers
    with pytest.raises(PuzzleError, match=r"p.txt: every line reads both as a sudoku and as a takuzu"):
        read_puzzles(dots)
    assert isinstance(read_puzzle(dots, puzzle="takuzu").puzzle, Takuzu)


def test_killer_csv_rows_give_reference_solutions():
    entries = read_puzzles(DATA / "csv/killers.csv")
    assert [e.name for e in entries] == ["1", "2", "3"] and [e.puzzle.n for e in entries] == [4, 4, 9]
    assert entries[0].extra == {"fields": ["k4a"]}
    assert all(check(e.puzzle, e.solution) == [] for e in entries)
    assert sum(c.total for c in entries[2].puzzle.cages) == 405


def test_killer_csv_columns_by_option(tmp_path):
    path = write(tmp_path, "layout;answer;cage_total\nABCDABEEAFEEFFFG;2143342112344312;6 5 4 3 10 10 2\n", "k.csv")
    with pytest.raises(PuzzleError, match=r"k.csv:1: the header has no sums column .*--csv-columns sums=NAME"):
        read_puzzles(path)
    entry = read_puzzle(path, layout={"csv": {"sums": "cage_total"}})
    assert check(entry.puzzle, entry.solution) == []
    assert read_puzzle(path, layout={"csv": {"sums": 3, "solution": "answer"}}).solution is not None
    with pytest.raises(PuzzleError, match="unknown role 'colour'"):
        read_puzzles(path, layout={"csv": {"colour": 1}})
    bad = write(tmp_path, 'ABCDABEEAFEEFFFG,"6,5,4,3,10,10"\n', "b.csv")
    with pytest.raises(PuzzleError, match=r"b.csv:1: 7 cages .* but 6 sums"):
        read_puzzles(bad)


# ---------------------------------------------------------------- MiniZinc data that disagrees with itself

@pytest.mark.parametrize("text, message", [
    ("n = 3;\npuzzle = [| 1,_,_,_ | _,_,3,_ | _,4,_,_ | _,_,_,2 |];\n", r":1: n = 3 does not match the 4 x 4 grid"),
    ("n = 2;\npuzzle = [| 1,_,_ | _,_,3,_ |];\n", r":2: the rows of a \[\| ... \|\] array differ in length"),
    ("puzzle = array2d(1..4, 1..4, [1, 2, 3]);\n", r":1: array2d\(1..4, 1..4, ...\) needs 16 values, the list has 3"),
    ("n = 2\npuzzle = [| 1 |];\n", r":2: expected ';' after the value of n"),
    ("n = 2.5;\n", r":1: unexpected character '.'"),
    ("n = 2;\nn = 3;\n", r":2: n is assigned twice"),
    ("h = 3;\nw = 2;\ngrid_data = [| 0, 0 | 0, 1 |];\n", r":1: h = 3, but grid_data has 2 rows"),
    ("h = 2;\nw = 3;\ngrid_data = [| 0, 0, 0 | 0, 1, 1 |];\nh_clue = [| 2, 2, 1, 3 |];\nv_clue = [| 2, 2, 1, 1 | 2, 3, 1, 2 |];\n",
     r":4: h_clue row 1 \(2, 2, 1, 3\): the across run from \(2, 2\) is 2 cells long in grid_data, not 1"),
    ("h = 2;\nw = 3;\ngrid_data = [| 0, 0, 0 | 0, 1, 1 |];\nh_clues = 2;\nh_clue = [| 2, 2, 2, 3 |];\n",
     r":4: h_clues = 2, but h_clue has 1 rows"),
    ("n = 2;\ncages = [| 3, 1, 1, 1, 5 |];\n", r":2: cages row 1: cell \(1, 5\) is outside the 4 x 4 grid"),
    ("n = 2;\ncages = [| 10, 1, 1, 1, 2 | 10, 1, 3, 1, 4 |];\n", r":2: cage 1 has 2 cells and cannot sum to 10"),
    ("cage_grid = [| 1, 1 | 2, 3 |];\nsums = [3, 1];\n", r":1: cage_grid has the cage id 3"),
    ("grid_data = [| 1 |];\ncages = [| 1, 1, 1 |];\n", r": this data file could hold a kakuro or a killer: say which with --puzzle"),
])
def test_dzn_inconsistent_files_are_refused_with_the_line(tmp_path, text, message):
    path = write(tmp_path, text, "bad.dzn")
    with pytest.raises(PuzzleError, match=r"bad.dzn" + message) as err:
        read_puzzles(path)
    assert "\n" not in str(err.value)


def test_dzn_map(tmp_path):
    path = write(tmp_path, (DATA / "dzn/sudoku_4x4_renamed.dzn").read_text().replace("start", "grille"), "r.dzn")
    with pytest.raises(PuzzleError, match="--dzn-map"):
        read_puzzles(path)
    assert read_puzzle(path, layout={"dzn": {"puzzle": "grille"}}).puzzle.n == 4
    with pytest.raises(PuzzleError, match="the dzn map says puzzle=grid, but the file assigns no grid"):
        read_puzzles(path, layout={"dzn": {"puzzle": "grid"}})
    with pytest.raises(PuzzleError, match="unknown role 'board'"):
        read_puzzles(path, layout={"dzn": {"board": "start"}})
    same = read_puzzle(DATA / "dzn/sudoku_4x4.dzn").puzzle
    renamed = DATA / "dzn/sudoku_4x4_renamed.dzn"  # start and size: names MiniZinc's tutorial uses, read as such
    assert kind_key(read_puzzle(renamed, layout=RENAMED).puzzle) == kind_key(read_puzzle(renamed).puzzle) \
        == kind_key(same)


def test_dzn_writes_what_minizinc_models_read(tmp_path):
    sudoku = read_puzzle(DATA / "dzn/sudoku_6x6_array2d.dzn").puzzle
    text = format_puzzle(sudoku, "dzn")
    assert "n = 6;\nbox_rows = 2;\nbox_cols = 3;\npuzzle = [|" in text
    killer = read_puzzle(DATA / "dzn/killer_4x4_grid.dzn").puzzle
    assert "cages = [|" in format_puzzle(killer, "dzn")
    with pytest.raises(PuzzleError, match="hold no solutions"):
        format_solution(sudoku, np.ones((6, 6), int), "dzn")
    with pytest.raises(PuzzleError, match="holds only sudoku, killer and kakuro"):
        format_puzzle(read_puzzle(DATA / "binairo/binairo_4x6.txt").puzzle, "dzn")


def test_detection_reads_each_way_and_keeps_the_one_that_reads(tmp_path):
    # digit cage ids 1..4 also spell a 4x4 Sudoku word, but one whose givens conflict: only killer-csv reads it
    path = write(tmp_path, "1122112233443344 10,10,10,10\n")
    assert detect_format(path) == "killer-csv"
    assert len(read_puzzle(path).puzzle.cages) == 4


# ---------------------------------------------------------------- sets, import, export

def test_set_yaml_dzn_and_csv_sections(tmp_path):
    folder = tmp_path / "sudoku" / "renamed"
    folder.mkdir(parents=True)
    (folder / "a.dzn").write_text((DATA / "dzn/sudoku_4x4_renamed.dzn").read_text())
    (folder / "set.yaml").write_text("dzn: {puzzle: start, n: size}\n")
    assert load_set("sudoku/renamed", folder).count() == 1
    (folder / "set.yaml").write_text("source: x\ndzn: {grid: start}\n")
    with pytest.raises(PuzzleError, match=r"set.yaml:2: dzn: the dzn map names an unknown role 'grid'"):
        load_set("sudoku/renamed", folder)


def test_import_writes_a_validated_set(tmp_path):
    out = tmp_path / "instances" / "killer" / "mixed"
    result = cli("import", DATA / "dzn/killer_4x4_cages.dzn", DATA / "csv/killers.csv", "-o", out,
                 "--source", "hand-written examples", "--licence", "MIT", "--unique")
    assert result.returncode == 0, result.stderr
    # --unique keeps the solution it certified as the reference solution of the .dzn puzzle (issue 22)
    assert "killer/mixed: ok: 4 puzzle(s) in 4 file(s), 4/4 reference solutions valid, 4/4 unique" in result.stdout
    meta = load_set("killer/mixed", out).meta
    assert (meta["source"], meta["licence"], meta["count"]) == ("hand-written examples", "MIT", 4)
    assert (out / "killers-3.solution.txt").is_file() and "TODO" in (out / "SOURCE.md").read_text()
    again = cli("import", DATA / "csv/killers.csv", "-o", out, "--source", "x", "--licence", "y")
    assert again.returncode == 2 and "not an empty folder" in again.stderr


def test_import_keep_files_and_bad_sources(tmp_path):
    out = tmp_path / "takuzu" / "binairo"
    result = cli("import", DATA / "binairo", "-o", out, "--keep-files", "--source", "s", "--licence", "l")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["SOURCE.md", "binairo_4x6.txt", "binairo_6x6.txt", "set.yaml"]
    assert "4 puzzle(s) in 2 file(s), 4/4 reference solutions valid" in result.stdout
    bad = write(tmp_path, "n = 2;\npuzzle = [| 1, 1 | _, _ |];\n", "bad.dzn")
    failed = cli("import", bad, "-o", tmp_path / "sudoku" / "bad", "--source", "s", "--licence", "l")
    assert failed.returncode == 2 and "bad.dzn:2: " in failed.stderr and "Traceback" not in failed.stderr
    assert not (tmp_path / "sudoku" / "bad").exists()  # nothing written


def test_export_to_dzn(tmp_path):
    out = tmp_path / "k.dzn"
    result = cli("export", DATA / "csv/kakuro_6x6.csv", "-o", out)
    assert result.returncode == 0, result.stderr
    assert kind_key(read_puzzle(out).puzzle) == kind_key(read_puzzle(DATA / "dzn/kakuro_6x6.dzn").puzzle)
    lines = cli("export", DATA / "binairo/binairo_4x6.txt", "--to", "native", "-o", tmp_path / "t.txt")
    assert lines.returncode == 0 and (tmp_path / "t.txt").read_text().startswith("takuzu 4 6")
    refused = cli("export", DATA / "binairo/binairo_4x6.txt", "-o", tmp_path / "t.dzn")
    assert refused.returncode == 2 and "holds only sudoku, killer and kakuro" in refused.stderr


def test_check_reads_solutions_from_the_new_layouts():
    kakuro = cli("check", DATA / "csv/kakuro_6x6.csv", DATA / "csv/kakuro_6x6.solution.csv")
    assert kakuro.returncode == 0 and kakuro.stdout.strip() == "valid"
    killer = cli("check", DATA / "csv/killers.csv", DATA / "csv/killers.csv", "--index", "2")  # row 3's solution
    assert killer.returncode == 0 and killer.stdout.strip() == "valid"
    renamed = cli("check", DATA / "dzn/sudoku_4x4_renamed.dzn", DATA / "csv/kakuro_6x6.csv", "--dzn-map",
                  "n=size,puzzle=grille", "--puzzle", "sudoku")
    assert renamed.returncode == 2 and "the dzn map says puzzle=grille, but the file assigns no grille" \
        in renamed.stderr and "Traceback" not in renamed.stderr
