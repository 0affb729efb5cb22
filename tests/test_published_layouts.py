"""Puzzle files as public repositories publish them (issue 22): each layout read from a real file
(tests/data/wild, see its SOURCE.md), solved and verified; every misread the issue reports refused or
read right; one ``puzzlebench import`` command per file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from puzzlebench.checker import check
from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError
from puzzlebench.io import detect_format, format_puzzle, read_puzzle, read_puzzles, read_solutions
from puzzlebench.io.sets import load_set
from puzzlebench.kinds import kind_key
from puzzlebench.kinds.killer.killer_csv import LETTERS
from puzzlebench.puzzles import Kakuro, KillerSudoku, Sudoku, Takuzu, default_box_shape
from puzzlebench.run.runner import run
from puzzlebench.solvers.contract import SolveOptions
from puzzlebench.toolkit.symbols import describe, parse_symbols
from puzzlebench.toolkit.text import AmbiguousReading

WILD = Path(__file__).parent / "data" / "wild"
PUBLISHED = [  # file, detected format, puzzle type, puzzles, shape, reference solutions in the file
    ("sudoku-csv/sudoku_small.csv", "sudoku-csv", Sudoku, 4, (9, 9), 4),
    ("sudoku-csv/sudoku_semicolon_head5.csv", "sudoku-csv", Sudoku, 5, (9, 9), 5),
    ("bare-grid/xwingtest.sdk", "grid", Sudoku, 1, (9, 9), 0),
    ("bare-grid/hiddenpair1.sdk", "grid", Sudoku, 1, (9, 9), 0),
    ("bare-grid/converter_one.sdk", "grid", Sudoku, 1, (9, 9), 0),
    ("bare-grid/sdk_no_sep.sdk", "lines", Sudoku, 1, (9, 9), 0),
    ("bare-grid/converter_one_komo.sdk", "grid", Sudoku, 1, (9, 9), 1),
    ("bare-grid/sudoku.csv", "grid", Sudoku, 1, (9, 9), 0),
    ("bare-grid/problem.txt", "grid", Sudoku, 1, (9, 9), 0),
    ("bare-grid/su_example.txt", "grid", Sudoku, 1, (9, 9), 0),
    ("bare-grid/example.sudkb", "grid", Sudoku, 1, (16, 16), 0),
    ("titled/easy_head2.txt", "grid", Sudoku, 2, (9, 9), 2),
    ("dzn/sudoku_p48.dzn", "dzn", Sudoku, 1, (16, 16), 0),
    pytest.param("dzn/sudoku_p22.dzn", "dzn", Sudoku, 1, (25, 25), 0, marks=pytest.mark.slow),
    ("killer/y9zmzaan.json", "killer-json", KillerSudoku, 1, (9, 9), 0),
    ("killer/y9zmzaan.yaml", "sudoku-yaml", KillerSudoku, 1, (9, 9), 0),
    ("killer/1.txt", "killer-labels", KillerSudoku, 1, (9, 9), 0),
    ("killer/2.txt", "killer-labels", KillerSudoku, 1, (9, 9), 0),
    ("kakuro/kakuro_head.cpp", "gecode-kakuro", Kakuro, 2, (10, 12), 0),
    ("takuzu/16-22.txt", "janko", Takuzu, 1, (16, 22), 0),
    ("takuzu/6-6.txt", "janko", Takuzu, 1, (6, 6), 0),
    # held out: the same layouts from other repositories
    ("held-out/en_wikipedia", "killer-json", KillerSudoku, 1, (9, 9), 0),
    ("held-out/niallsudoku_5503", "killer-json", KillerSudoku, 1, (9, 9), 0),
    ("held-out/kakuro_6_6_easy.dzn", "dzn", Kakuro, 1, (6, 6), 0),
    ("held-out/kakuro_8_8_hard.dzn", "dzn", Kakuro, 1, (8, 8), 0),
    ("held-out/sudoku_p0.dzn", "dzn", Sudoku, 1, (9, 9), 0),
]
HARD_FOR_MIP = {"dzn/sudoku_p22.dzn"}  # Gecode's 25x25 problem 22: CP-SAT certifies it in seconds, MIP takes minutes


def write(tmp_path: Path, text: str, name: str = "p.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("name, fmt, kind, count, shape, solutions", PUBLISHED)
def test_published_file_is_read_solved_and_verified(name, fmt, kind, count, shape, solutions):
    path = WILD / name
    assert detect_format(path) == fmt
    entries = read_puzzles(path)
    assert len(entries) == count and all(type(e.puzzle) is kind and e.puzzle.shape == shape for e in entries)
    assert sum(len(e.solutions) for e in entries) == solutions
    solver = "cpsat" if name in HARD_FOR_MIP else "highs"
    for entry in entries:
        for solution in entry.solutions:
            assert check(entry.puzzle, solution) == [], entry.name
        record = run(entry.puzzle, "binary", solver, SolveOptions(time_limit=120))
        assert record.status == "optimal" and record.verified, (entry.name, record.message)
        if entry.solutions:
            assert any((np.array(record.solution) == s).all() for s in entry.solutions)


@pytest.mark.parametrize("name", [row.values[0] if hasattr(row, "values") else row[0] for row in PUBLISHED])
def test_published_file_imports_with_one_command(tmp_path, capsys, name):
    out = tmp_path / "instances" / "any" / "set"
    assert main(["import", str(WILD / name), "-o", str(out), "--source", "s", "--licence", "l"]) == 0
    assert ": ok: " in capsys.readouterr().out


def test_published_conventions_are_kept():
    komo = read_puzzle(WILD / "bare-grid/converter_one_komo.sdk")  # '!' marks a given; the full grid is the solution
    assert komo.puzzle.num_givens == 25 and (komo.solution[komo.puzzle.givens > 0] ==
                                             komo.puzzle.givens[komo.puzzle.givens > 0]).all()
    assert kind_key(read_puzzle(WILD / "bare-grid/converter_one.sdk").puzzle) == kind_key(komo.puzzle)
    hex_board = read_puzzle(WILD / "bare-grid/example.sudkb").puzzle  # 256 decimal numbers, 0 blank
    assert hex_board.num_givens == 256 - 20 and hex_board.givens.max() == 16
    titled = read_puzzles(WILD / "titled/easy_head2.txt")
    assert [e.extra["title"] for e in titled] == ["Puzzle N°  1", "Puzzle N°  2"] and [e.line for e in titled] == [7, 39]
    json, yaml = read_puzzle(WILD / "killer/y9zmzaan.json").puzzle, read_puzzle(WILD / "killer/y9zmzaan.yaml").puzzle
    assert kind_key(json) == kind_key(yaml)  # the same puzzle in two layouts
    implied = [c for c in json.cages if len(c.cells) == 1]  # the 9 uncaged cells, each fixed by its box
    assert len(json.cages) == 32 + 9 and [c.cells[0] for c in implied][:2] == [(1, 1), (1, 4)] and implied[0].total == 1
    k0 = read_puzzle(WILD / "kakuro/kakuro_head.cpp")  # "2, 0, 5,16": x, y of the clue cell, 0-based, down 5 cells
    assert k0.name == "k0" and k0.puzzle.down[0, 2] == 16 and k0.puzzle.white[1:6, 2].all()
    takuzu = read_puzzle(WILD / "takuzu/6-6.txt").puzzle  # "X..O..": O is 0, X is 1
    assert takuzu.givens[0].tolist() == [1, -1, -1, 0, -1, -1]


def test_dzn_file_that_disagrees_with_itself_is_refused():
    with pytest.raises(PuzzleError, match=r"sudoku_p5.dzn:9: array2d\(1..18, 1..18, ...\) needs 324 values, "
                                          r"the list has 81"):
        read_puzzles(WILD / "held-out/sudoku_p5.dzn")


# ---------------------------------------------------------------- the misreads of issue 22

def _solution(n: int) -> np.ndarray:
    br, bc = default_box_shape(n)
    r, c = np.arange(n)[:, None], np.arange(n)[None, :]
    return (bc * (r % br) + r // br + c) % n + 1


def _spell(grid: np.ndarray, symbols: str, blank: str = ".") -> str:
    return "".join(blank if v == 0 else symbols[v - 1] for v in grid.ravel().tolist())


def test_bare_16x16_takuzu_is_not_read_as_sixteen_4x4(tmp_path):
    # was: imported as sixteen 4x4 puzzles, and validate said "ok"
    rows = ["".join(str(r % 2) if c == r else "." for c in range(16)) for r in range(16)]
    path = write(tmp_path, "\n".join(rows) + "\n")
    for puzzle in ("takuzu", None):
        with pytest.raises(AmbiguousReading, match=r"p.txt: the file reads as .*(16 takuzu 4x4 \(lines format\).*"
                                                   r"1 takuzu 16x16 \(grid format\)|grid format.*lines format)"):
            read_puzzles(path, puzzle=puzzle)
    (whole,) = read_puzzles(path, puzzle="takuzu", layout={"size": "16"})
    assert whole.puzzle.shape == (16, 16)
    assert len(read_puzzles(path, puzzle="takuzu", format="lines")) == 16
    out = tmp_path / "instances" / "takuzu" / "t"
    assert main(["import", str(path), "-o", str(out), "--source", "s", "--licence", "l", "--puzzle", "takuzu"]) == 2
    assert not out.exists()


@pytest.mark.parametrize("layout", ["lines", "grid"])
def test_16x16_with_symbols_0_to_F_reads_0_as_a_digit(tmp_path, layout):
    # was: '0' read as a blank, so both puzzles had several solutions
    solution = _solution(16)
    givens = np.where((np.arange(256).reshape(16, 16) % 3) != 0, solution, 0)
    word = _spell(givens, "0123456789ABCDEF")
    text = word + "\n" if layout == "lines" else "".join(word[k:k + 16] + "\n" for k in range(0, 256, 16))
    path = write(tmp_path, text)
    assert "0" in word
    entry = read_puzzle(path)
    assert (entry.puzzle.givens == givens).all() and check(entry.puzzle, solution) == []
    # with no '0' and no 'G', 1-9A-G and 0-9A-F both fit: refused, naming both and --symbols
    ambiguous = _spell(np.where(solution == 1, 0, givens), "0123456789ABCDEF")
    path = write(tmp_path, ambiguous + "\n" if layout == "lines" else
                 "".join(ambiguous[k:k + 16] + "\n" for k in range(0, 256, 16)))
    with pytest.raises(AmbiguousReading, match=r"fit several alphabets \(1-9A-G, 0-9A-F\).*--symbols"):
        read_puzzles(path)
    assert (read_puzzle(path, layout={"symbols": "0-9A-F"}).puzzle.givens == np.where(solution == 1, 0, givens)).all()


def test_bare_16x16_sudoku_is_read_as_16x16(tmp_path):
    # was: taken for a 4x4 with a misleading message
    solution = _solution(16)
    word = _spell(np.where(np.arange(256).reshape(16, 16) % 2 == 0, solution, 0), "123456789ABCDEFG")
    path = write(tmp_path, "".join(word[k:k + 16] + "\n" for k in range(0, 256, 16)))
    assert detect_format(path) == "grid"
    assert read_puzzle(path).puzzle.shape == (16, 16)


def test_letters_a_to_p_and_the_symbols_syntax(tmp_path):
    solution = _solution(16)
    path = write(tmp_path, _spell(np.where(np.arange(256).reshape(16, 16) % 2 == 0, solution, 0),
                                  "ABCDEFGHIJKLMNOP") + "\n")
    assert read_puzzle(path).puzzle.givens.max() == 16
    assert describe(parse_symbols("1-9A-G").values) == "1-9A-G" and len(parse_symbols("A-P").values) == 16
    assert parse_symbols("1-16/.").values[-1] == "16" and parse_symbols("1-9/*").blanks == {"*"}
    with pytest.raises(PuzzleError, match="twice"):
        parse_symbols("1-9A-G1")


@pytest.mark.parametrize("header, row", [
    ("quizzes,solutions", "{p},{s}"),
    ("puzzle,solution", "{p},{s}"),
    ("Puzzle,solution", "{p},{s}"),
    ("id,puzzle,solution,clues,difficulty", "7,{p},{s},27,0.0"),
])
def test_sudoku_csv_with_a_header(tmp_path, header, row):
    # was: "cannot tell the file's format from 'quizzes,solutions'"
    solution = _solution(9)
    puzzle = np.where(np.arange(81).reshape(9, 9) % 3 == 0, solution, 0)
    path = write(tmp_path, header + "\n" + row.format(p=_spell(puzzle, "123456789", "0"),
                                                      s=_spell(solution, "123456789")) + "\n", "s.csv")
    assert detect_format(path) == "sudoku-csv"
    (entry,) = read_puzzles(path)
    assert (entry.solution == solution).all() and (entry.puzzle.givens == puzzle).all()
    assert entry.extra.get("fields", []) == (["7", "27", "0.0"] if header.startswith("id") else [])


def test_titled_grids_as_project_euler_publishes_them(tmp_path):
    # was: "cannot tell the file's format from 'Grid 01'"
    solution = _solution(9)
    grids = [np.where(np.arange(81).reshape(9, 9) % k == 0, solution, 0) for k in (2, 3)]
    text = "".join(f"Grid 0{k + 1}\n" + "".join(_spell(g, "123456789", "0")[r * 9:r * 9 + 9] + "\n" for r in range(9))
                   for k, g in enumerate(grids))
    path = write(tmp_path, text)
    entries = read_puzzles(path)
    assert [e.extra["title"] for e in entries] == ["Grid 01", "Grid 02"]
    assert all((e.puzzle.givens == g).all() for e, g in zip(entries, grids))


@pytest.mark.parametrize("text, expected", [
    ("x = array2d(1..n, 1..n, [\n% a comment inside\n" + ",".join(["_"] * 16) + "]);\nn = 4;\n", (4, 4)),
    ("S = 2;\nN = S * S;\nstart = array2d(1..N, 1..(N div 1), [" + ",".join(["0"] * 16) + "]);\n", (2, 2)),
])
def test_minizinc_expressions_and_names_defined_later(tmp_path, text, expected):
    # was: "expected a number or '_', got 'n'" for every file of hakank's collection
    p = read_puzzle(write(tmp_path, text, "s.dzn")).puzzle
    assert p.shape == (4, 4) and (p.box_rows, p.box_cols) == (2, 2)


@pytest.mark.parametrize("text, message", [
    ("x = array2d(1..sqrt(n), 1..4, []);\nn = 16;\n", r"s.dzn:1: cannot evaluate sqrt\(...\)"),
    ("x = array2d(1..m, 1..4, []);\n", r"s.dzn:1: cannot evaluate 'm': m is not assigned in the file"),
    ("n = k + 1;\nk = n;\n", r"s.dzn:1: cannot evaluate 'k \+ 1': .*depends on itself"),
    ("n = 9 / 3;\n", r"s.dzn:1: cannot evaluate '/': it is float division"),
])
def test_minizinc_expression_that_cannot_be_evaluated_is_named(tmp_path, text, message):
    with pytest.raises(PuzzleError, match=message):
        read_puzzles(write(tmp_path, text, "s.dzn"))


def test_minizinc_kakuro_of_the_clue_cell_convention(tmp_path):
    # was: "(2, 2) is not a white cell"; and the project's export would not run in that model
    path = WILD / "held-out/kakuro_6_6_easy.dzn"
    kakuro = read_puzzle(path).puzzle
    assert kakuro.across[1, 1] == 8 and kakuro.down[0, 2] == 34  # h_clue 2, 2, 3, 8 and v_clue 1, 3, 5, 34 (1-based)
    with pytest.raises(PuzzleError, match=r"kakuro_6_6_easy.dzn:\d+: h_clue row 1 .*first-cell convention"):
        read_puzzles(path, layout={"dzn": {"convention": "first-cell"}})
    for convention, count in (("clue-cell", "n_h = "), ("first-cell", "h_clues = ")):
        text = format_puzzle(kakuro, "dzn", {"dzn": {"convention": convention}})
        assert count in text
        back = write(tmp_path, text, f"{convention}.dzn")
        assert kind_key(read_puzzle(back).puzzle) == kind_key(kakuro)
    exported = tmp_path / "out.dzn"
    assert main(["export", str(path), "--to", "dzn", "--dzn-convention", "clue-cell", "-o", str(exported)]) == 0
    assert exported.read_text().count("n_v = ") == 1


def test_killer_layouts(tmp_path):
    # krazydad's CSV: the cage string is the marker K and 81 cage letters (was: "the cages field has 82 characters")
    row = read_puzzle(Path(__file__).parent / "data/csv/killers.csv", 2)
    cages = "".join(LETTERS[k] for k in _canonical(row.puzzle))
    sums = ",".join(str(t) for t in _sums_in_label_order(row.puzzle))
    solution = "".join(map(str, row.solution.ravel()))
    path = write(tmp_path, ",ptitle,vol,book,puzzle,puzz_color,puzz_hint,solved,sOrder\n"
                           f'0,KD_Killer_IM1-B1-P1,1,1,1,K{cages},"{sums}",{solution},"1,2"\n', "kd.csv")
    entry = read_puzzle(path)
    assert kind_key(entry.puzzle) == kind_key(row.puzzle) and (entry.solution == row.solution).all()
    # f-puzzles JSON with a rule that is not modelled is refused, not read without it
    fpuzzles = (WILD / "killer/y9zmzaan.json").read_text().replace('"killercage"', '"thermometer": [{"lines": []}], '
                                                                                   '"killercage"', 1)
    with pytest.raises(PuzzleError, match="'thermometer', a rule puzzlebench does not model"):
        read_puzzles(write(tmp_path, fpuzzles, "t.json"))


def _canonical(puzzle: KillerSudoku) -> list[int]:
    from puzzlebench.kinds.killer.cages import canonical_index
    return canonical_index(puzzle).ravel().tolist()


def _sums_in_label_order(puzzle: KillerSudoku) -> list[int]:
    index = np.array(_canonical(puzzle)).reshape(puzzle.shape)
    totals = {}
    for cage in puzzle.cages:
        totals[int(index[cage.cells[0]])] = cage.total
    return [totals[k] for k in sorted(totals)]


def test_takuzu_layouts(tmp_path):
    bare = write(tmp_path, "1.0...\n......\n..0...\n0.....\n......\n...1.1\n")  # no header: a 6x6 grid
    assert read_puzzle(bare, puzzle="takuzu").puzzle.shape == (6, 6)
    task = format_puzzle(read_puzzle(bare, puzzle="takuzu").puzzle, "binairo-task")  # puzzle-binairo.com's tasks
    assert task == "1a0k0c0n1a1\n"  # digits are cells, a letter a run of 1 (a) .. 26 (z) blanks
    path = write(tmp_path, task, "task.txt")
    assert detect_format(path) == "binairo-task"
    assert kind_key(read_puzzle(path).puzzle) == kind_key(read_puzzle(bare, puzzle="takuzu").puzzle)
    assert read_puzzle(write(tmp_path, "a1d11dx\n", "t2.txt")).puzzle.givens[1, :2].tolist() == [1, 1]


def test_check_index_reads_that_puzzles_solution(tmp_path, capsys):
    # was: the solution file was read as grids for every puzzle of the multi-puzzle file
    entries = read_puzzles(WILD / "titled/easy_head2.txt")
    second = write(tmp_path, "".join(" ".join(map(str, row)) + "\n" for row in entries[1].solution.tolist()), "s.txt")
    assert main(["check", str(WILD / "titled/easy_head2.txt"), str(second), "--index", "1"]) == 0
    assert capsys.readouterr().out.strip() == "valid"
    assert main(["check", str(WILD / "titled/easy_head2.txt"), str(second), "--index", "0"]) == 1
    both = main(["check", str(WILD / "titled/easy_head2.txt"), str(WILD / "titled/easy_head2.txt")])
    assert both == 0 and len(read_solutions(WILD / "titled/easy_head2.txt", entries[0].puzzle)) == 1


def test_import_keep_files_reads_back_through_the_set(tmp_path, capsys):
    out = tmp_path / "instances" / "sudoku" / "kept"
    assert main(["import", str(WILD / "titled/easy_head2.txt"), "-o", str(out), "--keep-files",
                 "--source", "s", "--licence", "l"]) == 0
    assert [len(e.solutions) for e in load_set("sudoku/kept", out).entries()] == [1, 1]


@pytest.mark.parametrize("text", ["{\n{\n \"a\": 1}\n}", "Board:\n  ? [1, 2]\n  : 3\nConstraints: []\n"])
def test_yaml_key_that_is_a_mapping_or_list_is_a_puzzle_error(tmp_path, text):
    """CI's hypothesis run found a mapping used as a key crashing the YAML reader (TypeError)."""
    path = tmp_path / "input.txt"
    path.write_text(text)
    with pytest.raises(PuzzleError, match="mapping key must be a plain name"):
        read_puzzles(path, format="sudoku-yaml")
