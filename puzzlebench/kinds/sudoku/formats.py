"""Sudoku in the layouts other projects publish: the kind's own formats.

The kind registers (:attr:`puzzlebench.kinds.PuzzleKind.formats`), beside io's generic formats that
hold Sudokus too (native, lines, janko, tatham, dzn, grid, killer-json, sudoku-yaml):

* ``sudoku-csv`` (:mod:`.sudoku_csv`) -- Sudoku rows: puzzle and solution columns, with or without a
  header (the Kaggle datasets).  It holds a Killer's solutions too: a Killer is a Sudoku
  (:func:`.sudoku_csv.solution_kinds`).
"""

from __future__ import annotations


def readers() -> dict:
    """The kind's formats, name -> reader module (:attr:`puzzlebench.kinds.PuzzleKind.formats`)."""
    from . import sudoku_csv
    return {"sudoku-csv": sudoku_csv}
