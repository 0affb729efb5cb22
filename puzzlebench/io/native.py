r"""The native text format: one human-editable layout per puzzle.

General rules
-------------
* A file holds one or more puzzles; each starts with a header line naming the
  puzzle, so the format is recognised without guessing.  Puzzles are named
  "1", "2", ... in file order.
* Blank lines are ignored, line ends may be LF or CRLF, and a line whose first
  character is ``#`` is a comment -- except that in a Kakuro grid a ``#`` line
  made only of cell tokens (at least two) is a grid row, since ``#`` is the
  block token.
* Grid rows are whitespace-separated tokens, so 25x25 and 36x36 grids work.  A
  row may also be written as one word with one character per cell (such as
  ``53..7....``) when every cell is a single character.
* The Sudoku, Killer and Takuzu examples below have one solution each; the
  Kakuro is the seed instance ``fjmc_blog2026``, which has 17.

Sudoku -- header ``sudoku N [RxC]``; the box shape R rows x C columns defaults
to the squarest one (9 -> 3x3, 6 -> 2x3, 12 -> 3x4).  Then N rows of numbers
1..N, with ``.`` (or ``0``) for a blank::

    sudoku 6 2x3
    . 5 . . . .
    . 1 . 2 3 .
    . . . . . 3
    6 . . . . .
    . 2 3 . 6 .
    . . . . 1 .

Killer Sudoku -- header ``killer N [RxC] [diagonal]`` (``diagonal``: Killer-X,
both main diagonals hold 1..N too).  Then N rows of cage labels (any token
per cage: ``A``, ``b``, ``12``; each cage's cells must be connected), then one
line ``LABEL SUM`` per cage, then optionally a line ``givens`` followed by N
rows of givens written as for Sudoku::

    killer 4 2x2
    A A B C
    D E B C
    D E F F
    G G H H
    A 3
    B 4
    C 6
    D 5
    E 5
    F 7
    G 7
    H 3
    givens
    1 . . .
    . . . .
    . . . .
    . . . .

Kakuro -- header ``kakuro R C``, then R rows of C tokens: ``#`` a block,
``.`` a white cell, ``D\A`` a clue cell with down sum D and across sum A
(either side may be empty: ``23\`` is a down clue only, ``\14`` an across
clue only)::

    kakuro 5 5
    #    23\  16\  10\  #
    \14  .    .    .    3\
    \16  .    .    .    .
    \14  .    .    .    .
    #    \8   .    .    #

Takuzu -- header ``takuzu R C [distinct]`` (``distinct``: no two rows and no
two columns may be equal), then R rows of ``0``, ``1`` and ``.`` (blank)::

    takuzu 6 6
    . . . . . .
    0 . 0 . . 0
    . . . 0 . .
    0 1 . . 1 1
    0 . 0 . . .
    . . . 1 . .

Solution files
--------------
A solution file has no header: it is the grid rows of the solved puzzle,
tokens as above (Sudoku and Killer digits 1..N, Takuzu ``0``/``1``, Kakuro
digits in white cells and ``#`` -- ``.`` and ``0`` are accepted too -- in
every other cell).  For a file of one puzzle it may hold several grids one
after the other (alternative solutions); for a file of several puzzles it holds
one grid per puzzle, in the order of the puzzles.  A blank line between grids
is customary::

    # fjmc_blog2026 kakuro: the author's pictured solution
    # # # # #
    # 9 1 4 #
    # 6 5 3 2
    # 8 3 2 1
    # # 7 1 #
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import PuzzleError
from ..puzzles import PUZZLE_NAMES, Kakuro, KillerSudoku, Sudoku, Takuzu, digit_sum_range
from .entry import Entry
from .regions import cage_labels, cages_from_index, canonical_index, label_regions
from .rules import MAX_SUDOKU, Rules, parse_box
from .text import MAX_SIDE, kakuro_clue, Cursor, TextLine, as_uint, build_located, parse_row, row_cells, split_lines

PUZZLES = ("sudoku", "killer", "kakuro", "takuzu")

_CLUE = re.compile(r"([0-9]{0,2})\\([0-9]{0,2})")
_FLAGS = {"killer": "diagonal", "takuzu": "distinct"}


@dataclass(frozen=True)
class Header:
    """A parsed header line."""

    kind: str
    rows: int
    cols: int
    box: tuple[int, int] | None
    flag: bool
    line: int


# ---------------------------------------------------------------- cell tokens

def sudoku_cell(n: int):
    """Token -> given (0 for ``.`` or ``0``), None if invalid."""
    def cell(token: str) -> int | None:
        if token == ".":
            return 0
        value = as_uint(token)
        return value if value is not None and value <= n else None
    return cell


def takuzu_cell(token: str) -> int | None:
    return {"0": 0, "1": 1, ".": -1}.get(token)


def kakuro_cell(token: str) -> tuple[int, int, int] | None:
    """Token -> (white, down, across), None if invalid."""
    if token == "#":
        return 0, 0, 0
    if token == ".":
        return 1, 0, 0
    return kakuro_clue(_CLUE, token)


def kakuro_solution_cell(token: str) -> int | None:
    if token in ("#", ".", "0"):
        return 0
    return int(token) if len(token) == 1 and token in "123456789" else None


def solution_cell(puzzle):
    """The token parser for a solution grid of ``puzzle`` and a description of valid tokens."""
    if isinstance(puzzle, Sudoku):
        return sudoku_cell(puzzle.n), f"a digit 1..{puzzle.n}"
    if isinstance(puzzle, Kakuro):
        return kakuro_solution_cell, "a digit 1..9 or '#'"
    return takuzu_cell, "0 or 1"


def looks_like_row(cell):
    """A test for ``#`` lines: is this a grid row of ``cell`` tokens rather than a comment?"""
    def test(text: str) -> bool:
        tokens = text.split()
        cells = list(tokens[0]) if len(tokens) == 1 else tokens
        return len(cells) >= 2 and all(cell(t) is not None for t in cells)
    return test


