"""Takuzu in the layouts other projects publish: the kind's own formats.

The kind registers (:attr:`puzzlebench.kinds.PuzzleKind.formats`), beside io's generic formats that
hold Takuzus too (native, lines, janko, tatham, grid):

* ``binairo-task`` (:mod:`.binairo_task`) -- puzzle-binairo.com task strings.
"""

from __future__ import annotations


def readers() -> dict:
    """The kind's formats, name -> reader module (:attr:`puzzlebench.kinds.PuzzleKind.formats`)."""
    from . import binairo_task
    return {"binairo-task": binairo_task}
