"""Bare grids: Sudoku and Takuzu grids written as rows of cells, with no header, one or several a file.

A grid is N rows of N cells, or all its N*N cells on one line (a rectangular
Takuzu needs ``--size RxC``).  The layouts read (SadMan ``.sdk``, Simple
Sudoku ``.ss``, Project Euler's ``p096_sudoku.txt``, boxed console prints):

* A row is single characters (``.6..9....``), or cells separated by blanks,
  ``,`` or ``|`` (``* * 3 *``, ``.|5|7|.``, ``7,0,0, 0,0,4``), or numbers
  (``4 10 3 1 15 ...``: cells of several digits make the row a row of
  numbers).  A line of ``;``-separated parts is one row per part.
* Rule lines (box borders such as ``---+---+---``), blank lines and ``#``
  comment lines (SadMan's ``#A`` headers) are skipped, inside grids too.
* Any other line (``Grid 01``, ``Puzzle N°  1``, a file header) is a *title*,
  kept in ``Entry.extra["title"]``: it may only come between grids.  A grid
  whose title starts with ``Solution`` is the solution of the grid before it.
* A value followed by ``!`` is a given (jkomoros' "komo" layout,
  ``9,5!,7!,...;4,2!,...``): such a grid is a puzzle of its marked cells and,
  when every cell holds a value, its own solution.

What the cells state is the kinds' (the ``grid`` parts of
:attr:`puzzlebench.kinds.PuzzleKind.layouts`): Sudoku (``kinds/sudoku/grid.py``: one alphabet for
all the file's grids, inferred from all of them, :mod:`puzzlebench.toolkit.symbols`; ``--symbols`` when several fit)
and Takuzu (``kinds/takuzu/grid.py``: ``0``/``1`` or ``O``/``X`` and one blank); a Killer's
solution is a Sudoku grid.  A grid as wide as no kind's grids is refused.  When the file reads as
two kinds (only ``0``, ``1`` and a blank), ``--puzzle`` says which.  Puzzles are named 1, 2, ... in
file order.  Written: N lines of N characters, ``.`` blanks (for N > 9 the letters of the lines
format: such a file is read back with ``--symbols 1-9A-G`` when a symbol happens to be missing)::

    .6..9....
    ..31...9.
    19..263..
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..errors import PuzzleError
from ..kinds import layout_parts
from ..toolkit.entry import Entry, entries_only
from ..toolkit.layout import Layout
from ..toolkit.syntax.grids import ScannedGrid
from ..toolkit.text import MAX_SIDE, listing, split_lines
from . import lines
from .parts import layout_holds, puzzle_part, solution_part

_RULE = re.compile(r"[-=+_|:*~ \t]*[-=_~]{2}[-=+_|:*~ \t]*")
_SPLIT = re.compile(r"[\s,|]+")
_NUMBER = re.compile(r"[0-9]+")
_TEXT_CHARS = re.compile(r"[^\x20-\x7e\t]|[:()\[\]{}<>\"'@&%$^`\\]")
_MIXED_CASE = re.compile(r"[A-Z][a-z]|[a-z][A-Z]")
MAX_CELLS = MAX_SIDE * MAX_SIDE


def __getattr__(name: str):
    if name in ("PUZZLES", "SOLUTIONS"):  # computed on use, as the kinds load on first use
        return layout_holds("grid", name.lower())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _cells(segment: str, tokens: bool | None) -> tuple[list[str], list[bool], bool | None] | None:
    """(cells, ``!`` marks, mode) of one row segment, None when it holds no cell.

    The mode is True for a row of number tokens, False for one cell per character, None while
    every word is a single cell (both read the same).  ``tokens`` None lets the row decide:
    numbers of several digits (each at most the word count, four words or more) make a row of
    numbers, other runs of characters are one cell per character."""
    words = [w for w in _SPLIT.split(segment) if w]
    if not words:
        return None
    bare = [w[:-1] if len(w) > 1 and w.endswith("!") else w for w in words]
    if tokens is None and any(len(w) > 1 for w in bare):
        multi = [w for w in bare if len(w) > 1]
        tokens = len(words) >= 4 and all(_NUMBER.fullmatch(w) and int(w) <= len(words) for w in multi)
    if tokens is not False:
        return bare, [len(w) > 1 and w.endswith("!") for w in words], tokens
    cells, marks = [], []
    for ch in "".join(words):
        if ch == "!" and cells:
            marks[-1] = True
        else:
            cells.append(ch)
            marks.append(False)
    return cells, marks, False


def _is_text(text: str) -> bool:
    """A line that is no grid row: characters cells never use, a mixed-case word, or words of
    letters among words of other lengths (``Grid 01``, ``puzzle 3``)."""
    if _TEXT_CHARS.search(text) or _MIXED_CASE.search(text):
        return True
    words = text.split()
    return any(sum(ch.isalpha() for ch in w) >= 2 for w in words) and len({len(w) for w in words}) > 1


def _is_rule(text: str) -> bool:
    return bool(_RULE.fullmatch(text))


def _scan(text: str, size: tuple[int, int] | None) -> tuple[list[ScannedGrid], list[PuzzleError]]:
    """The grids of a text; a grid broken off (by a title, a row of another width, the end) is an
    error, and reading goes on with the next grid."""
    grids: list[ScannedGrid] = []
    errors: list[PuzzleError] = []
    title = ""
    current: ScannedGrid | None = None
    rows = [line for line in split_lines(text) if line.text and not line.text.startswith("#")]

    def broken(where: int, why: str) -> None:
        nonlocal current
        errors.append(PuzzleError(f"the grid at line {current.lines[0]} has {len(current.rows)} of its "
                                  f"{current.height} rows: {why}", line=where))
        current = None

    for k, line in enumerate(rows):
        if _is_rule(line.text) and not (current and current.width == len(line.text) and current.tokens is not True):
            continue
        segments = [s for s in line.text.split(";") if s.strip()] if ";" in line.text else [line.text]
        parsed = [] if _is_text(line.text) else [_cells(s, current.tokens if current else None)
                                                 for s in segments]
        if not parsed or any(p is None for p in parsed) or (current is None and any(len(p[0]) < 4 for p in parsed)):
            if current is not None:
                broken(line.number, f"line {line.number} is no row of it")
            title = line.text
            continue
        for cells, marks, tokens in parsed:
            if current is None:
                current = ScannedGrid(title=title, tokens=tokens)
                title = ""
                width = len(cells)
                following = rows[k + 1].text if k + 1 < len(rows) else ""
                one_line = len(segments) == 1 and (
                    (size is not None and width == size[0] * size[1] and size[0] > 1)
                    or (size is None and math.isqrt(width) ** 2 == width and width >= 16
                        and _width(following, tokens) != width))
                if one_line:
                    side = (size or (math.isqrt(width),) * 2)
                    current.height, current.width = side
                    current.rows = [cells[r * side[1]:(r + 1) * side[1]] for r in range(side[0])]
                    current.marks = [marks[r * side[1]:(r + 1) * side[1]] for r in range(side[0])]
                    current.lines = [line.number] * side[0]
                    grids.append(current)
                    current = None
                    continue
                current.width = width
                current.height = size[0] if size is not None else width
                if size is not None and size[1] != width:
                    errors.append(PuzzleError(f"this row has {width} cells; --size {size[0]}x{size[1]} "
                                              f"says {size[1]}", line=line.number))
                    current = None
                    continue
                parts = layout_parts("grid").values()
                if not any(part.fits(current.height) for part in parts):
                    raise PuzzleError(f"a row of {width} cells: no {listing([p.SIDES for p in parts], 'or')} grid "
                                      "is that wide", line=line.number)
            elif len(cells) != current.width:
                broken(line.number, f"line {line.number} has {len(cells)} cells, not {current.width}")
                continue
            elif current.tokens is None:
                current.tokens = tokens
            current.rows.append(cells)
            current.marks.append(marks)
            current.lines.append(line.number)
            if current.complete:
                grids.append(current)
                current = None
    if current is not None:
        broken(current.lines[-1], "the file ends")
    return grids, errors


def _width(text: str, tokens: bool | None) -> int:
    if not text or _is_text(text) or _is_rule(text):
        return -1
    parsed = _cells(text.split(";")[0], tokens)
    return len(parsed[0]) if parsed else -1


def looks_like(text: str) -> bool:
    """Does the text open with a bare grid (rows of the same width, as many as the width, or one
    line of N*N cells), possibly after title lines?"""
    return bool(_scan_head(text)[0])


def _scan_head(text: str, limit: int = 200) -> tuple[list[ScannedGrid], list[PuzzleError]]:
    """:func:`_scan` of the text's first ``limit`` non-blank lines (enough for the first grid)."""
    kept, count = [], 0
    for line in text.splitlines():
        kept.append(line)
        count += bool(line.strip())
        if count >= limit:
            break
    try:
        return _scan("\n".join(kept), None)
    except PuzzleError:
        return [], []


