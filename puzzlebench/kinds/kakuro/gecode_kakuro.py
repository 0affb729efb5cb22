"""Kakuro specifications as C++ integer arrays, the layout of Gecode's ``examples/kakuro.cpp``.

Every array ``int NAME[] = { ... };`` of the file holding two ``-1`` markers is
a puzzle, named by the array (``k0``, ``k1``, ...)::

    const int k0[] = {
      12,10,                       // width, height
       2, 0, 5,16,   3, 0, 2, 4,   // vertical hints: x, y, length, sum
      -1,
       1, 1, 2, 7,   4, 1, 3, 9,   // horizontal hints
      -1
    };

``x`` is the column and ``y`` the row of the hint's clue cell, both 0-based; a
vertical hint's run is the cells below it, ``(x, y+1) .. (x, y+length)``, a
horizontal one the cells right of it.  Cells in no run are blocks.  C
comments (``//``, ``/* */``) are ignored anywhere; other arrays (without two
``-1``) are not puzzles.  A run whose length is not that of the white cells
after its clue is refused at its line.  No solutions.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.entry import Entry
from ...toolkit.layout import Layout
from ...toolkit.rules import Rules
from ...toolkit.text import MAX_SIDE, build_located, read_only
from .. import require_applicable
from .puzzle import Kakuro

PUZZLES = ("kakuro",)
SUFFIXES = (".cpp", ".cc", ".cxx", ".hh", ".hpp", ".h")
HINT = "Gecode's C++ arrays"
DETECT = "source"
"""Detection takes a file with a C++ suffix (:data:`SUFFIXES`) or whose text :func:`looks_like` an array,
before any other test but a ``.dzn`` suffix (:func:`puzzlebench.io.detect.candidates`)."""
PLACE = 12
"""The format's place in ``--format``'s list and among detection's tests (:data:`puzzlebench.io.PLACES`)."""
_ARRAY = re.compile(r"\bint\s+([A-Za-z_][A-Za-z0-9_]*)\s*\[\s*[0-9]*\s*\]\s*=\s*\{([^{}]*)\}")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_INT = re.compile(r"-?[0-9]+")


def looks_like(text: str) -> bool:
    return any(m[2].count("-1") >= 2 for m in _ARRAY.finditer(_strip(text[:200000])))


def _strip(text: str) -> str:
    """The text with comments blanked out (line breaks kept, so line numbers stay)."""
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), text)


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the gecode-kakuro format holds only kakuro puzzles, not {puzzle}")
    require_applicable(rules, PUZZLES[0])
    code = _strip(text)
    entries = []
    for match in _ARRAY.finditer(code):
        values = [(int(v.group()), code.count("\n", 0, match.start(2) + v.start()) + 1)
                  for v in _INT.finditer(match[2])]
        if sum(v == -1 for v, _ in values) < 2:
            continue
        line = code.count("\n", 0, match.start()) + 1
        try:
            entries.append(Entry(_kakuro(values, match[1], line), match[1], path, line))
        except PuzzleError as err:
            entries.append(err.locate(None, line))
    if not entries:
        raise PuzzleError("the file has no array int NAME[] = { w, h, hints, -1, hints, -1 }")
    return entries


def _kakuro(values: list[tuple[int, int]], name: str, line: int) -> Kakuro:
    if len(values) < 4:
        raise PuzzleError(f"{name} is too short for width, height and two -1 markers")
    (w, _), (h, _) = values[0], values[1]
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise PuzzleError(f"{name}: width {w} and height {h} must be 1..{MAX_SIDE}")
    white = np.zeros((h, w), bool)
    layers = {"down": np.zeros((h, w), np.int64), "across": np.zeros((h, w), np.int64)}
    hints = {"down": [], "across": []}
    pos = 2
    for direction in ("down", "across"):
        while True:
            if pos >= len(values):
                raise PuzzleError(f"{name}: the {direction} hints have no closing -1", line=values[-1][1])
            if values[pos][0] == -1:
                pos += 1
                break
            group = values[pos:pos + 4]
            if len(group) < 4 or any(v < 0 for v, _ in group):
                raise PuzzleError(f"{name}: a {direction} hint is not four numbers x, y, length, sum",
                                  line=group[0][1])
            (x, y, length, total), at = [v for v, _ in group], group[0][1]
            hints[direction].append((x, y, length, total, at))
            pos += 4
    if pos != len(values):
        raise PuzzleError(f"{name}: numbers after the second -1", line=values[pos][1])
    for direction, step in (("down", (1, 0)), ("across", (0, 1))):
        for x, y, length, total, at in hints[direction]:
            cells = [(y + step[0] * k, x + step[1] * k) for k in range(1, length + 1)]
            if not (0 <= x < w and 0 <= y < h) or any(not (0 <= r < h and 0 <= c < w) for r, c in cells):
                raise PuzzleError(f"{name}: the {direction} hint ({x}, {y}, {length}, {total}) reaches outside the "
                                  f"{w} x {h} grid", line=at)
            if layers[direction][y, x]:
                raise PuzzleError(f"{name}: a second {direction} hint at ({x}, {y})", line=at)
            layers[direction][y, x] = total
            for cell in cells:
                white[cell] = True
    for direction, step in (("down", (1, 0)), ("across", (0, 1))):
        for x, y, length, total, at in hints[direction]:
            if white[y, x]:
                raise PuzzleError(f"{name}: the {direction} hint at ({x}, {y}) is on a cell of another run", line=at)
            r, c, actual = y + step[0], x + step[1], 0
            while r < h and c < w and white[r, c]:
                actual, r, c = actual + 1, r + step[0], c + step[1]
            if actual != length:
                raise PuzzleError(f"{name}: the {direction} hint ({x}, {y}, {length}, {total}) covers {length} cells, "
                                  f"but {actual} white cells follow its clue", line=at)
    return build_located(lambda: Kakuro(white, layers["across"], layers["down"], name), [], line)


unsupported_solutions, read_solutions, format_puzzle, format_solution = read_only(
    "gecode-kakuro", "Gecode's Kakuro arrays", "native, kakuro-csv or dzn")
