"""A grid written as one word (the lines layout, :mod:`puzzlebench.io.lines`): N*N symbols row-major, no
separator among them, N 4 to 36; one puzzle or solution a line."""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from .. import symbols
from ..layout import Layout
from ..rules import MAX_SUDOKU
from ..text import TextLine, content_lines, split_lines

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZa"
BLANKS = ".0"
_SEPARATORS = set(",;|\"'")
MIN_SIZE = 4
_LENGTHS = {n * n: n for n in range(MIN_SIZE, MAX_SUDOKU + 1)}

_VALUE = np.full(256, -1, dtype=np.int64)
for _value, _symbol in enumerate(SYMBOLS, start=1):
    _VALUE[ord(_symbol)] = _value
for _symbol in BLANKS:
    _VALUE[ord(_symbol)] = 0


def decode(word: str, n: int) -> np.ndarray | None:
    """The n x n grid a word spells in the default alphabet (0 for blanks), or None if a character
    is not a symbol of 0..n."""
    if not word.isascii():
        return None
    values = _VALUE[np.frombuffer(word.encode("ascii"), dtype=np.uint8)]
    if ((values < 0) | (values > n)).any():
        return None
    return values.reshape(n, n)


def has_grid_length(word: str) -> bool:
    """Is ``word`` as long as a grid word of some size 4..36 (16, 81, ... 1296 characters)?"""
    return len(word) in _LENGTHS


def is_grid_word(word: str) -> bool:
    """Is ``word`` a grid word: N*N characters (N = 4..36), none of them a separator?"""
    return len(word) in _LENGTHS and _SEPARATORS.isdisjoint(word)


def side_of(word: str, size: tuple[int, int] | None = None) -> int | None:
    """The side N of a grid word of N*N symbols (that of ``size`` when given), else None."""
    n = _LENGTHS.get(len(word)) if is_grid_word(word) else None
    return n if n is not None and (size is None or size == (n, n)) else None


def decode_rows(rows: list, layout: Layout, blank_free: bool = False) -> dict[int, list]:
    """Line number -> its grids, each size read with the one alphabet of all the file's words of
    that size, or a PuzzleError for a line whose word holds a symbol that alphabet cannot read
    (that line is left out of the inference, and the others are read)."""
    by_size: dict[int, list] = {}
    for line, n, words, _ in rows:
        by_size.setdefault(n, []).append((line, words))
    grids: dict[int, list] = {}
    for n, found in by_size.items():
        while found:
            words = [w for _, ws in found for w in ws]
            owners = [k for k, (_, ws) in enumerate(found) for _ in ws]
            try:
                decoded = symbols.decode(words, n, layout.symbols, blank_free=blank_free)
            except PuzzleError as err:
                if err.row is None:
                    raise err.locate(None, found[0][0].number)
                line = found.pop(owners[err.row])[0]
                grids[line.number] = err.locate(None, line.number)
                continue
            k = 0
            for line, ws in found:
                grids[line.number] = list(decoded[k:k + len(ws)])
                k += len(ws)
            break
    return grids


def encode(grid: np.ndarray) -> str:
    """A grid as one word, ``.`` for blanks."""
    return "".join(SYMBOLS[v - 1] if v > 0 else "." for v in np.asarray(grid).ravel().tolist())


def solution_lines(text: str, puzzle) -> list[TextLine]:
    """The line of a lines solution file that holds ``puzzle``'s solution, as a list of one: the only line,
    or in a file of several lines the one of number ``puzzle.name`` (1-based, lines counted without
    comments)."""
    found = content_lines(split_lines(text))
    if len(found) > 1:
        name = puzzle.name
        index = int(name) if name.isascii() and name.isdecimal() else 0
        if not 1 <= index <= len(found):
            raise PuzzleError(f"the file holds {len(found)} solutions, one per line, and puzzle {name!r} "
                              f"does not pick one (expected a puzzle named 1..{len(found)})")
        found = [found[index - 1]]
    return found
