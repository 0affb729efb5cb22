"""KenKen's native text format, with the conventions of :mod:`puzzlebench.io.native`.

Header ``kenken N`` (N = 1..9), then N rows of cage labels (any token per cage:
``A``, ``b``, ``12``; a cage's cells must be connected; a row may be one word of N
characters), then one line ``LABEL CLUE`` per cage, the clue being the target
followed by the operation -- ``+``, ``-``, ``x`` (or ``*``), ``/`` -- or the bare
target for a one-cell cage.  Blank lines and ``#`` comment lines are ignored; a
file may hold several puzzles, named "1", "2", ... in file order::

    kenken 4
    A A A B
    C D E B
    C D E F
    G H I F
    A 8+
    B 2/
    C 6x
    D 2/
    E 1-
    F 1-
    G 1
    H 4
    I 2

(``instances/kenken/generated/kenken-04x04-05.txt``, whose one solution is
4312 / 3241 / 2134 / 1423.)

A solution file has no header: the N rows of digits 1..N, one grid per puzzle
of the file in order, or for a file of one puzzle every solution one after the
other.  Errors name the file and line (``path:line: problem``).
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.regions import cage_labels, label_regions
from ...toolkit.text import Cursor, TextLine, as_uint, build_located, parse_row, row_cells, split_lines
from .published import SPELLINGS
from .puzzle import KenKen, KenKenCage

HEADER = "kenken"
_CLUE = re.compile(r"([0-9]{1,7})([-+x*/]?)")


def read_kenken(text: str, path: str) -> list[KenKen]:
    """Every puzzle of a native KenKen file's ``text`` (the generic reader,
    :func:`puzzlebench.io.native.read`, reads the same files among other kinds'); a problem is a
    PuzzleError naming ``path`` and the line."""
    from ..header import parse_header
    from ...toolkit.rules import Rules
    cursor = Cursor(split_lines(text))
    puzzles = []
    try:
        while (line := cursor.take()) is not None:
            header = parse_header(line)
            if header.kind != HEADER:
                raise PuzzleError(f"this is a {header.kind} puzzle, not kenken", line=line.number)
            puzzles.append(read_native(cursor, header, Rules(), str(len(puzzles) + 1),
                                       f"the puzzle at line {line.number}"))
    except PuzzleError as err:
        raise err.locate(path) from None
    return puzzles


def read_native(cursor: Cursor, header, rules, name: str, where: str) -> KenKen:
    """The grid of cage labels and the clue lines after the header ``kenken N`` (``header``, an
    :class:`puzzlebench.kinds.header.Header`) that the cursor has just taken; KenKen has no rule options."""
    from .. import names
    n = header.rows
    rows = cursor.take_rows(n, where)
    labels = [row_cells(row, n) for row in rows]
    row_lines = [r.number for r in rows]
    index, order = build_located(lambda: label_regions(labels), row_lines, header.line)
    region_of = {label: k for k, label in enumerate(order)}
    clues: dict[int, tuple[str, int]] = {}
    kinds = set(names())
    while (line := cursor.peek()) is not None and line.text.split()[0] not in kinds:
        cursor.take()
        _read_clue(line, region_of, clues)
    for k, label in enumerate(order):
        if k not in clues:
            raise PuzzleError(f"cage {label} has no clue line ('{label} TARGET[+-x/]')",
                              line=row_lines[int(np.argwhere(index == k)[0][0])])
    cells: list[list[tuple[int, int]]] = [[] for _ in order]
    for r, c in np.ndindex(n, n):
        cells[index[r, c]].append((r, c))
    cages = tuple(KenKenCage(tuple(cs), *clues[k]) for k, cs in enumerate(cells))
    return build_located(lambda: KenKen(n, cages, name), row_lines, header.line)


def _read_clue(line: TextLine, region_of: dict, clues: dict) -> None:
    tokens = line.text.split()
    match = _CLUE.fullmatch(tokens[1]) if len(tokens) == 2 else None
    if match is None:
        raise PuzzleError(f"expected a cage clue 'LABEL TARGET[+-x/]' (such as 'A 12+') or the next "
                          f"puzzle's header, got {line.text[:40]!r}", line=line.number)
    label, target, op = tokens[0], int(match[1]), SPELLINGS[match[2]]
    if label not in region_of:
        raise PuzzleError(f"clue for cage {label}, but no cell of the grid is labelled {label}", line=line.number)
    k = region_of[label]
    if k in clues:
        raise PuzzleError(f"cage {label} has a second clue", line=line.number)
    clues[k] = (op, target)


def format_kenken(puzzle: KenKen) -> str:
    """The native text of ``puzzle``; cages labelled in order of their first cell (row-major)."""
    first: dict[int, int] = {}
    for k in puzzle.cage_index.ravel().tolist():
        first.setdefault(k, len(first))
    labels = cage_labels(len(first))
    width = max(len(label) for label in labels)
    grid = "".join(" ".join(labels[first[k]].rjust(width) for k in row).rstrip() + "\n"
                   for row in puzzle.cage_index.tolist())
    by_label = sorted(first.items(), key=lambda item: item[1])
    return f"{HEADER} {puzzle.n}\n" + grid + "".join(f"{labels[number]} {puzzle.cages[k].label}\n"
                                                      for k, number in by_label)


def read_kenken_solutions(text: str, puzzle: KenKen, path: str = "") -> list[tuple[int, np.ndarray]]:
    """Every solution grid of a solution file as (first line, grid)."""
    cursor = Cursor(split_lines(text))
    grids = []
    try:
        while (first := cursor.peek()) is not None:
            rows = cursor.take_rows(puzzle.n, f"the solution at line {first.number}")
            grids.append((first.number, np.array([parse_row(row, puzzle.n, _digit(puzzle.n), f"a digit 1..{puzzle.n}")
                                                  for row in rows], dtype=np.int64)))
    except PuzzleError as err:
        raise err.locate(path or None) from None
    return grids


def solution_cell(puzzle: KenKen):
    """KenKen solution tokens: the digits 1..N."""
    return _digit(puzzle.n), f"a digit 1..{puzzle.n}"


def _digit(n: int):
    """Token -> digit 1..n, None if invalid."""
    def cell(token: str) -> int | None:
        value = as_uint(token)
        return value if value is not None and 1 <= value <= n else None
    return cell


def format_kenken_solution(puzzle: KenKen, grid) -> str:
    """The solution grid as rows of digits."""
    grid = np.asarray(grid, dtype=np.int64)
    if grid.shape != puzzle.shape:
        raise PuzzleError(f"the solution is {' x '.join(map(str, grid.shape))}, the puzzle {puzzle.n} x {puzzle.n}")
    return "".join(" ".join(map(str, row)) + "\n" for row in grid.tolist())
