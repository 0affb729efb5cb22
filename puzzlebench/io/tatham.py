"""Simon Tatham's game IDs (Portable Puzzle Collection), one ID per line: each kind's game.

An ID is ``PARAMS:DESC``: PARAMS one side or two (``3x3``, ``8x6``) and flag letters, DESC the grid;
``#`` comment lines and blank lines are skipped and IDs are named by their 1-based index.  Which
game an ID is of, and how its DESC reads, is the kinds' (:attr:`puzzlebench.kinds.PuzzleKind.layouts`,
``tatham``): Solo (Sudoku, and Killer with the ``k`` flag: ``kinds/sudoku/tatham.py`` and
``kinds/killer/tatham.py``) and Unruly (Takuzu: ``kinds/takuzu/tatham.py``).  With ``--puzzle`` an ID
is read as that kind's game; without, as the game of the first kind (in the kinds' order) whose part
takes it for its game's, and then by the game's kind whose part takes its flags.

Rule markers in the ID (``x``, ``u``) take precedence over instance-set options; when absent, the
options apply.  Game IDs hold no solutions.

Keen (KenKen) IDs are not this format's: a line that a kind's own format claims
(the kenken kind's ``keen``: ``6:BLOCKS,CLUES`` with ``a``/``m``/``s``/``d`` clues) is
refused naming that format, and ``--puzzle kenken`` is refused naming the formats that
hold KenKen.  Keen's block code is Solo's cage code with repeat counts:
:func:`decode_block_structure` reads both.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import PuzzleError
from ..kinds import kind_of, layout_parts
from ..toolkit.entry import Entry
from ..toolkit.rules import Rules
from ..toolkit.text import content_lines, listing, split_lines
from .parts import layout_holds

ID = re.compile(r"([0-9]{1,3})(?:x([0-9]{1,3}))?([a-z0-9]*):(.*)")


def __getattr__(name: str):
    if name == "PUZZLES":  # the kinds with a part: computed on use, as the kinds load on first use
        return layout_holds("tatham")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _games(parts: dict, last: str) -> str:
    """The games of the kinds' parts, ``"Solo and Unruly"``."""
    return listing(dict.fromkeys(part.GAME for part in parts.values()), last)


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout=None) -> list:
    parts = layout_parts("tatham")
    if puzzle not in (None, *parts):
        from . import formats_holding
        raise PuzzleError(f"the tatham format holds only {_games(parts, 'and')} IDs ({listing(parts)}), not "
                          f"{puzzle}; {puzzle} is read by the {', '.join(formats_holding(puzzle))} format(s)")
    entries = []
    for line in content_lines(split_lines(text)):
        name = str(len(entries) + 1)
        try:
            _refuse_claimed(line.text, parts)
            p = parse_id(line.text, puzzle, rules, name)
        except PuzzleError as err:
            entries.append(err.locate(None, line.number))
            continue
        entries.append(Entry(p, name, path, line.number))
    return entries


def _refuse_claimed(game_id: str, parts: dict) -> None:
    """An ID that a puzzle kind's own format claims (a Keen ID of the kenken kind's ``keen`` format) is
    refused naming that format: it is never read as one of this format's games."""
    from . import claiming_formats
    claimed = claiming_formats(game_id)
    if claimed:
        fmt, kind = claimed[0]
        raise PuzzleError(f"this is a {kind} ID of the {fmt} format, not a {_games(parts, 'or')} ID (the tatham "
                          f"format holds {listing(parts)}): read it with --format {fmt} or --puzzle {kind}")


def parse_id(game_id: str, puzzle: str | None, rules: Rules, name: str = ""):
    """The puzzle of one game ID (of kind ``puzzle``'s game, or of the game the kinds' parts take it for)."""
    match = ID.fullmatch(game_id)
    if not match:
        raise PuzzleError(f"not a Tatham game ID 'PARAMS:DESC' such as '3x3:...' or '8x8u:...': {game_id[:40]!r}")
    sides, flags, desc = (int(match[1]), int(match[2] or match[1])), match[3], match[4]
    parts = layout_parts("tatham")
    if puzzle is not None:
        if puzzle not in parts:
            raise PuzzleError(f"Tatham's collection has no {puzzle.capitalize()}")
        game = parts[puzzle].GAME
    else:
        game = next((part.GAME for part in parts.values() if part.looks_like(sides, flags, desc)), None)
        if game is None:
            raise PuzzleError(f"not a {_games(parts, 'or')} ID: {game_id[:40]!r}")
    part = next((part for part in parts.values() if part.GAME == game and part.takes(flags)), None)
    if part is None:
        raise PuzzleError(f"no puzzle kind reads a {game} ID with the flags {flags!r}")
    p = part.read(sides, flags, desc, rules, name)
    if puzzle is not None and puzzle != p.puzzle:
        raise PuzzleError(f"this {game} ID holds a {p.puzzle} puzzle, not {puzzle}")
    return p


# ---------------------------------------------------------------- Tatham's block code (Solo's cages, Keen's blocks)

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


# ---------------------------------------------------------------- writing

def format_puzzle(puzzle) -> str:
    kind = kind_of(puzzle).name
    parts = layout_parts("tatham")
    if kind not in parts:
        raise PuzzleError(f"Tatham's collection has no {kind.capitalize()}; use the native or janko format")
    return parts[kind].format_puzzle(puzzle)


def unsupported_solutions() -> PuzzleError:
    return PuzzleError("Tatham game IDs hold no solutions; write the solution in the native or lines format")
