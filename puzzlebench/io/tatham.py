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

from ..errors import PuzzleError
from ..kinds import kind_of, layout_parts
from ..toolkit.entry import Entry
from ..toolkit.rules import Rules
from ..toolkit.text import content_lines, listing, split_lines
from .format_registry import claiming_formats, formats_holding
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


# ---------------------------------------------------------------- writing

def format_puzzle(puzzle) -> str:
    kind = kind_of(puzzle).name
    parts = layout_parts("tatham")
    if kind not in parts:
        raise PuzzleError(f"Tatham's collection has no {kind.capitalize()}; use the native or janko format")
    return parts[kind].format_puzzle(puzzle)


def unsupported_solutions() -> PuzzleError:
    return PuzzleError("Tatham game IDs hold no solutions; write the solution in the native or lines format")
