"""KenKen in the layouts other projects publish: the kind's own formats, and what they share.

The kind registers three formats (:attr:`puzzlebench.kinds.PuzzleKind.formats`), which ``--format``,
detection and ``import`` offer beside io's own:

* ``keen`` (:mod:`.keen`) -- Simon Tatham's Keen game IDs, one a line.
* ``kenken-json`` (:mod:`.json_cages`) -- JSON cage lists: one puzzle, a list of puzzles, an object of
  puzzles by size, or JSON Lines (a puzzle a line).
* ``kenken-letters`` (:mod:`.letters`) -- the size, a grid of cage letters, then ``X op value`` lines.

What they share is decided once, in :mod:`.published`: how an operation is spelled, what a target
may be, and how a one-cell cage's operation is read.  A
puzzle that breaks KenKen's rules (``-`` or ``/`` on three cells, a target no cage can reach, a
cell in two cages) is one located PuzzleError among the file's items, naming the puzzle; the
file's other puzzles are read (``import --skip-invalid`` keeps them).
"""

from __future__ import annotations


def readers() -> dict:
    """The kind's formats, name -> reader module (:attr:`puzzlebench.kinds.PuzzleKind.formats`)."""
    from . import json_cages, keen, letters
    return {"keen": keen, "kenken-json": json_cages, "kenken-letters": letters}
