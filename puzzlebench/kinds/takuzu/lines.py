"""The takuzu kind's part of io's lines layout (:mod:`puzzlebench.io.lines`): Binairo lines.

A Takuzu line holds ``0`` and ``1`` givens and ``-`` or ``.`` blanks, one word of R*C characters
row-major; the grid is square (the side from the length) unless an ``RxC`` word comes first
(``6x8 0-1-...``).  A second word of ``0``/``1`` only is the solution (of the puzzle's length, else the
line is refused); sides are at most 100; other words are kept in ``Entry.extra["fields"]``::

    -1--0-----0-1---1-0-00------1-0---1- 010101101010010011101100001011110100

The distinct rows and columns rule is an instance-set option (``distinct_lines: true``;
``import --distinct``).  A solution line is the solution word, or the puzzle word when it has none.
"""

from __future__ import annotations

import math
import re
from functools import partial

import numpy as np

from ...errors import PuzzleError
from ...toolkit.entry import Entry
from ...toolkit.layout import Layout
from ...toolkit.rules import Rules
from ...toolkit.text import MAX_SIDE, TextLine, build_located, content_lines, split_lines
from .. import require_applicable
from .puzzle import Takuzu

_VALUE = {"0": 0, "1": 1, "-": -1, ".": -1}
_WORD = re.compile(r"[01.-]+")
_SHAPE = re.compile(r"([0-9]{1,3})x([0-9]{1,3})")


def looks_like(text: str) -> bool:
    """A Takuzu word of 0, 1, '-' and '.' (after an optional RxC)."""
    words = text.split()
    if words and _SHAPE.fullmatch(words[0]):
        words = words[1:]
    return bool(words) and len(words[0]) >= 4 and set(words[0]) <= set("01.-")


def _line_words(line: TextLine, shape: tuple[int, int] | None = None):
    """(shape, puzzle grid, solution grid or None, other words) of a Takuzu line."""
    words = line.text.split()
    if words and (match := _SHAPE.fullmatch(words[0])):
        stated, words = (int(match[1]), int(match[2])), words[1:]
        if not (1 <= stated[0] <= MAX_SIDE and 1 <= stated[1] <= MAX_SIDE):
            raise PuzzleError(f"the size {match[0]} is out of range: sides 1..{MAX_SIDE}", line=line.number)
        if shape is not None and stated != shape:
            raise PuzzleError(f"the line is {match[0]}, the puzzle {shape[0]}x{shape[1]}", line=line.number)
        shape = stated
    if not words or not _WORD.fullmatch(words[0]):
        bad = next((ch for ch in (words[0] if words else "") if ch not in _VALUE), None)
        raise PuzzleError("expected a takuzu line of 0, 1 and '-' or '.' (blank)"
                          + (f", got the character {bad!r}" if bad else ""), line=line.number)
    puzzle = words[0]
    if shape is None:
        side = math.isqrt(len(puzzle))
        if side * side != len(puzzle):
            raise PuzzleError(f"a takuzu line of {len(puzzle)} characters is no square grid; "
                              "put its size RxC first", line=line.number)
        shape = (side, side)
    if max(shape) > MAX_SIDE:
        raise PuzzleError(f"a {shape[0]}x{shape[1]} takuzu is larger than the {MAX_SIDE}x{MAX_SIDE} the "
                          "readers accept", line=line.number)
    if len(puzzle) != shape[0] * shape[1]:
        raise PuzzleError(f"a {shape[0]}x{shape[1]} takuzu has {shape[0] * shape[1]} cells, "
                          f"the line has {len(puzzle)}", line=line.number)
    grid = np.array([_VALUE[ch] for ch in puzzle], dtype=np.int64).reshape(shape)
    solution, others = None, words[1:]
    if others and set(others[0]) <= set("01"):  # a word of 0s and 1s after the puzzle is its solution
        if len(others[0]) != len(puzzle):
            raise PuzzleError(f"the solution word has {len(others[0])} characters, the puzzle {len(puzzle)}",
                              line=line.number)
        solution = np.array([int(ch) for ch in others[0]], dtype=np.int64).reshape(shape)
        others = others[1:]
    return shape, grid, solution, others


def read(text: str, path: str, rules: Rules, layout: Layout) -> list:
    require_applicable(rules, Takuzu.puzzle)
    entries = []
    for line in content_lines(split_lines(text)):
        name = str(len(entries) + 1)
        try:
            _, grid, solution, others = _line_words(line, layout.size)
            takuzu = build_located(partial(Takuzu, grid, bool(rules.distinct_lines), name), [], line.number)
        except PuzzleError as err:
            entries.append(err)
            continue
        extra = {"fields": others} if others else {}
        entries.append(Entry(takuzu, name, path, line.number, solution, extra))
    return entries


def read_solution(line: TextLine, puzzle: Takuzu) -> np.ndarray:
    """The solution grid of ``puzzle`` on ``line``: its solution word, else its puzzle word."""
    _, grid, solution, _ = _line_words(line, puzzle.shape)
    return solution if solution is not None else grid


def _word(grid: np.ndarray) -> str:
    return "".join("-" if v < 0 else str(v) for v in np.asarray(grid).ravel().tolist())


def _prefix(shape: tuple[int, int]) -> str:
    return "" if shape[0] == shape[1] else f"{shape[0]}x{shape[1]} "


def format_puzzle(puzzle: Takuzu) -> str:
    if puzzle.distinct_lines:
        raise PuzzleError("the lines format cannot state the distinct rows and columns rule; use the native "
                          "format or the set option distinct_lines: true")
    return _prefix(puzzle.shape) + _word(puzzle.givens) + "\n"


def format_solution(puzzle: Takuzu, grid: np.ndarray) -> str:
    if not np.isin(grid, (0, 1)).all():
        raise PuzzleError("a takuzu solution holds 0 and 1 only")
    return _prefix(puzzle.shape) + _word(grid) + "\n"
