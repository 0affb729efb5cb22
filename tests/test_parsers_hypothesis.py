"""Property tests: no input, however mangled, makes a reader fail with anything but PuzzleError;
the readers of the layouts of issue 14 read back what their writers wrote."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from puzzlebench.errors import PuzzleError
from puzzlebench.io import FORMATS, Entry, detect_format, format_puzzle, format_solution, read_puzzles, read_solutions
from puzzlebench.kinds import kind_key
from puzzlebench.kinds.killer import killer_csv
from puzzlebench.puzzles import Cage, Kakuro, KillerSudoku, Sudoku, Takuzu, default_box_shape

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data"
SAMPLES = {  # a valid file of every format and puzzle, and the format it is in
    "sudoku.txt": (ROOT / "instances/sudoku/seed/matlab_cleve.txt", "native"),
    "killer.txt": (ROOT / "instances/killer/seed/fjmc_blog2026.txt", "native"),
    "kakuro.txt": (ROOT / "instances/kakuro/seed/fjmc_blog2026.txt", "native"),
    "takuzu.txt": (ROOT / "instances/takuzu/seed/fjmc_blog2026.txt", "native"),
    "lines17.txt": (DATA / "lines/royle17_head3.txt", "lines"),
    "exchange.txt": (DATA / "lines/exchange_by_rating_head3.txt", "lines"),
    "jkiller.txt": (DATA / "janko/killer_1_4x4.txt", "janko"),
    "jkakuro.txt": (DATA / "janko/kakuro_1_10x12.txt", "janko"),
    "jbinairo.txt": (DATA / "janko/binairo_20x20_1.txt", "janko"),
    "jkiller.json": (DATA / "janko/KillerSudoku_sample.json", "janko"),
    "solo.txt": (DATA / "tatham/solo.txt", "tatham"),
    "tkiller.txt": (DATA / "tatham/killer.txt", "tatham"),
    "unruly.txt": (DATA / "tatham/unruly.txt", "tatham"),
    "sudoku.dzn": (DATA / "dzn/sudoku_6x6_array2d.dzn", "dzn"),
    "killer.dzn": (DATA / "dzn/killer_4x4_cages.dzn", "dzn"),
    "killergrid.dzn": (DATA / "dzn/killer_4x4_grid.dzn", "dzn"),
    "kakuro.dzn": (DATA / "dzn/kakuro_6x6.dzn", "dzn"),
    "kakuro.csv": (DATA / "csv/kakuro_6x6.csv", "kakuro-csv"),
    "killers.csv": (DATA / "csv/killers.csv", "killer-csv"),
    "killers.txt": (DATA / "csv/killers_no_header.txt", "killer-csv"),
    "binairo.txt": (DATA / "binairo/binairo_6x6.txt", "lines"),
    "binairo46.txt": (DATA / "binairo/binairo_4x6.txt", "lines"),
}
TEXTS = {name: path.read_text() for name, (path, _) in SAMPLES.items()}
PUZZLES = [read_puzzles(SAMPLES[name][0])[0].puzzle for name in ("sudoku.txt", "killer.txt", "kakuro.txt",
                                                                  "takuzu.txt")]
SYMBOLS = (" \n\r\t.#\\,-_:{}[]\"0123456789xkuzZaAbBgGdiagonaldistinctgivenssudokukillerkakurotakuzu\xe9\u2028"
           "%=;|()/*npuzlearray2d")
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hypothesis") / "input.txt"


def _read_all_ways(path: Path) -> None:
    """Every reader on ``path``: each must return entries or raise PuzzleError."""
    for fmt in (None, *FORMATS):
        try:
            entries = read_puzzles(path, format=fmt)
        except PuzzleError as err:
            assert str(err).startswith(str(path)) and "\n" not in str(err)
        else:
            assert entries and all(isinstance(e, Entry) for e in entries)


@st.composite
def mutated(draw):
    """A sample file with a few random edits: deletions, insertions, replacements, line shuffles."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    text = TEXTS[name]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "drop line", "repeat line", "truncate"]))
        pos = draw(st.integers(0, len(text)))
        if kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 20)):]
        elif kind == "insert":
            text = text[:pos] + draw(st.text(SYMBOLS, min_size=1, max_size=6)) + text[pos:]
        elif kind == "replace":
            text = text[:pos] + draw(st.sampled_from(SYMBOLS)) + text[pos + 1:]
        elif kind == "truncate":
            text = text[:pos]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines[i:i + 1] = [] if kind == "drop line" else [lines[i], lines[i]]
            text = "\n".join(lines)
    return text


