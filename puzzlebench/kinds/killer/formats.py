"""Killer Sudoku in the layouts other projects publish: the kind's own formats.

The kind registers (:attr:`puzzlebench.kinds.PuzzleKind.formats`), beside io's generic formats that
hold Killers too (native, janko, tatham, dzn, killer-json, sudoku-yaml):

* ``killer-csv`` (:mod:`.killer_csv`) -- rows of a cage-id string, the sums and optionally the solution.
* ``killer-labels`` (:mod:`.killer_labels`) -- a grid of cage ids, ``id:sum`` where a cage is defined.

A Killer's solution is a Sudoku digit grid, so the sudoku kind's ``sudoku-csv`` reads it too.
"""

from __future__ import annotations


def readers() -> dict:
    """The kind's formats, name -> reader module (:attr:`puzzlebench.kinds.PuzzleKind.formats`)."""
    from . import killer_csv, killer_labels
    return {"killer-csv": killer_csv, "killer-labels": killer_labels}
