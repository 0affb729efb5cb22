"""The takuzu kind's part of io's tatham layout (:mod:`puzzlebench.io.tatham`): Unruly IDs.

``WxH`` gives W columns and H rows; ``u`` right after the size means rows and columns must be distinct
(Takuzu ``distinct_lines``).  DESC walks the cells row-major: a lower-case letter skips 0..24 cells
(``a``..``y``) and then places a 0, an upper-case one does the same with a 1, and ``z``/``Z`` skips 25
cells; one final letter lands just past the end.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.rules import Rules
from ...toolkit.text import MAX_SIDE, build_located
from .. import require_applicable
from .puzzle import Takuzu

GAME = "Unruly"


def looks_like(sides: tuple[int, int], flags: str, desc: str) -> bool:
    """An Unruly ID has even sides and a DESC of letters (no digits, ``_`` or ``,``)."""
    return not (sides[0] % 2 or sides[1] % 2 or re.search(r"[0-9_,]", desc))


def takes(flags: str) -> bool:
    """Every Unruly ID is a Takuzu."""
    return True


def read(sides: tuple[int, int], flags: str, desc: str, rules: Rules, name: str) -> Takuzu:
    require_applicable(rules, Takuzu.puzzle)
    w, h = sides
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise PuzzleError(f"Unruly size {w}x{h}: sides must be 1..{MAX_SIDE}")
    rules = rules.overridden(distinct_lines=True if flags.startswith("u") else None)
    size = w * h
    grid = np.full(size, -1, dtype=np.int64)
    pos = 0
    for ch in desc:
        if ch in "zZ":
            pos += 25
        elif "a" <= ch <= "y" or "A" <= ch <= "Y":
            pos += ord(ch.lower()) - 97
            if pos < size:
                grid[pos] = int(ch.isupper())
            pos += 1
        else:
            raise PuzzleError(f"the Unruly grid has the character {ch!r}")
        if pos > size + 1:
            raise PuzzleError(f"the Unruly grid describes more than the {size} cells of a {w}x{h} grid")
    if pos != size + 1:
        raise PuzzleError(f"the Unruly grid describes {min(pos, size)} cells, expected {size} and an end mark")
    return build_located(lambda: Takuzu(grid.reshape(h, w), bool(rules.distinct_lines), name), [], None)


def format_puzzle(puzzle: Takuzu) -> str:
    rows, cols = puzzle.shape
    return f"{cols}x{rows}{'u' if puzzle.distinct_lines else ''}:{_encode(puzzle.givens)}\n"


def _encode(givens: np.ndarray) -> str:
    out, run = [], 0
    for v in givens.ravel().tolist() + [None]:
        if v == -1:
            run += 1
            continue
        while run >= 25:
            out.append("z")
            run -= 25
        out.append(chr((65 if v == 1 else 97) + run))
        run = 0
    return "".join(out)
