"""Takuzu in the layouts other projects publish: the kind's own formats, and its parts of io's.

The kind registers (:attr:`puzzlebench.kinds.PuzzleKind.formats`), beside io's generic formats that
hold Takuzus too (native, lines, janko, tatham, grid):

* ``binairo-task`` (:mod:`.binairo_task`) -- puzzle-binairo.com task strings.

Its parts of io's generic layouts (:func:`layouts`) are the modules named after them here:
``lines.py``, ``janko.py``, ``tatham.py``, ``grid.py``.
"""

from __future__ import annotations

from .. import Later


def readers() -> dict:
    """The kind's formats, name -> reader module (:attr:`puzzlebench.kinds.PuzzleKind.formats`)."""
    from . import binairo_task
    return {"binairo-task": binairo_task}


def layouts() -> dict:
    """The kind's parts of io's generic layouts, layout -> part (:attr:`puzzlebench.kinds.PuzzleKind.layouts`):
    modules of this folder, each loaded when its layout is used."""
    return {"lines": Later(f"{__package__}.lines"),
            "janko": Later(f"{__package__}.janko"),
            "tatham": Later(f"{__package__}.tatham"),
            "grid": Later(f"{__package__}.grid")}
