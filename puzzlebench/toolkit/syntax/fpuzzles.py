"""f-puzzles' JSON object (:mod:`puzzlebench.io.killer_json`): its size, grid of cell objects, diagonals
and solution; the keys a kind's part reads beyond them are the part's."""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from ..rules import MAX_SUDOKU

_HARMLESS = {"size", "grid", "diagonal+", "diagonal-", "title", "author", "ruleset",
             "disabledlogic", "truecandidatesoptions", "solution", "highlightconflicts"}
_CELL_HARMLESS = {"value", "given", "givenpencilmarks", "centerpencilmarks", "cornerpencilmarks", "candidates",
                  "highlight", "c", "cosmetic"}


def whole(value, what: str) -> int:
    """``value`` (a number, or a string of digits) as an int; else a PuzzleError naming ``what``."""
    if isinstance(value, str) and value.strip().isdecimal():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{what} is {value!r}, not a whole number")
    return value


def fpuzzles_grid(data: dict, keys: tuple[str, ...]) -> tuple[np.ndarray, bool, np.ndarray | None]:
    """(givens, whether both diagonals hold every digit, the solution or None) of an f-puzzles object; a
    key that neither this reader nor the kind's part reading it reads (``keys``, the part's ``KEYS``) is
    refused, and so is one diagonal."""
    n = whole(data.get("size"), "size")
    if not 4 <= n <= MAX_SUDOKU:
        raise PuzzleError(f"size is {n}; a sudoku grid has 4..{MAX_SUDOKU} rows")
    harmless = _HARMLESS.union(keys)
    unsupported = sorted(k for k, v in data.items() if k.lower() not in harmless and v not in (None, False, [], {}))
    if unsupported:
        raise PuzzleError(f"the f-puzzles file has {unsupported[0]!r}, a rule puzzlebench does not model "
                          "(it reads killer cages, givens and the diagonals)")
    grid = data.get("grid")
    if not (isinstance(grid, list) and len(grid) == n and all(isinstance(row, list) and len(row) == n for row in grid)):
        raise PuzzleError(f"grid must be {n} rows of {n} cell objects")
    givens = np.zeros((n, n), np.int64)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise PuzzleError(f"grid row {r + 1}, column {c + 1} is not a cell object")
            other = sorted(k for k, v in cell.items() if k.lower() not in _CELL_HARMLESS and v not in (None, False, []))
            if other:
                raise PuzzleError(f"grid row {r + 1}, column {c + 1} has {other[0]!r}, which puzzlebench does not "
                                  "model (a jigsaw region?)")
            if cell.get("given") and cell.get("value") is not None:
                givens[r, c] = whole(cell["value"], f"the given at row {r + 1}, column {c + 1}")
    diagonals = [bool(data.get("diagonal+")), bool(data.get("diagonal-"))]
    if any(diagonals) and not all(diagonals):
        raise PuzzleError("the file has one diagonal rule; puzzlebench models Killer-X, both diagonals")
    return givens, all(diagonals), _solution(data.get("solution"), n)


def _solution(found, n: int) -> np.ndarray | None:
    if not found:
        return None
    if not (isinstance(found, list) and len(found) == n * n):
        raise PuzzleError(f"solution must be a list of {n * n} digits")
    values = [whole(v, "a solution digit") for v in found]
    return np.array(values, dtype=np.int64).reshape(n, n)
