"""How to read a file when the file itself does not say: the reader settings of the CLI and ``set.yaml``.

``layout`` is a mapping (``set.yaml`` keys, the CLI's options):

* ``dzn``: MiniZinc variable of each role (``--dzn-map ROLE=NAME,...``), and
  ``convention`` (``--dzn-convention first-cell|clue-cell``) for Kakuro clues;
* ``csv``: column of each role (``--csv-columns ROLE=COLUMN,...``), Killer and Sudoku CSV;
* ``symbols``: the grid's alphabet (``--symbols 0-9A-F``, see :mod:`.symbols`);
* ``size``: the grid's size (``--size 16`` or ``--size 16x22``), for a grid
  the file does not size itself or that reads as grids of several sizes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import PuzzleError
from .csv_rows import check_columns
from .symbols import Alphabet, parse_symbols
from .syntax.dzn import check_mapping

KEYS = ("dzn", "csv", "symbols", "size")
"""The ``layout`` keys, which are also ``set.yaml`` keys."""
_SIZE = re.compile(r"([0-9]{1,3})(?:x([0-9]{1,3}))?")


@dataclass(frozen=True)
class Layout:
    """The parsed reader settings."""

    dzn: dict = field(default_factory=dict)
    csv: dict = field(default_factory=dict)
    symbols: Alphabet | None = None
    size: tuple[int, int] | None = None

    @classmethod
    def of(cls, layout: dict | Layout | None) -> Layout:
        """Validate a ``layout`` mapping (a PuzzleError names the key and the problem); the dzn map's role
        names are the kinds' to check (:func:`puzzlebench.io.settings_of` checks them too)."""
        if isinstance(layout, Layout):
            return layout
        layout = layout or {}
        if not isinstance(layout, dict):
            raise PuzzleError("the reader settings must be a mapping")
        unknown = sorted(set(layout) - set(KEYS), key=str)
        if unknown:
            raise PuzzleError(f"unknown reader setting {unknown[0]!r} (known: {', '.join(KEYS)})")
        symbols = layout.get("symbols")
        if symbols is not None and not isinstance(symbols, str):
            raise PuzzleError(f"symbols must be a string such as 0-9A-F, got {symbols!r}")
        dzn = layout.get("dzn") or {}
        check_mapping(dzn)
        return cls(dzn=dict(dzn), csv=check_columns(layout.get("csv") or {}),
                   symbols=parse_symbols(symbols) if symbols else None, size=parse_size(layout.get("size")))


def parse_size(text) -> tuple[int, int] | None:
    """``"16"`` -> (16, 16), ``"16x22"`` -> (16, 22) (rows x columns); None stays None."""
    if text is None:
        return None
    match = _SIZE.fullmatch(str(text).strip())
    if not match or not all(1 <= int(v) for v in match.groups() if v):
        raise PuzzleError(f"size {text!r} is not N or RxC with positive numbers (e.g. 16 or 16x22)")
    rows = int(match[1])
    return rows, int(match[2]) if match[2] else rows