@SETTINGS
@given(st.text(SYMBOLS, max_size=200))
def test_random_text_gives_only_puzzle_errors(scratch, text):
    scratch.write_text(text)
    _read_all_ways(scratch)


@SETTINGS
@given(st.binary(max_size=100))
def test_random_bytes_give_only_puzzle_errors(scratch, data):
    scratch.write_bytes(data)
    _read_all_ways(scratch)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_give_only_puzzle_errors(scratch, text):
    scratch.write_text(text)
    _read_all_ways(scratch)


@SETTINGS
@given(st.sampled_from(PUZZLES), st.one_of(mutated(), st.text(SYMBOLS, max_size=120)))
def test_solution_readers_give_only_puzzle_errors(scratch, puzzle, text):
    scratch.write_text(text)
    for fmt in (None, *FORMATS):
        try:
            grids = read_solutions(scratch, puzzle, format=fmt)
        except PuzzleError as err:
            assert str(err).startswith(str(scratch)) and "\n" not in str(err)
        else:
            assert grids and all(isinstance(g, np.ndarray) and g.shape == puzzle.shape for g in grids)


# ---------------------------------------------------------------- writers and readers agree (issue 14)

def _sudoku_solution(draw, n: int) -> np.ndarray:
    """A valid n x n grid (squarest boxes) with its digits and row bands shuffled."""
    br, bc = default_box_shape(n)
    r, c = np.arange(n)[:, None], np.arange(n)[None, :]
    pattern = (bc * (r % br) + r // br + c) % n
    digits = np.array(draw(st.permutations(range(1, n + 1))))
    return digits[pattern]


@st.composite
def sudokus(draw):
    n = draw(st.sampled_from([4, 6, 9]))
    solution = _sudoku_solution(draw, n)
    mask = np.array(draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))).reshape(n, n)
    return Sudoku(np.where(mask, solution, 0), name="1"), solution


@st.composite
def killers(draw):
    """A Killer whose cages are runs of 1..3 cells along the rows of a valid grid."""
    n = draw(st.sampled_from([4, 6, 9]))
    solution = _sudoku_solution(draw, n)
    cages = []
    for r in range(n):
        c = 0
        while c < n:
            length = min(draw(st.integers(1, 3)), n - c)
            cells = tuple((r, c + k) for k in range(length))
            cages.append(Cage(cells, int(sum(solution[cell] for cell in cells))))
            c += length
    return KillerSudoku(np.zeros((n, n), np.int64), cages=tuple(cages), name="1"), solution


@st.composite
def kakuros(draw):
    """A Kakuro on a solved grid whose digits differ along every row and column; random blocks."""
    rows, cols = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    digits = np.array(draw(st.permutations(range(1, 10))))
    r, c = np.arange(rows)[:, None], np.arange(cols)[None, :]
    solution = digits[(r + c) % 9]
    white = np.array(draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))).reshape(rows, cols)
    white[0, :] = white[:, 0] = False
    white[1, 1] = True  # a Kakuro has a white cell
    across, down = np.zeros((rows, cols), np.int64), np.zeros((rows, cols), np.int64)
    for y, x in zip(*np.nonzero(~white)):
        for layer, (dy, dx) in ((across, (0, 1)), (down, (1, 0))):
            yy, xx, total = y + dy, x + dx, 0
            while yy < rows and xx < cols and white[yy, xx]:
                total, yy, xx = total + solution[yy, xx], yy + dy, xx + dx
            layer[y, x] = total
    return Kakuro(white, across, down, "1"), np.where(white, solution, 0)


@st.composite
def takuzus(draw):
    rows, cols = draw(st.sampled_from([2, 4, 6, 8])), draw(st.sampled_from([2, 4, 6, 8]))
    givens = np.array(draw(st.lists(st.sampled_from([-1, -1, -1, 0, 1]), min_size=rows * cols,
                                    max_size=rows * cols))).reshape(rows, cols)
    try:
        return Takuzu(givens, name="1"), None
    except PuzzleError:
        assume(False)