# ---------------------------------------------------------------- puzzles

def read(text: str, path: str, puzzle: str | None, rules, layout: Layout = Layout()) -> list:
    readers = {kind: part.read for kind, part in layout_parts("grid").items()}
    if puzzle not in (None, *readers):
        raise PuzzleError(f"the grid format holds only {listing(readers)} puzzles, not {puzzle}")
    grids, errors = _scan(text, layout.size)
    if not grids:
        if errors:
            raise errors[0]
        raise PuzzleError("the file holds no grid: expected N rows of N cells")
    if puzzle is not None:
        items = readers[puzzle](grids, path, rules, layout)
    else:
        items = lines.read_either(readers, grids, path, rules, layout, unit="grid")
    return sorted(items + errors, key=_line_of)


def _line_of(item) -> int:
    return (item.line if isinstance(item, (Entry, PuzzleError)) else None) or 0


# ---------------------------------------------------------------- solutions

def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solutions the file gives ``puzzle``: those titled "Solution" after the grid named like
    the puzzle, when the file titles its solutions; else every grid of the file."""
    items = _solution_entries(text, puzzle)
    titled = [e for e in items if e.solutions]
    if titled:
        pick = [e for e in titled if e.name == puzzle.name] if len(titled) > 1 else titled
        return [(e.line, s) for e in pick for s in e.solutions]
    return [(e.line, _full(e, puzzle)) for e in items]


def read_solution_per_puzzle(text: str, puzzles) -> list[tuple[int, np.ndarray]]:
    """One solution for each of ``puzzles`` in order: the titled solution of each puzzle's grid, or
    the file's grids one per puzzle."""
    items = _solution_entries(text, puzzles[0])
    titled = [e for e in items if e.solutions]
    if titled:
        by_name = {e.name: e for e in titled}
        missing = [p.name for p in puzzles if p.name not in by_name]
        if missing:
            raise PuzzleError(f"the file gives no solution for puzzle {missing[0]}")
        return [(by_name[p.name].line, by_name[p.name].solutions[0]) for p in puzzles]
    if len(items) != len(puzzles):
        raise PuzzleError(f"the file holds {len(items)} grid(s) for {len(puzzles)} puzzles: a solution file for "
                          "a file of several puzzles holds one grid per puzzle, in order")
    return [(e.line, _full(e, p)) for e, p in zip(items, puzzles)]


def _solution_entries(text: str, puzzle) -> list[Entry]:
    part = solution_part(puzzle, "grid")
    grids, errors = _scan(text, part.solution_size(puzzle))
    if errors:
        raise errors[0]
    titled = any(g.title.lower().startswith("solution") for g in grids)  # else every grid is a solution
    return entries_only(part.solutions(grids, puzzle, titled))


def _full(entry: Entry, puzzle) -> np.ndarray:
    grid = entry.solution if entry.solution is not None else entry.puzzle.givens
    if grid.shape != puzzle.shape:
        raise PuzzleError(f"the solution is {grid.shape[0]} x {grid.shape[1]}, the puzzle "
                          f"{puzzle.shape[0]} x {puzzle.shape[1]}", line=entry.line)
    return grid


# ---------------------------------------------------------------- writing

def format_puzzle(puzzle) -> str:
    return puzzle_part(puzzle, "grid").format_puzzle(puzzle)


def format_solution(puzzle, grid: np.ndarray) -> str:
    return solution_part(puzzle, "grid").format_solution(puzzle, grid)
