"""Killer Sudoku in the layouts other projects publish: the kind's own formats, and its parts of io's.

The kind registers (:attr:`puzzlebench.kinds.PuzzleKind.formats`), beside io's generic formats that
hold Killers too (native, janko, tatham, dzn, killer-json, sudoku-yaml):

* ``killer-csv`` (:mod:`.killer_csv`) -- rows of a cage-id string, the sums and optionally the solution.
* ``killer-labels`` (:mod:`.killer_labels`) -- a grid of cage ids, ``id:sum`` where a cage is defined.

A Killer's solution is a Sudoku digit grid, so the sudoku kind's ``sudoku-csv`` reads it too.

Its parts of io's generic layouts (:func:`layouts`) are the modules named after them here:
``janko.py``, ``tatham.py``, ``dzn.py``, ``killer_json.py``, ``sudoku_yaml.py``; in ``lines`` and
``grid``, which state no cages, the sudoku kind's part reads and writes a Killer's solutions.
"""

from __future__ import annotations

from .. import Later


def readers() -> dict:
    """The kind's formats, name -> reader module (:attr:`puzzlebench.kinds.PuzzleKind.formats`)."""
    from . import killer_csv, killer_labels
    return {"killer-csv": killer_csv, "killer-labels": killer_labels}


def layouts() -> dict:
    """The kind's parts of io's generic layouts, layout -> part (:attr:`puzzlebench.kinds.PuzzleKind.layouts`):
    modules of this folder, each loaded when its layout is used; in the layouts that state no cages a
    Killer's solution is a Sudoku grid, the sudoku kind's part reads and writes it."""
    return {"lines": "sudoku",
            "janko": Later(f"{__package__}.janko"),
            "tatham": Later(f"{__package__}.tatham"),
            "dzn": Later(f"{__package__}.dzn"),
            "grid": "sudoku",
            "killer-json": Later(f"{__package__}.killer_json"),
            "sudoku-yaml": Later(f"{__package__}.sudoku_yaml")}
