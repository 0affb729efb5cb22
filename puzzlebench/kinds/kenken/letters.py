"""The ``kenken-letters`` format: a KenKen as its size, a grid of cage letters and one clue line a cage.

As rokob/kenken's ``.dat`` files are written::

    5
    AABBC
    DEEBC
    ...
    A + 9
    D = 3

The first line is N (1..9); then N rows of cage labels (one character a cell, or N
blank-separated tokens; a cage's cells must be connected); then one line ``LABEL OP VALUE`` a
cage: OP one of ``+ - * /`` (also ``x``, ``\u00d7``, ``\u00f7``, ``add`` ... as
:data:`.formats.SPELLINGS`), ``=`` for a one-cell cage (whose VALUE is its digit); ``LABEL VALUE``
also states a one-cell cage.  Another line holding only a number starts the file's next puzzle;
puzzles are named 1, 2, ... .  Blank lines and ``#`` comment lines are skipped.  A puzzle that does
not read (or breaks KenKen's rules) is refused at its line, the others read.

Detection: a first content line N, N rows of N labels that are not all digits, then a line
``LABEL OP VALUE`` whose label is in the grid and whose OP is an operation.  The files hold no
solutions.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.entry import Entry
from ...toolkit.regions import label_regions
from ...toolkit.text import Cursor, build_located, content_lines, read_only, row_cells, split_lines
from .published import SPELLINGS, cage
from .puzzle import MAX_SIZE, KenKen

PUZZLES = ("kenken",)
HINT = "a KenKen letter grid: 'N', N rows of cage letters, then 'A + 9' lines"
_SIZE = re.compile(r"[0-9]{1,2}")
_CLUE = re.compile(r"(\S+)\s+(?:(\S+)\s+)?(\S+)")

unsupported_solutions, read_solutions, format_puzzle, format_solution = read_only(
    "kenken-letters", "KenKen letter grids", "native")


def looks_like(text: str) -> bool:
    """The size line, the grid of labels and a first clue line with an operation (module docstring)."""
    lines = content_lines(split_lines(text[:20000]))
    if not lines or not _SIZE.fullmatch(lines[0].text) or not 1 <= int(lines[0].text) <= MAX_SIZE:
        return False
    n = int(lines[0].text)
    if len(lines) < n + 2:
        return False
    try:
        labels = [row_cells(line, n) for line in lines[1:n + 1]]
    except PuzzleError:
        return False
    if all(label.isdecimal() for row in labels for label in row):
        return False
    words = lines[n + 1].text.split()
    return (len(words) == 3 and any(words[0] in row for row in labels) and words[1].lower() in SPELLINGS
            and words[1] != "" and words[2].replace(".", "", 1).isdecimal())


def read(text: str, path: str, puzzle: str | None, rules=None, layout=None) -> list:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the kenken-letters format holds only kenken puzzles, not {puzzle}")
    cursor = Cursor(split_lines(text))
    items = []
    while (line := cursor.take()) is not None:
        name = str(len(items) + 1)
        try:
            items.append(Entry(_read_puzzle(cursor, line, name), name, path, line.number))
        except PuzzleError as err:
            items.append(err.locate(None, line.number))
            while (nxt := cursor.peek()) is not None and not _SIZE.fullmatch(nxt.text):
                cursor.take()  # on to the next puzzle's size line
    return items


def _read_puzzle(cursor: Cursor, header, name: str) -> KenKen:
    if not _SIZE.fullmatch(header.text) or not 1 <= int(header.text) <= MAX_SIZE:
        raise PuzzleError(f"expected a puzzle's size N (1..{MAX_SIZE}) on a line of its own, got {header.text[:40]!r}")
    n = int(header.text)
    rows = cursor.take_rows(n, f"the puzzle at line {header.number}")
    row_lines = [row.number for row in rows]
    labels = [row_cells(row, n) for row in rows]
    index, order = build_located(lambda: label_regions(labels), row_lines, header.number)
    region_of = {label: k for k, label in enumerate(order)}
    clues: dict[int, tuple[str, str, int]] = {}
    while (line := cursor.peek()) is not None and not _SIZE.fullmatch(line.text):
        cursor.take()
        match = _CLUE.fullmatch(line.text)
        if match is None:
            raise PuzzleError(f"expected a cage clue 'LABEL OP VALUE' (such as 'A + 9', 'D = 3') or the next "
                              f"puzzle's size, got {line.text[:40]!r}", line=line.number)
        label, word, value = match[1], match[2] or "", match[3]
        if label not in region_of:
            raise PuzzleError(f"clue for cage {label}, but no cell of the grid is labelled {label}", line=line.number)
        if region_of[label] in clues:
            raise PuzzleError(f"cage {label} has a second clue", line=line.number)
        if not value.isdecimal():
            try:
                number = float(value)
            except ValueError:
                raise PuzzleError(f"cage {label}: the target {value[:20]!r} is not a number",
                                  line=line.number) from None
        else:
            number = int(value[:12])
        clues[region_of[label]] = (word, number, line.number)
    cages = []
    for k, label in enumerate(order):
        cells = [tuple(map(int, rc)) for rc in np.argwhere(index == k)]
        if k not in clues:
            raise PuzzleError(f"cage {label} has no clue line ('{label} OP VALUE')", line=row_lines[cells[0][0]])
        word, number, at = clues[k]
        try:
            cages.append(cage(cells, word, number, f"cage {label}"))
        except PuzzleError as err:
            raise err.locate(None, at) from None
    return build_located(lambda: KenKen(n, tuple(cages), name), row_lines, header.number)
