"""The formats' registry: io's own formats and those the puzzle kinds register, their order (``--format``),
how detection tries each, and which kinds each holds (:mod:`puzzlebench.io`'s docstring says how a kind's
reader takes its place).  It names io's own formats without loading their modules."""

from __future__ import annotations

from ..errors import PuzzleError
from ..kinds import kinds, names
from ..toolkit.syntax import LAYOUTS
from .parts import layout_holds

OWN_FORMATS = ("native", *LAYOUTS)
"""io's own formats: the native layout and the generic layouts the kinds take part in."""
PLACES = {"native": 0, "lines": 1, "janko": 2, "tatham": 3, "dzn": 4, "grid": 8, "killer-json": 9, "sudoku-yaml": 11}
"""The place of each of io's own formats in :data:`FORMATS`.  A kind's format takes its place by its
reader's ``PLACE`` (the built-in kinds': ``kakuro-csv`` 5, ``killer-csv`` 6, ``sudoku-csv`` 7,
``killer-labels`` 10, ``gecode-kakuro`` 12, ``binairo-task`` 13); a reader without one comes after them
all, in the kinds' order."""
DETECTION = ("text", "source", "line")
"""The values of a kind's reader's ``DETECT`` (``"text"`` when it has none): see the module's docstring."""


def kind_formats() -> dict[str, tuple[str, object]]:
    """The formats the puzzle kinds register (:attr:`~puzzlebench.kinds.PuzzleKind.formats`):
    name -> (kind name, reader), in the kinds' order; a name of io's own formats is refused."""
    found = {}
    for kind in kinds():
        for name, reader in kind.formats.items():
            if name in OWN_FORMATS:
                raise PuzzleError(f"puzzle kind {kind.name!r}: format {name!r} is one of puzzlebench's own formats")
            found[name] = (kind.name, reader)
    return found


def formats() -> tuple[str, ...]:
    """Every format's name (``--format``): io's own and the kinds' (:func:`kind_formats`), by their
    place (:data:`PLACES`, a reader's ``PLACE``)."""
    return _ordered(kind_formats())


def _ordered(registered: dict) -> tuple[str, ...]:
    places = {fmt: PLACES[fmt] for fmt in OWN_FORMATS}
    places.update((fmt, _place(reader)) for fmt, (kind, reader) in registered.items())
    return tuple(sorted(places, key=places.get))  # stable: the kinds' formats of one place in the kinds' order


def _place(reader) -> float:
    place = getattr(reader, "PLACE", None)
    return place if isinstance(place, (int, float)) and not isinstance(place, bool) else float("inf")


def detecting(how: str) -> list[tuple[str, str, object]]:
    """(format, kind, reader) of each kind-registered format whose reader's ``DETECT`` is ``how``
    (:data:`DETECTION`; a reader without one is ``"text"``), in :data:`FORMATS` order."""
    return [(fmt, kind, reader) for fmt, kind, reader in _kind_formats_in_order()
            if getattr(reader, "DETECT", "text") == how]


def _kind_formats_in_order() -> list[tuple[str, str, object]]:
    """(format, kind, reader) of each kind-registered format, in :data:`FORMATS` order."""
    registered = kind_formats()
    return [(fmt, *registered[fmt]) for fmt in _ordered(registered) if fmt in registered]


def claiming_formats(text: str) -> list[tuple[str, str]]:
    """(format, kind) of each kind-registered format that claims a whole text (``DETECT`` ``"text"``)
    whose ``looks_like`` accepts ``text``: io's readers refuse such a text (a Keen ID is no Solo ID, a
    KenKen cage list no Killer's)."""
    return [(fmt, kind) for fmt, kind, reader in detecting("text") if reader_accepts(reader, text)]


def reader_accepts(reader, text: str) -> bool:
    try:
        return bool(reader.looks_like(text))
    except (PuzzleError, ValueError, TypeError, RecursionError):
        return False


def kinds_held(format: str) -> tuple[str, ...]:
    """The kinds a format states: every kind for the native format (each kind brings its layout),
    a kind's own format that kind (or its reader's ``PUZZLES``), else the module's ``PUZZLES``."""
    if format == "native":
        return names()
    if format in OWN_FORMATS:
        return layout_holds(format)
    kind, reader = kind_formats()[format]
    return tuple(getattr(reader, "PUZZLES", (kind,)))


def formats_holding(puzzle: str) -> list[str]:
    """The formats that hold puzzles of kind ``puzzle``."""
    return [fmt for fmt in formats() if puzzle in kinds_held(fmt)]


def format_hints(puzzle: str | None = None) -> list[str]:
    """Examples of the kind-registered formats' files (of ``puzzle``'s formats only, when given),
    each ``"HINT (format NAME)"``, for messages, in :data:`FORMATS` order."""
    return [f"{getattr(reader, 'HINT', 'a ' + fmt + ' file')} ({fmt} format)"
            for fmt, kind, reader in _kind_formats_in_order() if puzzle in (None, kind)]