# ---------------------------------------------------------------- reading puzzles

def read(text: str, path: str, puzzle: str | None, rules: Rules, layout=None) -> list[Entry]:
    cursor = Cursor(split_lines(text))
    entries = []
    while (line := cursor.take()) is not None:
        name = str(len(entries) + 1)
        entries.append(Entry(_read_puzzle(cursor, parse_header(line), puzzle, rules, name), name, path, line.number))
    return entries


def parse_header(line: TextLine) -> Header:
    tokens = line.text.split()
    kind = tokens[0]
    if kind not in PUZZLE_NAMES:
        raise PuzzleError(f"expected a header such as 'sudoku 9 3x3', 'killer 9 3x3 diagonal', "
                          f"'kakuro 5 5' or 'takuzu 8 8 distinct', got {line.text[:40]!r}", line=line.number)
    square = kind in ("sudoku", "killer")
    sizes = tokens[1:2] if square else tokens[1:3]
    usage = {"sudoku": "sudoku N [RxC]", "killer": "killer N [RxC] [diagonal]",
             "kakuro": "kakuro ROWS COLS", "takuzu": "takuzu ROWS COLS [distinct]"}[kind]
    limit = MAX_SUDOKU if square else MAX_SIDE
    values = [as_uint(s) for s in sizes]
    if len(values) != (1 if square else 2) or any(v is None or not 1 <= v <= limit for v in values):
        raise PuzzleError(f"bad header: expected '{usage}' with sizes 1..{limit}", line=line.number)
    rows, cols = (values[0], values[0]) if square else values
    box, flag = None, False
    for word in tokens[1 + len(sizes):]:
        if square and box is None and re.fullmatch(r"[0-9]{1,2}x[0-9]{1,2}", word):
            box = parse_box(word)
        elif word == _FLAGS.get(kind) and not flag:
            flag = True
        else:
            raise PuzzleError(f"bad header: unexpected {word!r}; expected '{usage}'", line=line.number)
    return Header(kind, rows, cols, box, flag, line.number)


def _read_puzzle(cursor: Cursor, header: Header, puzzle: str | None, rules: Rules, name: str):
    if puzzle is not None and puzzle != header.kind:
        raise PuzzleError(f"this is a {header.kind} puzzle, not {puzzle}", line=header.line)
    marker = True if header.flag else None  # an absent marker leaves the instance-set option in force
    rules = rules.overridden(box=header.box, diagonal=marker if header.kind == "killer" else None,
                             distinct_lines=marker if header.kind == "takuzu" else None)
    try:
        rules.require_applicable(header.kind)
    except PuzzleError as err:
        err.locate(None, header.line)
        raise
    where = f"the puzzle at line {header.line}"
    reader = {"sudoku": _read_sudoku, "killer": _read_killer, "kakuro": _read_kakuro, "takuzu": _read_takuzu}
    return reader[header.kind](cursor, header, rules, name, where)


