"""Simon Tatham's block code (:mod:`puzzlebench.io.tatham`): Solo's cages and Keen's blocks as runs of
open cell boundaries."""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError


def _boundary(pos: int, n: int) -> tuple[int, int]:
    """The two flat cells either side of Solo's cell boundary number ``pos``."""
    if pos < n * (n - 1):
        y, x = divmod(pos, n - 1)
        return y * n + x, y * n + x + 1
    x, y = pos // (n - 1) - n, pos % (n - 1)
    return y * n + x, (y + 1) * n + x


_BLOCK_TOKEN = re.compile(r"([_a-z])([0-9]*)|(.)")


def decode_block_structure(spec: str, n: int, repeats: bool = False, what: str = "cages") -> np.ndarray:
    """Tatham's block code (Solo's cages, Keen's blocks) -> a grid labelling each cell by a
    representative cell of its block.  ``spec`` lists the 2*n*(n-1) cell boundaries in the order of
    :func:`_boundary` as runs: ``_`` a wall, ``a``..``y`` 1..25 open boundaries and a wall, ``z`` 26
    open boundaries and no wall; with ``repeats`` (Keen) a count after a character repeats it
    (``_10`` is ten walls, ``a4`` is ``aaaa``).  ``what`` names the part in messages."""
    boundaries = 2 * n * (n - 1)
    parent = list(range(n * n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    pos = 0
    for match in _BLOCK_TOKEN.finditer(spec):
        ch, count = match[1], match[2]
        if ch is None or (count and not repeats):
            raise PuzzleError(f"the {what} part has the character {(match[3] or count[0])!r}")
        times = int(count[:6]) if count else 1
        if times == 0:
            raise PuzzleError(f"the {what} part repeats {ch!r} 0 times")
        run = 0 if ch == "_" else ord(ch) - 96
        for _ in range(times):
            if pos + run > boundaries:
                raise PuzzleError(f"the {what} part describes more cell boundaries than the grid has")
            for p in range(pos, pos + run):
                a, b = _boundary(p, n)
                parent[find(a)] = find(b)
            pos += run + (run != 26)
    if pos != boundaries + 1:
        raise PuzzleError(f"the {what} part describes {min(pos, boundaries)} of the grid's {boundaries} "
                          "cell boundaries")
    return np.array([find(i) for i in range(n * n)]).reshape(n, n)


def encode_block_structure(index: np.ndarray) -> str:
    """A grid of block labels (:func:`puzzlebench.toolkit.regions.canonical_index`) in Solo's block code, no
    repeat counts (the inverse of :func:`decode_block_structure`)."""
    n = index.shape[0]
    flat = index.ravel()
    out, run = [], 0
    boundaries = 2 * n * (n - 1)
    for pos in range(boundaries + 1):
        if pos < boundaries:
            a, b = _boundary(pos, n)
            if flat[a] == flat[b]:
                run += 1
                continue
        while run >= 26:
            out.append("z")
            run -= 26
        out.append(chr(96 + run) if run else "_")
        run = 0
    return "".join(out)
