"""Reading and writing every file format, on real samples and crafted files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.checker import check
from puzzlebench.errors import PuzzleError
from puzzlebench.io import (
    FORMATS,
    detect_format,
    format_puzzle,
    format_solution,
    native,
    read_puzzle,
    read_puzzles,
    read_solution,
    read_solutions,
)
from puzzlebench.kinds import kind_key
from puzzlebench.puzzles import Cage, Kakuro, KillerSudoku, Sudoku, Takuzu, default_box_shape

DATA = Path(__file__).parent / "data"
LINES, JANKO, TATHAM = DATA / "lines", DATA / "janko", DATA / "tatham"


def write(tmp_path: Path, text: str, name: str = "p.txt", newline: str = "\n") -> Path:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode())
    return path


# ---------------------------------------------------------------- lines

@pytest.mark.parametrize("name, count, n, first_line", [
    ("top95_head5.txt", 5, 9, 1),
    ("easy50_head3_crlf.txt", 3, 9, 1),
    ("royle17_head3.txt", 3, 9, 5),
    ("exchange_by_rating_head3.txt", 3, 9, 1),
    ("exchange_with_solutions_head3.txt", 3, 9, 1),
    ("frisch25_head2.txt", 2, 25, 1),
])
def test_lines_samples(name, count, n, first_line):
    path = LINES / name
    assert detect_format(path) == "lines"
    entries = read_puzzles(path)
    assert len(entries) == count
    assert [e.name for e in entries] == [str(i) for i in range(1, count + 1)]
    assert entries[0].line == first_line
    assert all(isinstance(e.puzzle, Sudoku) and e.puzzle.n == n for e in entries)
    assert all(e.puzzle.name == e.name and e.source == str(path) for e in entries)


def test_lines_values_and_blanks():
    top = read_puzzle(LINES / "top95_head5.txt").puzzle
    assert top.givens[0].tolist() == [4, 0, 0, 0, 0, 0, 8, 0, 5]
    easy = read_puzzle(LINES / "easy50_head3_crlf.txt").puzzle  # `0` blanks, CRLF
    assert easy.givens[0].tolist() == [0, 0, 3, 0, 2, 0, 6, 0, 0]
    seventeen = read_puzzles(LINES / "royle17_head3.txt")
    assert [e.puzzle.num_givens for e in seventeen] == [17, 17, 17]
    frisch = read_puzzle(LINES / "frisch25_head2.txt").puzzle
    assert (frisch.box_rows, frisch.box_cols) == (5, 5)
    assert frisch.givens[0, 3] == 16  # 'G'
    assert frisch.givens.max() == 25


def test_lines_extra_fields_and_solutions():
    rated = read_puzzle(LINES / "exchange_by_rating_head3.txt")
    assert rated.extra == {"fields": ["000694f16758", "2.5"]} and rated.solution is None
    for entry in read_puzzles(LINES / "exchange_with_solutions_head3.txt"):
        assert entry.solution is not None and entry.solution.shape == (9, 9)
        assert check(entry.puzzle, entry.solution) == []
        assert entry.extra == {}


def test_lines_symbols_up_to_36(tmp_path):
    n, rows, cols = 36, np.arange(36)[:, None], np.arange(36)[None, :]
    solution = ((rows % 6) * 6 + rows // 6 + cols) % n + 1  # a valid grid with 6x6 boxes
    assert check(Sudoku(np.zeros((n, n), int)), solution) == []
    sudoku = Sudoku(np.where((rows * n + cols) % 7 == 0, solution, 0))
    text = format_puzzle(sudoku, "lines")
    assert len(text.strip()) == 1296 and "a" in text
    assert set(text.strip()) <= set(".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZa")
    back = read_puzzle(write(tmp_path, text)).puzzle
    assert kind_key(back) == kind_key(sudoku)
    sol_path = write(tmp_path, format_solution(sudoku, solution, "lines"), "sol.txt")
    assert (read_solution(sol_path, back) == solution).all()


def test_lines_box_option(tmp_path):
    path = write(tmp_path, "1.....\n")  # too short: not a grid
    with pytest.raises(PuzzleError, match=r"p.txt:1: expected a sudoku"):
        read_puzzles(path, format="lines")
    path = write(tmp_path, "123456" + "." * 30 + "\n")
    assert (read_puzzle(path).puzzle.box_rows, read_puzzle(path).puzzle.box_cols) == (2, 3)
    tall = read_puzzle(path, options={"box": "3x2"}).puzzle
    assert (tall.box_rows, tall.box_cols) == (3, 2)
    with pytest.raises(PuzzleError, match="cannot state the box shape 3x2"):
        format_puzzle(tall, "lines")


def test_lines_solution_file_picks_the_line_of_the_puzzle(tmp_path):
    entries = read_puzzles(LINES / "exchange_with_solutions_head3.txt")
    text = "# solutions\n" + "".join(format_solution(e.puzzle, e.solution, "lines") for e in entries)
    path = write(tmp_path, text, "sol.txt")
    for entry in entries:
        assert (read_solution(path, entry.puzzle) == entry.solution).all()
    stray = Sudoku(entries[0].puzzle.givens, name="x")
    with pytest.raises(PuzzleError, match="does not pick one"):
        read_solution(path, stray)


# ---------------------------------------------------------------- janko

@pytest.mark.parametrize("name, kind, count", [
    ("Sudoku_sample.json", Sudoku, 3),
    ("KillerSudoku_sample.json", KillerSudoku, 3),
    ("Kakuro_sample.json", Kakuro, 3),
    ("Binairo_sample.json", Takuzu, 3),
])
def test_janko_datasets(name, kind, count):
    path = JANKO / name
    assert detect_format(path) == "janko"
    entries = read_puzzles(path)
    records = json.loads(path.read_text())["data"]
    assert [e.name for e in entries] == list(records) and len(entries) == count
    for entry in entries:
        assert type(entry.puzzle) is kind and entry.line is None and entry.puzzle.name == entry.name
        assert entry.solution is not None
        assert check(entry.puzzle, entry.solution) == []
        # the same file serves as its own solution file, by record key
        assert (read_solution(path, entry.puzzle) == entry.solution).all()
        source = records[entry.name]["source"]
        assert entry.extra == ({"url": source} if source else {})
    assert any(e.extra for e in entries) or kind is Takuzu  # the Binairo records carry no URL


def test_janko_shapes_and_mappings():
    sudoku = {e.name: e.puzzle for e in read_puzzles(JANKO / "Sudoku_sample.json")}
    assert sudoku["1_9x9"].givens[0].tolist() == [2, 1, 0, 4, 0, 0, 0, 3, 6]
    assert all(p.n == 16 and (p.box_rows, p.box_cols) == (4, 4) for k, p in sudoku.items() if k != "1_9x9")
    killers = {e.puzzle.n: e.puzzle for e in read_puzzles(JANKO / "KillerSudoku_sample.json")}
    assert sorted(killers) == [4, 6, 9]
    assert [(p.box_rows, p.box_cols) for _, p in sorted(killers.items())] == [(2, 2), (2, 3), (3, 3)]
    four = killers[4]
    assert sorted((sorted(c.cells), c.total) for c in four.cages)[0] == ([(0, 0), (0, 1), (1, 0)], 9)
    assert sum(c.total for c in four.cages) == 4 * 10
    binairo = read_puzzles(JANKO / "Binairo_sample.json")
    assert sorted(e.puzzle.shape for e in binairo) == [(8, 8), (10, 10), (14, 14)]
    assert all(set(np.unique(e.puzzle.givens)) <= {-1, 0, 1} and not e.puzzle.distinct_lines for e in binairo)
    kakuro = read_puzzle(JANKO / "Kakuro_sample.json").puzzle
    assert kakuro.shape == (10, 12)
    assert (kakuro.down[0, 2], kakuro.across[1, 1], kakuro.down[1, 1]) == (16, 7, 23)


def test_janko_killer_x_needs_the_diagonal_option():
    plain = read_puzzle(JANKO / "KillerSudoku_x_sample.json")
    assert not plain.puzzle.diagonal
    x = read_puzzle(JANKO / "KillerSudoku_x_sample.json", options={"diagonal": True})
    assert x.puzzle.diagonal and check(x.puzzle, x.solution) == []
    assert len(x.puzzle.units()) == len(plain.puzzle.units()) + 2


@pytest.mark.parametrize("name, kind", [
    ("kakuro_1_10x12.txt", Kakuro), ("killer_1_4x4.txt", KillerSudoku), ("binairo_20x20_1.txt", Takuzu)])
def test_janko_plain_files(name, kind):
    path = JANKO / name
    assert detect_format(path) == "janko"
    entry = read_puzzle(path)
    assert type(entry.puzzle) is kind and entry.line == 1 and entry.name == "1"
    solution = read_solution(path.with_name(name.replace(".txt", ".solution.txt")), entry.puzzle)
    assert check(entry.puzzle, solution) == []


def test_janko_binairo_20x20_encoding():
    p = read_puzzle(JANKO / "binairo_20x20_1.txt").puzzle
    first = (JANKO / "binairo_20x20_1.txt").read_text().splitlines()[1]
    assert p.givens[0].tolist() == [{"0": -1, "1": 0, "2": 1}[ch] for ch in first]


def test_janko_puzzle_option_selects_type(tmp_path):
    # only 1, 2 and - : a Binairo and a Sudoku both; detection names both instead of guessing
    path = write(tmp_path, "4 4\n1 2 - -\n- - 1 2\n2 1 - -\n- - 2 1\n")
    with pytest.raises(PuzzleError, match=r"p.txt:1: .*reads both as a Binairo \(takuzu\) and as a sudoku"):
        read_puzzle(path)
    assert isinstance(read_puzzle(path, puzzle="takuzu").puzzle, Takuzu)
    assert isinstance(read_puzzle(path, puzzle="sudoku").puzzle, Sudoku)
    only_binairo = write(tmp_path, "4 4\n1 1 - -\n- - 1 2\n2 - - -\n- - 2 1\n", "b.txt")  # 1 twice in row 1
    assert isinstance(read_puzzle(only_binairo).puzzle, Takuzu)
    with pytest.raises(PuzzleError, match="not kakuro"):
        read_puzzles(JANKO / "Sudoku_sample.json", puzzle="kakuro")


# ---------------------------------------------------------------- tatham

def _ids(name: str) -> list[str]:
    return [line for line in (TATHAM / name).read_text().splitlines() if line and not line.startswith("#")]


def test_tatham_fixtures_decode_and_reencode_exactly():
    solutions = json.loads((TATHAM / "solutions.json").read_text())["solutions"]
    for name in ("solo.txt", "killer.txt", "unruly.txt"):
        path = TATHAM / name
        assert detect_format(path) == "tatham"
        entries = read_puzzles(path)
        assert len(entries) == len(_ids(name))
        for entry, game_id in zip(entries, _ids(name)):
            assert format_puzzle(entry.puzzle, "tatham").strip() == game_id
            assert check(entry.puzzle, np.array(solutions[name][entry.name])) == []


def test_tatham_parameters():
    solo = [e.puzzle for e in read_puzzles(TATHAM / "solo.txt")]
    assert [(p.n, p.box_rows, p.box_cols) for p in solo] == [(9, 3, 3), (9, 3, 3), (6, 2, 3), (6, 2, 3),
                                                             (12, 3, 4), (4, 2, 2)]
    killer = [e.puzzle for e in read_puzzles(TATHAM / "killer.txt")]
    assert all(isinstance(p, KillerSudoku) for p in killer)
    assert [p.diagonal for p in killer] == [False, False, False, True]
    assert killer[0].num_givens == 0 and sum(c.total for c in killer[0].cages) == 405
    unruly = [e.puzzle for e in read_puzzles(TATHAM / "unruly.txt")]
    assert [p.shape for p in unruly] == [(8, 8)] * 4 + [(8, 6), (10, 10)]
    assert [p.distinct_lines for p in unruly] == [False, False, True, True, False, True]
    assert read_puzzles(TATHAM / "unruly.txt", options={"distinct_lines": True})[0].puzzle.distinct_lines


def test_tatham_long_runs_and_big_numbers(tmp_path):
    empty = Sudoku(np.zeros((12, 12), int), 3, 4)
    text = format_puzzle(empty, "tatham")
    assert text == "3x4:" + "z" * 5 + "n\n"  # 144 blanks = 5 * 26 + 14
    assert kind_key(read_puzzle(write(tmp_path, text)).puzzle) == kind_key(empty)
    takuzu = Takuzu(np.full((10, 10), -1))
    text = format_puzzle(takuzu, "tatham")
    assert text == "10x10:zzzza\n"  # 4 x 25 blanks, then the end mark just past the grid
    assert kind_key(read_puzzle(write(tmp_path, text)).puzzle) == kind_key(takuzu)


# ---------------------------------------------------------------- native

def _docstring_examples() -> list[str]:
    blocks = re.findall(r"::\n\n((?:    .*\n|\n)+)", native.__doc__)
    return [re.sub(r"(?m)^    ", "", block).strip() + "\n" for block in blocks]


def test_native_docstring_examples_parse(tmp_path):
    examples = _docstring_examples()
    puzzles = [e for e in examples if e.split()[0] in ("sudoku", "killer", "kakuro", "takuzu")]
    assert [p.split()[0] for p in puzzles] == ["sudoku", "killer", "kakuro", "takuzu"]
    for text in puzzles:
        entry = read_puzzle(write(tmp_path, text))
        assert entry.puzzle.puzzle == text.split()[0]
    kakuro = read_puzzle(write(tmp_path, puzzles[2])).puzzle
    solution = read_solution(write(tmp_path, examples[-1], "sol.txt"), kakuro)
    assert check(kakuro, solution) == []
    killer = read_puzzle(write(tmp_path, puzzles[1])).puzzle
    assert check(killer, [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]) == []


def test_native_several_puzzles_comments_and_crlf(tmp_path):
    text = ("# two puzzles\n\nsudoku 4\n1 . . 4\n# a comment inside the grid\n. . 1 .\n\n.1..\n4..1\n"
            "takuzu 4 4 distinct\n0 . . .\n....\n. . 1 .\n. . . .\n")
    entries = read_puzzles(write(tmp_path, text, newline="\r\n"))
    assert [(e.name, e.line, e.puzzle.puzzle) for e in entries] == [("1", 3, "sudoku"), ("2", 10, "takuzu")]
    assert entries[0].puzzle.givens[2].tolist() == [0, 1, 0, 0]
    assert entries[1].puzzle.distinct_lines


def test_native_killer_labels_and_givens(tmp_path):
    text = ("killer 4 diagonal\nx1 x1 b c\nd e b c\nd e f f\ng g h h\n"
            "x1 3\nb 4\nc 6\nd 5\ne 5\nf 7\ng 7\nh 3\ngivens\n1 . . .\n. . . .\n. . . .\n4 . . .\n")
    p = read_puzzle(write(tmp_path, text)).puzzle
    assert p.diagonal and p.num_givens == 2 and len(p.cages) == 8
    assert p.cages[0] == Cage(((0, 0), (0, 1)), 3)
    # every rule holds but the diagonals: 1 4 4 1 and 4 1 1 4
    assert check(p, [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]) == [
        "main diagonal has 1 twice", "main diagonal has 4 twice",
        "anti-diagonal has 1 twice", "anti-diagonal has 4 twice"]
    out = format_puzzle(p)
    assert out.splitlines()[0] == "killer 4 2x2 diagonal" and "A 3" in out and "givens" in out


def test_native_marker_beats_option(tmp_path):
    path = write(tmp_path, "takuzu 2 2 distinct\n. .\n. .\n")
    assert read_puzzle(path, options={"distinct_lines": False}).puzzle.distinct_lines
    path = write(tmp_path, "takuzu 2 2\n. .\n. .\n")
    assert read_puzzle(path, options={"distinct_lines": True}).puzzle.distinct_lines
    path = write(tmp_path, "sudoku 6 3x2\n" + ". . . . . .\n" * 6)
    assert read_puzzle(path, options={"box": "2x3"}).puzzle.box_rows == 3


def test_options_are_validated(tmp_path):
    path = write(tmp_path, "sudoku 4\n" + ". . . .\n" * 4)
    with pytest.raises(PuzzleError, match="unknown option 'colour'"):
        read_puzzles(path, options={"colour": True})
    with pytest.raises(PuzzleError, match=r"p.txt:1: option diagonal=True does not apply to sudoku"):
        read_puzzles(path, options={"diagonal": True})
    with pytest.raises(PuzzleError, match="must be true or false"):
        read_puzzles(path, options={"distinct_lines": "yes"})
    with pytest.raises(PuzzleError, match="not of the form RxC"):
        read_puzzles(path, options={"box": "two by two"})
    with pytest.raises(PuzzleError, match="unknown puzzle 'nonogram'"):
        read_puzzles(path, puzzle="nonogram")
    with pytest.raises(PuzzleError, match="unknown format 'csv'"):
        read_puzzles(path, format="csv")


def test_read_puzzle_index(tmp_path):
    assert read_puzzle(LINES / "top95_head5.txt", 4).name == "5"
    with pytest.raises(PuzzleError, match=r"index 5 is out of range: the file holds 5 puzzles \(0..4\)"):
        read_puzzle(LINES / "top95_head5.txt", 5)


def test_native_solution_accepts_dots_for_kakuro_blocks(tmp_path):
    kakuro = read_puzzle(write(tmp_path, _docstring_examples()[2])).puzzle
    dots = write(tmp_path, ". . . . .\n. 9 1 4 .\n. 6 5 3 2\n. 8 3 2 1\n. . 7 1 .\n", "sol.txt")
    assert check(kakuro, read_solution(dots, kakuro)) == []
    compact = write(tmp_path, "#####\n#914#\n#6532\n#8321\n##71#\n", "sol2.txt")
    assert (read_solution(compact, kakuro) == read_solution(dots, kakuro)).all()


def test_detect_format(tmp_path):
    assert detect_format(write(tmp_path, "# c\n\nkakuro 2 2\n")) == "native"
    assert detect_format(write(tmp_path, "9 9\n")) == "janko"
    assert detect_format(write(tmp_path, "3x3:zzzc\n")) == "tatham"
    assert detect_format(write(tmp_path, "." * 81 + "\n")) == "lines"
    with pytest.raises(PuzzleError, match=r"p.txt:2: cannot tell the file's format"):
        detect_format(write(tmp_path, "#\nhello world\n"))
    with pytest.raises(PuzzleError, match=r"p.txt: the file holds no puzzle"):
        detect_format(write(tmp_path, "# only a comment\n\n"))


# ---------------------------------------------------------------- round trips

def _sample_entries():
    files = [LINES / "top95_head5.txt", LINES / "frisch25_head2.txt", LINES / "exchange_with_solutions_head3.txt",
             *sorted(JANKO.glob("*.json")), JANKO / "binairo_20x20_1.txt", *sorted(TATHAM.glob("*.txt"))]
    entries = [e for f in files for e in read_puzzles(f)]
    entries += read_puzzles(JANKO / "KillerSudoku_x_sample.json", options={"diagonal": True})
    entries += [e for e in read_puzzles(LINES / "top95_head5.txt", options={"box": "3x3"})][:1]
    return entries


SAMPLES = _sample_entries()
EXPRESSIBLE = {  # which formats can state which puzzles (anything else must be refused)
    "native": lambda p: True,
    "lines": lambda p: (type(p) is Sudoku and (p.box_rows, p.box_cols) == default_box_shape(p.n))
    or (isinstance(p, Takuzu) and not p.distinct_lines),
    "janko": lambda p: not getattr(p, "diagonal", False) and not getattr(p, "distinct_lines", False)
    and not getattr(p, "num_givens", 0) * isinstance(p, KillerSudoku)
    and (not isinstance(p, Sudoku) or (p.box_rows, p.box_cols) == default_box_shape(p.n)),
    "tatham": lambda p: not isinstance(p, Kakuro),
    "dzn": lambda p: not isinstance(p, Takuzu) and not getattr(p, "diagonal", False),
    "kakuro-csv": lambda p: isinstance(p, Kakuro),
    "killer-csv": lambda p: isinstance(p, KillerSudoku) and not p.diagonal and not p.num_givens
    and (p.box_rows, p.box_cols) == default_box_shape(p.n),
    "sudoku-csv": lambda p: type(p) is Sudoku and (p.box_rows, p.box_cols) == default_box_shape(p.n),
    "grid": lambda p: (type(p) is Sudoku and (p.box_rows, p.box_cols) == default_box_shape(p.n))
    or (isinstance(p, Takuzu) and not p.distinct_lines and p.shape[0] == p.shape[1]),
    "killer-json": lambda p: isinstance(p, Sudoku) and (p.box_rows, p.box_cols) == default_box_shape(p.n),
    "binairo-task": lambda p: isinstance(p, Takuzu) and not p.distinct_lines and p.shape[0] == p.shape[1],
    "killer-labels": lambda p: False,  # read, not written
    "sudoku-yaml": lambda p: False,
    "gecode-kakuro": lambda p: False,
    "keen": lambda p: False,  # KenKen's own formats (puzzlebench/kinds/kenken), read, not written
    "kenken-json": lambda p: False,
    "kenken-letters": lambda p: False,
}
READ_ONLY = ("killer-labels", "sudoku-yaml", "gecode-kakuro", "keen", "kenken-json", "kenken-letters")


@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_puzzles(fmt, tmp_path):
    written = 0
    for entry in SAMPLES:
        if not EXPRESSIBLE[fmt](entry.puzzle):
            with pytest.raises(PuzzleError, match="cannot state|holds only|has no Kakuro|labels at most|"
                                                  "read, not written|states square grids|states a rectangular"):
                format_puzzle(entry.puzzle, fmt)
            continue
        path = write(tmp_path, format_puzzle(entry.puzzle, fmt))
        back = read_puzzles(path, format=fmt)
        assert len(back) == 1 and detect_format(path) == fmt
        assert kind_key(back[0].puzzle) == kind_key(entry.puzzle), entry.name
        written += 1
    assert written >= (0 if fmt in READ_ONLY else 3 if fmt in ("kakuro-csv", "killer-csv", "binairo-task") else 10)


SOLUTION_FORMATS = {"native": (Sudoku, Kakuro, Takuzu), "lines": (Sudoku, Takuzu), "janko": (Sudoku, Kakuro, Takuzu),
                    "kakuro-csv": (Kakuro,), "killer-csv": (KillerSudoku,), "sudoku-csv": (Sudoku,),
                    "grid": (Sudoku, Takuzu), "killer-json": (Sudoku, KillerSudoku)}


@pytest.mark.parametrize("fmt", SOLUTION_FORMATS)
def test_round_trip_solutions(fmt, tmp_path):
    solved = [e for e in SAMPLES if e.solution is not None]
    assert {type(e.puzzle) for e in solved} == {Sudoku, KillerSudoku, Kakuro, Takuzu}
    for entry in solved:
        if not isinstance(entry.puzzle, SOLUTION_FORMATS[fmt]):
            with pytest.raises(PuzzleError, match="holds only"):
                format_solution(entry.puzzle, entry.solution, fmt)
            continue
        path = write(tmp_path, format_solution(entry.puzzle, entry.solution, fmt), "sol.txt")
        assert (read_solution(path, entry.puzzle) == entry.solution).all()
        assert (read_solution(path, entry.puzzle, format=fmt) == entry.solution).all()


def test_native_round_trip_keeps_several_solutions(tmp_path):
    kakuro = read_puzzle(write(tmp_path, _docstring_examples()[2])).puzzle
    grids = [np.array([[0] * 5, [0, 9, 1, 4, 0], [0, 6, 5, 3, 2], [0, 8, 3, 2, 1], [0, 0, 7, 1, 0]]),
             np.array([[0] * 5, [0, 6, 5, 3, 0], [0, 9, 1, 4, 2], [0, 8, 3, 2, 1], [0, 0, 7, 1, 0]])]
    path = write(tmp_path, "\n".join(format_solution(kakuro, g) for g in grids), "all.txt")
    back = read_solutions(path, kakuro)
    assert len(back) == 2 and all((a == b).all() for a, b in zip(back, grids))


def test_format_solution_checks_shape():
    p = read_puzzle(LINES / "top95_head5.txt").puzzle
    with pytest.raises(PuzzleError, match="the grid is 8 x 9"):
        format_solution(p, np.ones((8, 9), int))
    with pytest.raises(PuzzleError, match="hold no solutions"):
        format_solution(p, np.ones((9, 9), int), "tatham")
