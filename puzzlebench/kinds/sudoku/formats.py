"""Sudoku in the layouts other projects publish: the kind's own formats, and its parts of io's.

The kind registers (:attr:`puzzlebench.kinds.PuzzleKind.formats`), beside io's generic formats that
hold Sudokus too (native, lines, janko, tatham, dzn, grid, killer-json, sudoku-yaml):

* ``sudoku-csv`` (:mod:`.sudoku_csv`) -- Sudoku rows: puzzle and solution columns, with or without a
  header (the Kaggle datasets).  It holds a Killer's solutions too: a Killer is a Sudoku
  (:func:`.sudoku_csv.solution_kinds`).

Its parts of io's generic layouts (:func:`layouts`) are the modules named after them here:
``lines.py``, ``janko.py``, ``tatham.py``, ``dzn.py``, ``grid.py``, ``killer_json.py``, ``sudoku_yaml.py``.
"""

from __future__ import annotations

from .. import Later


def readers() -> dict:
    """The kind's formats, name -> reader module (:attr:`puzzlebench.kinds.PuzzleKind.formats`)."""
    from . import sudoku_csv
    return {"sudoku-csv": sudoku_csv}


def layouts() -> dict:
    """The kind's parts of io's generic layouts, layout -> part (:attr:`puzzlebench.kinds.PuzzleKind.layouts`):
    modules of this folder, each loaded when its layout is used."""
    return {"lines": Later(f"{__package__}.lines"),
            "janko": Later(f"{__package__}.janko"),
            "tatham": Later(f"{__package__}.tatham"),
            "dzn": Later(f"{__package__}.dzn"),
            "grid": Later(f"{__package__}.grid"),
            "killer-json": Later(f"{__package__}.killer_json"),
            "sudoku-yaml": Later(f"{__package__}.sudoku_yaml")}