WRITERS = {  # format -> the puzzles it writes
    "dzn": [sudokus(), killers(), kakuros()],
    "kakuro-csv": [kakuros()],
    "killer-csv": [killers()],
    "lines": [takuzus(), sudokus()],
}


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_new_readers_read_back_what_their_writers_wrote(tmp_path_factory, fmt):
    path = tmp_path_factory.mktemp(fmt) / "written.txt"

    @SETTINGS
    @given(st.one_of(*WRITERS[fmt]), st.integers(0, 10_000))
    def round_trip(made, cut):
        puzzle, solution = made
        text = format_puzzle(puzzle, fmt)
        path.write_text(text)
        assert detect_format(path) == fmt
        back = read_puzzles(path, format=fmt, puzzle=puzzle.puzzle)
        assert len(back) == 1 and kind_key(back[0].puzzle) == kind_key(puzzle)
        if solution is not None and fmt != "dzn":
            path.write_text(format_solution(puzzle, solution, fmt))
            assert (read_solutions(path, puzzle, format=fmt)[0] == solution).all()
        path.write_text(text[:cut % max(1, len(text))])  # truncated: read, or refused cleanly
        try:
            read_puzzles(path, format=fmt, puzzle=puzzle.puzzle)
        except PuzzleError as err:
            assert str(err).startswith(str(path)) and "\n" not in str(err)

    round_trip()


@SETTINGS
@given(st.lists(killers(), min_size=1, max_size=3))
def test_killer_csv_rows_keep_their_solutions(scratch, made):
    entries = [Entry(puzzle, "1", "", None, solution) for puzzle, solution in made]
    scratch.write_text(killer_csv.format_entries(entries))
    back = read_puzzles(scratch)
    assert [kind_key(e.puzzle) for e in back] == [kind_key(p) for p, _ in made]
    assert all((e.solution == s).all() for e, (_, s) in zip(back, made))


# ---------------------------------------------------------------- the writers of issue 22

@st.composite
def square_takuzus(draw):
    side = draw(st.sampled_from([4, 6, 8]))
    givens = np.array(draw(st.lists(st.sampled_from([-1, -1, -1, 0, 1]), min_size=side * side,
                                    max_size=side * side))).reshape(side, side)
    try:
        return Takuzu(givens, name="1"), None
    except PuzzleError:
        assume(False)


NEW_WRITERS = {  # format -> the puzzles it writes, with their solutions
    "sudoku-csv": [sudokus()],
    "grid": [sudokus(), square_takuzus()],
    "killer-json": [killers(), sudokus()],
    "binairo-task": [square_takuzus()],
}


@pytest.mark.parametrize("fmt", sorted(NEW_WRITERS))
def test_new_writers_round_trip_and_are_never_misread(tmp_path_factory, fmt):
    """What a writer wrote reads back the same, in its format; detection finds that format or refuses the
    file naming two readings (a 4x4 grid of only 1s and blanks is also four 2x2 Takuzu lines), never another."""
    from puzzlebench.toolkit.text import AmbiguousReading
    path = tmp_path_factory.mktemp(fmt) / "written.txt"

    @SETTINGS
    @given(st.one_of(*NEW_WRITERS[fmt]))
    def round_trip(made):
        puzzle, solution = made
        path.write_text(format_puzzle(puzzle, fmt))
        try:
            assert detect_format(path) == fmt
        except AmbiguousReading:
            pass
        back = read_puzzles(path, format=fmt, puzzle=puzzle.puzzle)
        assert len(back) == 1 and kind_key(back[0].puzzle) == kind_key(puzzle)
        if solution is not None and fmt != "binairo-task":
            path.write_text(format_solution(puzzle, solution, fmt))
            assert (read_solutions(path, puzzle, format=fmt)[0] == solution).all()

    round_trip()


@SETTINGS
@given(kakuros(), st.sampled_from(["first-cell", "clue-cell"]))
def test_dzn_kakuro_round_trips_in_either_convention(scratch, made, convention):
    puzzle, _ = made
    scratch.write_text(format_puzzle(puzzle, "dzn", {"dzn": {"convention": convention}}))
    assert kind_key(read_puzzles(scratch, format="dzn")[0].puzzle) == kind_key(puzzle)
    stated = read_puzzles(scratch, format="dzn", layout={"dzn": {"convention": convention}})
    assert kind_key(stated[0].puzzle) == kind_key(puzzle)
