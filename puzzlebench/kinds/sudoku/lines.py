"""The sudoku kind's part of io's lines layout (:mod:`puzzlebench.io.lines`): a Sudoku is a grid word.

A puzzle is one grid word of N*N characters, row-major; the size comes from the length (16, 81, 256,
625 or 1296 characters: 4x4 .. 36x36; any N from 4 to 36) and the box shape is the squarest one unless
the instance set's ``options: {box: RxC}`` says otherwise (``--size N`` forces one size).  Symbols: 9x9
``1``-``9`` with one blank (``.``, ``0``, ``*``, ...); 16x16 ``1-9A-G``, ``0-9A-F`` (``0`` a digit, ``.``
the blank), ``A-P`` ...

A line may carry more words, as the Sudoku Exchange banks do (``<hash> <81 digits> <rating>`` and
``<81 puzzle> <81 solution>``): the words of the line's longest grid length N*N are its grids, the first
the puzzle and a second one its reference solution (no blanks); the other words are kept in
``Entry.extra["fields"]``.  A solution line's grid is its second grid word if it has two, else the first.
The sudoku-csv format reads its rows' grid words here too (:func:`sudoku_entries`).
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from ...errors import PuzzleError
from ...toolkit import symbols
from ...toolkit.entry import Entry
from ...toolkit.layout import Layout
from ...toolkit.rules import MAX_SUDOKU, Rules
from ...toolkit.syntax.grid_words import MIN_SIZE, SYMBOLS, decode_rows, encode, is_grid_word, side_of
from ...toolkit.text import TextLine, build_located, content_lines, split_lines
from .. import require_applicable
from .puzzle import Sudoku


def looks_like(text: str) -> bool:
    """Does a line hold a word of N*N characters one alphabet reads as a Sudoku?"""
    for word in text.split():
        n = side_of(word)
        if n is not None:
            try:
                symbols.decode([word], n)
            except PuzzleError:
                continue
            return True
    return False


def _size_of(line: TextLine, size: tuple[int, int] | None) -> int:
    """The grid side of a line: that of its longest grid word (or of --size)."""
    lengths = [len(w) for w in line.text.split() if is_grid_word(w)]
    if size is not None:
        if size[0] != size[1] or size[0] * size[0] not in lengths:
            raise PuzzleError(f"the line holds no word of {size[0] * size[1]} characters, the "
                              f"{size[0]}x{size[1]} sudoku's cells", line=line.number)
        return size[0]
    if not lengths:
        longest = max(line.text.split(), key=len)
        raise PuzzleError(f"expected a sudoku of 16, 81, 256, 625 or 1296 (N*N for N = 4..36) characters, "
                          f"got {len(longest)} characters", line=line.number)
    return math.isqrt(max(lengths))


def read(text: str, path: str, rules: Rules, layout: Layout) -> list:
    require_applicable(rules, Sudoku.puzzle)
    rows = []  # (line, side, grid words, other words) or a PuzzleError
    for line in content_lines(split_lines(text)):
        try:
            n = _size_of(line, layout.size)
        except PuzzleError as err:
            rows.append(err)
            continue
        words = line.text.split()
        grid_words = [w for w in words if len(w) == n * n and is_grid_word(w)]
        rows.append((line, n, grid_words[:2], [w for w in words if w not in grid_words[:2]]))
    return sudoku_entries(rows, path, rules, layout, "the second grid word, the solution,")


def sudoku_entries(rows: list, path: str, rules: Rules, layout: Layout, solution: str) -> list:
    """The Sudoku entries of ``rows``, each (line, side, [puzzle word, solution word?], other words)
    or a PuzzleError, their words read with one alphabet per size
    (:func:`puzzlebench.toolkit.syntax.grid_words.decode_rows`); named by position; ``solution`` names the solution word
    in the message when it has blanks."""
    grids = decode_rows([r for r in rows if not isinstance(r, PuzzleError)], layout)
    entries = []
    for row in rows:
        name = str(len(entries) + 1)
        if isinstance(row, PuzzleError):
            entries.append(row)
            continue
        line, n, _, others = row
        try:
            if isinstance(grids[line.number], PuzzleError):
                raise grids[line.number]
            puzzle_grid, *found = grids[line.number]
            if found and (found[0] == 0).any():
                raise PuzzleError(f"{solution} has blanks", line=line.number)
            br, bc = rules.box_for(n)
            sudoku = build_located(partial(Sudoku, puzzle_grid, br, bc, name), [], line.number)
        except PuzzleError as err:
            entries.append(err.locate(None, line.number))
            continue
        extra = {"fields": others} if others else {}
        entries.append(Entry(sudoku, name, path, line.number, found[0] if found else None, extra))
    return entries


def read_solution(line: TextLine, puzzle: Sudoku) -> np.ndarray:
    """The solution grid of ``puzzle`` (a Sudoku or a Killer) on ``line``."""
    n = _size_of(line, puzzle.shape)
    words = [w for w in line.text.split() if len(w) == n * n and is_grid_word(w)][:2]
    grids = decode_rows([(line, n, words[-1:], [])], Layout(), blank_free=True)[line.number]
    if isinstance(grids, PuzzleError):
        raise grids
    return grids[-1]


def format_puzzle(puzzle: Sudoku) -> str:
    if not MIN_SIZE <= puzzle.n <= MAX_SUDOKU:
        raise PuzzleError(f"the lines format holds sudoku of size {MIN_SIZE}..{MAX_SUDOKU}, not {puzzle.n}")
    default = Rules().box_for(puzzle.n)
    if (puzzle.box_rows, puzzle.box_cols) != default:
        raise PuzzleError(f"the lines format cannot state the box shape {puzzle.box_rows}x{puzzle.box_cols} "
                          f"(it implies {default[0]}x{default[1]}); use the native format")
    return encode(puzzle.givens) + "\n"


def format_solution(puzzle: Sudoku, grid: np.ndarray) -> str:
    if ((grid < 0) | (grid > len(SYMBOLS))).any():
        raise PuzzleError(f"the lines format cannot write values outside 0..{len(SYMBOLS)}")
    return encode(grid) + "\n"
