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

import numpy as np

from ..errors import PuzzleError
from ..kinds import get_kind, kind_of, require_applicable
from ..kinds.header import Header, parse_header
from ..toolkit.entry import Entry
from ..toolkit.rules import Rules
from ..toolkit.text import Cursor, looks_like_row, parse_row, split_lines


# ---------------------------------------------------------------- cell tokens

def solution_cell(puzzle):
    """The token parser for a solution grid of ``puzzle`` and a description of valid tokens (its kind's)."""
    return kind_of(puzzle).solution_cell(puzzle)


# ---------------------------------------------------------------- reading puzzles

def read(text: str, path: str, puzzle: str | None, rules: Rules, layout=None) -> list[Entry]:
    cursor = Cursor(split_lines(text))
    entries = []
    while (line := cursor.take()) is not None:
        name = str(len(entries) + 1)
        entries.append(Entry(_read_puzzle(cursor, parse_header(line), puzzle, rules, name), name, path, line.number))
    return entries


def _read_puzzle(cursor: Cursor, header: Header, puzzle: str | None, rules: Rules, name: str):
    if puzzle is not None and puzzle != header.kind:
        raise PuzzleError(f"this is a {header.kind} puzzle, not {puzzle}", line=header.line)
    kind = get_kind(header.kind)
    markers = {"box": header.box}
    if kind.flag_rule is not None:  # an absent marker leaves the instance-set option in force
        markers[kind.flag_rule] = True if header.flag else None
    rules = rules.overridden(**markers)
    try:
        require_applicable(rules, header.kind)
    except PuzzleError as err:
        err.locate(None, header.line)
        raise
    return kind.read_native(cursor, header, rules, name, f"the puzzle at line {header.line}")


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
    is_row = looks_like_row(cell)
    first = cursor.peek(is_row)
    if first is None:
        return None
    rows = cursor.take_rows(rows_count, f"the solution at line {first.number}", is_row)
    return first.number, np.array([parse_row(row, cols, cell, what) for row in rows])


# ---------------------------------------------------------------- writing

def format_puzzle(puzzle) -> str:
    return kind_of(puzzle).format_native(puzzle)


def format_solution(puzzle, grid: np.ndarray) -> str:
    return kind_of(puzzle).format_solution(puzzle, grid)
