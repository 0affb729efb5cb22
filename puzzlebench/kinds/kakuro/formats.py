"""Kakuro in the layouts other projects publish: the kind's own formats.

The kind registers (:attr:`puzzlebench.kinds.PuzzleKind.formats`), beside io's generic formats that
hold Kakuros too (native, janko, dzn):

* ``kakuro-csv`` (:mod:`.kakuro_csv`) -- grids as comma-separated rows (``x``, ``0``, ``D\\A``).
* ``gecode-kakuro`` (:mod:`.gecode_kakuro`) -- specifications as C++ integer arrays (Gecode's examples).
"""

from __future__ import annotations


def readers() -> dict:
    """The kind's formats, name -> reader module (:attr:`puzzlebench.kinds.PuzzleKind.formats`)."""
    from . import gecode_kakuro, kakuro_csv
    return {"kakuro-csv": kakuro_csv, "gecode-kakuro": gecode_kakuro}