def _givens(rows: list[TextLine], n: int) -> np.ndarray:
    return np.array([parse_row(row, n, sudoku_cell(n), f"a digit 1..{n} or '.'") for row in rows])


def _read_sudoku(cursor, header, rules, name, where):
    n = header.rows
    rows = cursor.take_rows(n, where)
    givens = _givens(rows, n)
    br, bc = rules.box_for(n)
    return build_located(lambda: Sudoku(givens, br, bc, name), [r.number for r in rows], header.line)


def _read_killer(cursor, header, rules, name, where):
    n = header.rows
    rows = cursor.take_rows(n, where)
    labels = [row_cells(row, n) for row in rows]
    for row, tokens in zip(rows, labels):
        reserved = [t for t in tokens if t in PUZZLE_NAMES or t == "givens"]
        if reserved:
            raise PuzzleError(f"{reserved[0]!r} is a reserved word and cannot label a cage", line=row.number)
    index, order = build_located(lambda: label_regions(labels), [r.number for r in rows], header.line)
    sizes = np.bincount(index.ravel(), minlength=len(order))
    region_of = {label: k for k, label in enumerate(order)}
    totals: dict[int, int] = {}
    givens, given_rows = np.zeros((n, n), dtype=np.int64), rows
    while (line := cursor.peek()) is not None and line.text.split()[0] not in PUZZLE_NAMES:
        cursor.take()
        tokens = line.text.split()
        if tokens == ["givens"]:
            given_rows = cursor.take_rows(n, f"the givens of {where}")
            givens = _givens(given_rows, n)
            break
        _read_cage_sum(line, tokens, region_of, sizes, totals, n)
    for k, label in enumerate(order):
        if k not in totals:
            row = int(np.argwhere(index == k)[0][0])
            raise PuzzleError(f"cage {label} has no sum line ('{label} SUM')", line=rows[row].number)
    cages = cages_from_index(index, [totals[k] for k in range(len(order))])
    br, bc = rules.box_for(n)
    return build_located(lambda: KillerSudoku(givens, br, bc, name, cages=cages, diagonal=bool(rules.diagonal)),
                         [r.number for r in given_rows], header.line)


def _read_cage_sum(line, tokens, region_of, sizes, totals, n) -> None:
    if len(tokens) != 2 or as_uint(tokens[1]) is None:
        raise PuzzleError(f"expected a cage sum 'LABEL SUM', 'givens' or the next puzzle's header, "
                          f"got {line.text[:40]!r}", line=line.number)
    label, total = tokens[0], int(tokens[1])
    if label not in region_of:
        raise PuzzleError(f"sum for cage {label}, but no cell of the grid is labelled {label}", line=line.number)
    k = region_of[label]
    if k in totals:
        raise PuzzleError(f"cage {label} has a second sum", line=line.number)
    size = int(sizes[k])
    lo, hi = digit_sum_range(size, n)
    if size > n or not lo <= total <= hi:
        possible = f"possible: {lo}..{hi}" if size <= n else f"more cells than the {n} digits"
        raise PuzzleError(f"cage {label} has {size} cells and cannot sum to {total} ({possible})",
                          line=line.number)
    totals[k] = total


def _read_kakuro(cursor, header, rules, name, where):
    rows = cursor.take_rows(header.rows, where, is_row=looks_like_row(kakuro_cell))
    cells = np.array([parse_row(row, header.cols, kakuro_cell, "'#', '.' or a clue D\\A (sums 1..45)")
                      for row in rows], dtype=np.int64).reshape(header.rows, header.cols, 3)
    return build_located(lambda: Kakuro(cells[..., 0], cells[..., 2], cells[..., 1], name),
                         [r.number for r in rows], header.line)


def _read_takuzu(cursor, header, rules, name, where):
    rows = cursor.take_rows(header.rows, where)
    givens = np.array([parse_row(row, header.cols, takuzu_cell, "0, 1 or '.'") for row in rows])
    return build_located(lambda: Takuzu(givens, bool(rules.distinct_lines), name),
                         [r.number for r in rows], header.line)


# ---------------------------------------------------------------- reading solutions

def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """Every solution grid of the file as (first line, grid); grids of ``puzzle``'s shape."""
    cursor = Cursor(split_lines(text))
    grids = []
    while (grid := _take_solution(cursor, puzzle)) is not None:
        grids.append(grid)
    return grids


