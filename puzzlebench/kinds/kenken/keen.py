"""The ``keen`` format: Simon Tatham's Keen game IDs (KenKen), one a line.

An ID is ``N[flags]:BLOCKS,CLUES`` as ``keen.c`` writes it (``6:a_10a4_a__...,d3a7d2s1...``): an
N x N grid (N = 1..9; the flags after N, a difficulty ``dX`` and ``m`` for multiplication only, are
ignored).  BLOCKS is the block code Solo uses for its Killer cages
(:func:`puzzlebench.toolkit.syntax.tatham.decode_block_structure`): the 2*N*(N-1) boundaries between
neighbouring cells -- first those between horizontal neighbours in reading order, then those between
vertical neighbours column by column -- as runs, ``_`` a wall, ``a``..``y`` 1..25 open boundaries
and a wall, ``z`` 26 open boundaries and no wall, and a number after a character repeating it
(``_10`` is ten walls).  CLUES gives each block, in the order of its first cell (row-major), an
operation letter -- ``a`` add, ``m`` multiply, ``s`` subtract, ``d`` divide -- and its target; a
one-cell block's clue (``a3``) is its digit.

``#`` comment lines and blank lines are skipped; IDs are named by their 1-based index.  A line
that is no Keen ID, or a puzzle that breaks KenKen's rules, is refused at its line and the others
are read.  Detection: a first content line of that shape, with a CLUES part of ``a``/``m``/``s``/``d``
and numbers (no Solo or Unruly ID has one: io's tatham reader refuses such a line, naming this
format).  Game IDs hold no solutions.
"""

from __future__ import annotations

import re

from ...errors import PuzzleError
from ...toolkit.entry import Entry
from ...toolkit.syntax.tatham import decode_block_structure
from ...toolkit.text import build_located, content_lines, read_only, split_lines
from .published import cage
from .puzzle import MAX_SIZE, KenKen

PUZZLES = ("kenken",)
HINT = "a Keen game ID '6:a_10a4_...,d3a7d2...'"
ID = re.compile(r"([0-9]{1,3})([a-z]*):([_a-z0-9]*),((?:[asmd][0-9]{1,12})+)")
_CLUE = re.compile(r"([asmd])([0-9]+)")
_LETTERS = {"a": "add", "m": "mul", "s": "sub", "d": "div"}

unsupported_solutions, read_solutions, format_puzzle, format_solution = read_only(
    "keen", "Keen game IDs", "native")


def looks_like(text: str) -> bool:
    """A first content line that is a Keen ID."""
    first = next(iter(content_lines(split_lines(text[:20000]))), None)
    return first is not None and ID.fullmatch(first.text) is not None


def read(text: str, path: str, puzzle: str | None, rules=None, layout=None) -> list:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the keen format holds only kenken puzzles, not {puzzle}")
    items = []
    for line in content_lines(split_lines(text)):
        name = str(len(items) + 1)
        try:
            items.append(Entry(parse_id(line.text, name), name, path, line.number))
        except PuzzleError as err:
            items.append(err.locate(None, line.number))
    return items


def parse_id(game_id: str, name: str = "") -> KenKen:
    """The KenKen of one Keen game ID."""
    match = ID.fullmatch(game_id)
    if not match:
        raise PuzzleError(f"not a Keen game ID 'N:BLOCKS,CLUES' such as '6:_a_4a...,a9m6s1...': {game_id[:40]!r}")
    n = int(match[1])
    if not 1 <= n <= MAX_SIZE:
        raise PuzzleError(f"a Keen ID of size {n}: a KenKen is 1x1 to {MAX_SIZE}x{MAX_SIZE}")
    labels = decode_block_structure(match[3], n, repeats=True, what="blocks").ravel()
    first: dict[int, list[tuple[int, int]]] = {}
    for k, label in enumerate(labels.tolist()):  # blocks in the order of their first cell
        first.setdefault(label, []).append(divmod(k, n))
    blocks = list(first.values())
    clues = _CLUE.findall(match[4])
    if len(clues) != len(blocks):
        raise PuzzleError(f"the ID has {len(blocks)} blocks and {len(clues)} clues")
    cages = []
    for k, (cells, (letter, value)) in enumerate(zip(blocks, clues), start=1):
        r, c = cells[0]
        cages.append(cage(cells, _LETTERS[letter], int(value[:12]),
                          f"block {k} (at row {r + 1}, column {c + 1}, clue {letter}{value})"))
    return build_located(lambda: KenKen(n, tuple(cages), name), [], None)
