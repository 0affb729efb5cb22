r"""The Kakuro comma layout: one grid row per line, cells separated by commas.

``x`` is a block, ``0`` a white cell, ``D\A`` a clue cell with down sum D and
across sum A; either side may be empty (``23\`` a down clue only, ``\16`` an
across clue only, ``17\24`` both).  Blanks around cells are ignored; ``#``
comment lines are skipped; puzzles in one file are separated by a blank line
and named "1", "2", ... in file order::

    x,23\,16\,10\,x
    \14,0,0,0,3\
    \16,0,0,0,0
    \14,0,0,0,0
    x,\8,0,0,x

A solution has the same layout with the digits in the white cells (``x`` or
the clue in any other cell).  A file is recognised by a first line of at
least two comma-separated cells that are all such tokens.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.entry import Entry
from ...toolkit.rules import Rules
from ...toolkit.text import MAX_SIDE, TextLine, build_located, is_comment, kakuro_clue, split_lines
from .. import kind_of, require_applicable, require_kind
from .puzzle import Kakuro

PUZZLES = ("kakuro",)
HINT = "comma-separated Kakuro cells 'x,23\\,0'"
DETECT = "line"
"""Detection tests :func:`looks_like` on the file's first content line (:func:`puzzlebench.io.detect.candidates`)."""
PLACE = 5
"""The format's place in ``--format``'s list and among detection's tests (:data:`puzzlebench.io.PLACES`)."""
_CLUE = re.compile(r"([0-9]{0,2})\\([0-9]{0,2})")
_TOKEN = re.compile(r"[xX]|0|[0-9]{0,2}\\[0-9]{0,2}")


def looks_like(line: str) -> bool:
    """Is ``line`` a row of this layout (two or more comma-separated Kakuro tokens)?"""
    cells = [cell.strip() for cell in line.split(",")]
    return len(cells) >= 2 and all(_TOKEN.fullmatch(cell) for cell in cells)


def looks_like_solution(line: str, puzzle) -> bool:
    """Is ``line``, the first row of a solution file for ``puzzle``, a row of this layout (a Kakuro's,
    with a comma)?"""
    return kind_of(puzzle).name in PUZZLES and "," in line


def _cell(token: str) -> tuple[int, int, int] | None:
    """Token -> (white, down, across), None if invalid."""
    if token in ("x", "X"):
        return 0, 0, 0
    if token == "0":
        return 1, 0, 0
    return kakuro_clue(_CLUE, token)


def _solution_cell(token: str) -> int | None:
    if token in ("x", "X") or _CLUE.fullmatch(token):
        return 0
    return int(token) if len(token) == 1 and token in "0123456789" else None


def _blocks(text: str) -> list[list[TextLine]]:
    """The grids of a file: runs of consecutive row lines, split at blank lines (comments skipped)."""
    blocks, current = [], []
    for line in split_lines(text):
        if is_comment(line):
            continue
        if not line.text:
            if current:
                blocks.append(current)
            current = []
            continue
        current.append(line)
    if current:
        blocks.append(current)
    return blocks


def _grid(rows: list[TextLine], cell, what: str) -> np.ndarray:
    width = None
    values = []
    for line in rows:
        tokens = [t.strip() for t in line.text.split(",")]
        if width is None:
            width = len(tokens)
            if not 1 <= width <= MAX_SIDE or len(rows) > MAX_SIDE:
                raise PuzzleError(f"a grid of {len(rows)} x {width} cells; sides must be 1..{MAX_SIDE}",
                                  line=line.number)
        elif len(tokens) != width:
            raise PuzzleError(f"this row has {len(tokens)} cells, the first row of the grid {width}", line=line.number)
        row = []
        for col, token in enumerate(tokens, start=1):
            value = cell(token)
            if value is None:
                raise PuzzleError(f"column {col}: {token[:12]!r} is not {what}", line=line.number)
            row.append(value)
        values.append(row)
    return np.array(values, dtype=np.int64)


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout=None) -> list:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the kakuro-csv format holds only kakuro puzzles, not {puzzle}")
    require_applicable(rules, PUZZLES[0])
    entries = []
    for rows in _blocks(text):
        name = str(len(entries) + 1)
        try:
            cells = _grid(rows, _cell, "'x', '0' or a clue D\\A (sums 1..45)")
            kakuro = build_located(lambda: Kakuro(cells[..., 0], cells[..., 2], cells[..., 1], name),
                                   [r.number for r in rows], rows[0].number)
        except PuzzleError as err:
            entries.append(err.locate(None, rows[0].number))
            continue
        entries.append(Entry(kakuro, name, path, rows[0].number))
    return entries


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """Every solution grid of the file (alternatives of one puzzle), each of its shape."""
    require_kind(puzzle, "kakuro-csv", PUZZLES, "solutions")
    found = []
    for rows in _blocks(text):
        grid = _grid(rows, _solution_cell, "a digit 1..9, 'x' or a clue")
        if grid.shape != puzzle.shape:
            raise PuzzleError(f"the solution is {grid.shape[0]} x {grid.shape[1]}, the puzzle "
                              f"{puzzle.shape[0]} x {puzzle.shape[1]}", line=rows[0].number)
        found.append((rows[0].number, grid))
    return found


def _tokens(p: Kakuro) -> list[list[str]]:
    return [["0" if w else (f"{d or ''}\\{a or ''}" if d or a else "x") for w, d, a in zip(*cells)]
            for cells in zip(p.white.tolist(), p.down.tolist(), p.across.tolist())]


def format_puzzle(puzzle) -> str:
    require_kind(puzzle, "kakuro-csv", PUZZLES)
    return "".join(",".join(row) + "\n" for row in _tokens(puzzle))


def format_solution(puzzle, grid: np.ndarray) -> str:
    require_kind(puzzle, "kakuro-csv", PUZZLES, "solutions")
    rows = [[str(v) if w else t for v, w, t in zip(values, white, tokens)]
            for values, white, tokens in zip(grid.tolist(), puzzle.white.tolist(), _tokens(puzzle))]
    return "".join(",".join(row) + "\n" for row in rows)