def read_solution_per_puzzle(text: str, puzzles) -> list[tuple[int, np.ndarray]]:
    """One grid for each of ``puzzles``, in order, each of its puzzle's shape (the companion
    solution file of a file of several puzzles); a grid missing or left over is an error."""
    cursor = Cursor(split_lines(text))
    grids = []
    for number, puzzle in enumerate(puzzles, 1):
        grid = _take_solution(cursor, puzzle)
        if grid is None:
            raise PuzzleError(f"the file holds {len(grids)} solution(s) for {len(puzzles)} puzzles: a solution "
                              f"file for a file of several puzzles holds one grid per puzzle, in order")
        grids.append(grid)
    if (extra := cursor.peek()) is not None:
        raise PuzzleError(f"a grid beyond the {len(puzzles)} puzzles' solutions: a solution file for a file "
                          f"of several puzzles holds one grid per puzzle, in order", line=extra.number)
    return grids


def _take_solution(cursor: Cursor, puzzle) -> tuple[int, np.ndarray] | None:
    """The next grid of ``puzzle``'s shape at the cursor as (first line, grid); None at the end."""
    rows_count, cols = puzzle.shape
    cell, what = solution_cell(puzzle)
    is_row = looks_like_row(cell) if isinstance(puzzle, Kakuro) else None
    first = cursor.peek(is_row)
    if first is None:
        return None
    rows = cursor.take_rows(rows_count, f"the solution at line {first.number}", is_row)
    return first.number, np.array([parse_row(row, cols, cell, what) for row in rows])


# ---------------------------------------------------------------- writing

def _grid_text(tokens: list[list[str]], align: str = "right") -> str:
    width = max(len(t) for row in tokens for t in row)
    pad = str.rjust if align == "right" else str.ljust
    return "".join(" ".join(pad(t, width) for t in row).rstrip() + "\n" for row in tokens)


def _digits(grid: np.ndarray) -> list[list[str]]:
    return [[str(v) if v > 0 else "." for v in row] for row in grid.tolist()]


def format_puzzle(puzzle) -> str:
    if isinstance(puzzle, KillerSudoku):
        return _format_killer(puzzle)
    if isinstance(puzzle, Sudoku):
        return f"sudoku {puzzle.n} {puzzle.box_rows}x{puzzle.box_cols}\n" + _grid_text(_digits(puzzle.givens))
    if isinstance(puzzle, Kakuro):
        return f"kakuro {puzzle.shape[0]} {puzzle.shape[1]}\n" + _grid_text(_kakuro_tokens(puzzle), "left")
    rows, cols = puzzle.shape
    head = f"takuzu {rows} {cols}" + (" distinct" if puzzle.distinct_lines else "")
    return head + "\n" + _grid_text([[{-1: "."}.get(v, str(v)) for v in row] for row in puzzle.givens.tolist()])


def _format_killer(p: KillerSudoku) -> str:
    index = canonical_index(p)
    count = int(index.max()) + 1
    labels = cage_labels(count)
    totals = [0] * count
    for cage in p.cages:
        totals[index[cage.cells[0]]] = cage.total
    head = f"killer {p.n} {p.box_rows}x{p.box_cols}" + (" diagonal" if p.diagonal else "")
    text = head + "\n" + _grid_text([[labels[k] for k in row] for row in index.tolist()])
    text += "".join(f"{labels[k]} {totals[k]}\n" for k in range(count))
    if p.num_givens:
        text += "givens\n" + _grid_text(_digits(p.givens))
    return text


def _kakuro_tokens(p: Kakuro) -> list[list[str]]:
    rows, cols = p.shape
    tokens = []
    for r in range(rows):
        row = []
        for c in range(cols):
            down, across = int(p.down[r, c]), int(p.across[r, c])
            if p.white[r, c]:
                row.append(".")
            elif down or across:
                row.append(f"{down or ''}\\{across or ''}")
            else:
                row.append("#")
        tokens.append(row)
    return tokens


def format_solution(puzzle, grid: np.ndarray) -> str:
    if isinstance(puzzle, Kakuro):
        tokens = [["#" if not w else (str(v) if v > 0 else ".") for v, w in zip(row, white)]
                  for row, white in zip(grid.tolist(), puzzle.white.tolist())]
        return _grid_text(tokens)
    if isinstance(puzzle, Takuzu):
        return _grid_text([[str(v) if v in (0, 1) else "." for v in row] for row in grid.tolist()])
    return _grid_text(_digits(grid))
