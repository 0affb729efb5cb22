"""The sudoku kind's part of io's tatham layout (:mod:`puzzlebench.io.tatham`): Solo IDs without ``k``.

Solo's ``CxR`` gives boxes of C rows by R columns (Tatham counts C columns and R rows *of boxes*), so the
grid is CR x CR: ``3x3``, ``2x3`` (6x6, boxes 2 rows x 3 columns), ``3x4``.  Flags after the size: ``k``
Killer (the killer kind's part), ``x`` both diagonals hold every digit (Killer only), ``j`` jigsaw (not
supported); symmetry and difficulty letters are ignored.  DESC is the grid row-major: a number is a given
(numbers written next to each other are separated by ``_``), a letter ``a``..``z`` is a run of 1..26 blanks.
Solo's number code and its size checks are shared with the killer kind's part.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.rules import MAX_SUDOKU, Rules
from ...toolkit.text import build_located
from .. import require_applicable
from .puzzle import Sudoku

GAME = "Solo"
_TOKEN = re.compile(r"[a-z]|_|[1-9][0-9]*|.")


def looks_like(sides: tuple[int, int], flags: str, desc: str) -> bool:
    """Is an ID a Solo ID rather than an Unruly one, from the ID alone?  Digits, ``_`` or ``,`` in DESC, a
    ``k`` or ``j`` flag or an odd side say Solo (Unruly sides are even); else upper-case letters in DESC or
    a first flag ``u`` say Unruly; else it is Solo when DESC's runs of blanks fill the grid."""
    a, b = sides
    if re.search(r"[0-9_,]", desc) or set(flags) & set("kj") or a % 2 or b % 2:
        return True
    if re.search(r"[A-Z]", desc) or flags.startswith("u"):
        return False
    return sum(ord(ch) - 96 for ch in desc if "a" <= ch <= "z") == (a * b) ** 2


def takes(flags: str) -> bool:
    """A Solo ID without ``k`` is a Sudoku."""
    return "k" not in flags


def side(sides: tuple[int, int], flags: str) -> int:
    """The side CR of a Solo grid; a jigsaw or a grid larger than the readers take is refused."""
    c, r = sides
    n = c * r
    if "j" in flags:
        raise PuzzleError("jigsaw Solo puzzles (irregular boxes) are not supported")
    if not 1 <= n <= MAX_SUDOKU:
        raise PuzzleError(f"Solo size {c}x{r} gives a {n}x{n} grid; at most {MAX_SUDOKU}x{MAX_SUDOKU} is supported")
    return n


def read(sides: tuple[int, int], flags: str, desc: str, rules: Rules, name: str) -> Sudoku:
    n = side(sides, flags)
    if "x" in flags:
        raise PuzzleError("Solo's X (diagonal) rule is supported for Killer puzzles only ('xk')")
    require_applicable(rules.overridden(box=sides), Sudoku.puzzle)
    if "," in desc:
        raise PuzzleError("a Solo ID without 'k' has a single grid part (no commas)")
    givens = decode_numbers(desc, n * n, n, "grid").reshape(n, n)
    return build_located(lambda: Sudoku(givens, *sides, name), [], None)


def decode_numbers(spec: str, area: int, largest: int, what: str) -> np.ndarray:
    """A Solo run-length grid: numbers 1..largest, letters for runs of blanks (0)."""
    cells: list[int] = []
    for token in _TOKEN.findall(spec):
        if "a" <= token <= "z" and len(token) == 1:
            cells.extend([0] * (ord(token) - 96))
        elif token[0] in "123456789":
            value = int(token) if len(token) <= 6 else largest + 1
            if value > largest:
                raise PuzzleError(f"the {what} part has the number {token[:8]}, larger than {largest}")
            cells.append(value)
        elif token != "_":
            raise PuzzleError(f"the {what} part has the character {token!r}")
        if len(cells) > area:
            raise PuzzleError(f"the {what} part describes more than the {area} cells of the grid")
    if len(cells) < area:
        raise PuzzleError(f"the {what} part describes {len(cells)} cells, expected {area}")
    return np.array(cells, dtype=np.int64)


def encode_numbers(values) -> str:
    """Numbers (0 a blank) in Solo's run-length code."""
    out, run = [], 0
    for v in list(values) + [-1]:
        if v == 0:
            run += 1
            continue
        if run:
            while run > 0:
                step = min(run, 26)
                out.append(chr(96 + step))
                run -= step
        elif out and v > 0:
            out.append("_")
        if v > 0:
            out.append(str(v))
    return "".join(out)


def format_puzzle(puzzle: Sudoku) -> str:
    return f"{puzzle.box_rows}x{puzzle.box_cols}:{encode_numbers(puzzle.givens.ravel().tolist())}\n"
