"""Kakuro in the layouts other projects publish: the kind's own formats, and its parts of io's.

The kind registers (:attr:`puzzlebench.kinds.PuzzleKind.formats`), beside io's generic formats that
hold Kakuros too (native, janko, dzn):

* ``kakuro-csv`` (:mod:`.kakuro_csv`) -- grids as comma-separated rows (``x``, ``0``, ``D\\A``).
* ``gecode-kakuro`` (:mod:`.gecode_kakuro`) -- specifications as C++ integer arrays (Gecode's examples).

Its parts of io's generic layouts (:func:`layouts`) are the modules named after them here: ``janko.py``, ``dzn.py``.
"""

from __future__ import annotations

from .. import Later


def readers() -> dict:
    """The kind's formats, name -> reader module (:attr:`puzzlebench.kinds.PuzzleKind.formats`)."""
    from . import gecode_kakuro, kakuro_csv
    return {"kakuro-csv": kakuro_csv, "gecode-kakuro": gecode_kakuro}


def layouts() -> dict:
    """The kind's parts of io's generic layouts, layout -> part (:attr:`puzzlebench.kinds.PuzzleKind.layouts`):
    modules of this folder, each loaded when its layout is used."""
    return {"janko": Later(f"{__package__}.janko"),
            "dzn": Later(f"{__package__}.dzn")}
