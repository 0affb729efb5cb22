"""Puzzle and solution files: reading, writing and telling formats apart.

io's own formats, those that hold several kinds (each module's docstring is its specification):

* ``native`` -- puzzlebench's own text layout, one per puzzle type, with a header line.
* ``lines`` -- Sudoku and Takuzu, one puzzle per line (the classic benchmark lists, Binairo lines).
* ``janko`` -- the janko.at / puzzlekit layout: a single text puzzle or a JSON dataset.
* ``tatham`` -- Simon Tatham's Solo and Unruly game IDs.
* ``dzn`` -- MiniZinc data files: Sudoku, Killer and Kakuro.
* ``grid`` -- bare grids, one or several a file (SadMan ``.sdk``, boxed or titled grids).
* ``killer-json`` -- Killer cage lists in JSON, and f-puzzles JSON.
* ``sudoku-yaml`` -- the ``Board``/``Constraints`` YAML of Nickleaton's sudoku solver.

Those of :data:`LAYOUTS` keep only the layout's own syntax: what a kind's puzzles are in one is the
kind's *part* of it, a module of the kind's folder that the kind declares
(:attr:`puzzlebench.kinds.PuzzleKind.layouts`, each kind's ``formats.py``) and that loads when the
layout is used.  The layout asks the kinds' parts, in the kinds' order, so a new kind takes part in
them with no change here.

A format that holds one kind's puzzles lives in that kind's folder, and the kind registers it
(:attr:`puzzlebench.kinds.PuzzleKind.formats`, each kind's ``formats.py``):

* ``sudoku-csv`` (``kinds/sudoku/``) -- Sudoku rows: puzzle and solution columns, with or without a
  header (a Killer's solutions too: a Killer is a Sudoku).
* ``killer-csv`` (``kinds/killer/``) -- Killer Sudoku rows: cage-id string, sums, solution.
* ``killer-labels`` (``kinds/killer/``) -- a grid of cage ids, ``id:sum`` where a cage is defined.
* ``kakuro-csv`` (``kinds/kakuro/``) -- Kakuro grids as comma-separated rows (``x``, ``0``, ``D\\A``).
* ``gecode-kakuro`` (``kinds/kakuro/``) -- Kakuro specifications as C++ integer arrays (Gecode's examples).
* ``binairo-task`` (``kinds/takuzu/``) -- puzzle-binairo.com task strings.
* ``keen``, ``kenken-json``, ``kenken-letters`` (``kinds/kenken/``) -- Simon Tatham's Keen game IDs,
  JSON cage lists (by size, JSON Lines), a grid of cage letters and ``X op value`` lines.

:data:`FORMATS` (``--format``), detection, the hints and ``--puzzle`` ask the registry for them
(:func:`kind_formats`), so a plug-in kind's layouts need no change here.  A kind's reader says where
it stands: ``PLACE``, its place in :data:`FORMATS` among io's own (:data:`PLACES`), and ``DETECT``, how
detection tries it (:func:`.detect.candidates`): ``"text"`` (the default) -- its ``looks_like`` claims
the whole text; ``"source"`` -- a suffix in its ``SUFFIXES`` or its ``looks_like`` on the text, before
any other test but ``.dzn``; ``"line"`` -- its ``looks_like`` on the first content line, among io's
line tests (after native, janko and tatham, before lines, in :data:`FORMATS` order), and its
``looks_like_solution(line, puzzle)``, if it has one, on a solution file's first row.  A reader
without ``read_solutions`` holds no solutions (its ``unsupported_solutions()`` says so).

Every problem in a file is a :class:`~puzzlebench.errors.PuzzleError` naming the
file and, where there is one, the line.  ``options`` carries an instance set's
rule options (``box``, ``diagonal``, ``distinct_lines``); a marker stated in
the file itself takes precedence.  ``layout`` carries how to read what the file
does not say (:mod:`puzzlebench.toolkit.layout`: ``dzn``, ``csv``, ``symbols``, ``size``).

A reader's ``read(text, path, puzzle, rules, layout)`` returns the file's puzzles in order, each an
:class:`Entry` or, for a puzzle it could not read while it could read the others, a
PuzzleError: :func:`read_puzzles` refuses the file at the first one, :func:`read_puzzles_keeping`
keeps the others (``import --skip-invalid``).
"""

from __future__ import annotations

import os
from pathlib import PurePath

import numpy as np

from ..errors import PuzzleError
from ..kinds import get_kind, kind_key
from ..toolkit.entry import Entry
from ..toolkit.layout import KEYS as LAYOUT_KEYS, Layout
from ..toolkit.rules import parse_rules
from ..toolkit.syntax import LAYOUTS
from ..toolkit.text import AmbiguousReading, FormatsDisagree, parse_pairs, read_text
from . import dzn, grid, janko, killer_json, lines, native, sudoku_yaml, tatham
from .detect import candidates, describe_reading, detect_solution_text
from .format_registry import (
    DETECTION,
    PLACES,
    claiming_formats,
    detecting,
    format_hints,
    formats,
    formats_holding,
    kind_formats,
    kinds_held,
)

_MODULES = {"native": native, "lines": lines, "janko": janko, "tatham": tatham, "dzn": dzn, "grid": grid,
            "killer-json": killer_json, "sudoku-yaml": sudoku_yaml}
__all__ = ["FORMATS", "LAYOUTS", "LAYOUT_KEYS", "PLACES", "DETECTION", "formats", "kind_formats", "detecting",
           "formats_holding", "claiming_formats", "format_hints", "parse_layout", "settings_of", "Entry",
           "read_puzzles", "read_puzzles_keeping", "read_puzzle", "read_solution", "read_solutions",
           "read_solutions_of", "read_reference_solutions", "read_solutions_for", "format_puzzle", "format_solution",
           "detect_format"]


def __getattr__(name: str):
    if name == "FORMATS":  # computed on use: the kinds (and their formats) load on first use
        return formats()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _format_module(format: str):
    if format in _MODULES:
        return _MODULES[format]
    registered = kind_formats()
    if format not in registered:
        raise PuzzleError(f"unknown format {format!r} (known: {', '.join(formats())})")
    return registered[format][1]


def _no_solutions(format: str, module) -> PuzzleError | None:
    """The error for a format whose files hold no solutions, else None: a reader without
    ``read_solutions`` holds none (its ``unsupported_solutions()`` says so, where it has one); a reader's
    ``read_solutions`` and ``format_solution`` may refuse too (:func:`.text.read_only`'s)."""
    if callable(getattr(module, "read_solutions", None)):
        return None
    if callable(getattr(module, "unsupported_solutions", None)):
        return module.unsupported_solutions()
    return PuzzleError(f"the {format} format holds no solutions; write the solution in the native format")


def parse_layout(dzn_map: str | None = None, csv_columns: str | None = None, symbols: str | None = None,
                 size: str | None = None, dzn_convention: str | None = None) -> dict:
    """The ``layout`` of the CLI options ``--dzn-map ROLE=NAME,...``, ``--dzn-convention``,
    ``--csv-columns ROLE=COLUMN,...``, ``--symbols`` and ``--size`` (checked, as in ``set.yaml``)."""
    layout = {}
    if dzn_map or dzn_convention:
        layout["dzn"] = parse_pairs(dzn_map, "--dzn-map") if dzn_map else {}
        if dzn_convention:
            layout["dzn"]["convention"] = dzn_convention
    if csv_columns:
        layout["csv"] = parse_pairs(csv_columns, "--csv-columns")
    if symbols:
        layout["symbols"] = symbols
    if size:
        layout["size"] = size
    settings_of(layout)
    return layout


def settings_of(layout: dict | Layout | None) -> Layout:
    """The reader settings of a ``layout`` mapping, checked: :meth:`Layout.of`, and the dzn map's role names
    and convention against the kinds' parts (:func:`.dzn.check_map`)."""
    settings = Layout.of(layout)
    dzn.check_map(settings.dzn)
    return settings


def detect_format(path) -> str:
    """The format of the puzzle file at ``path``, from its content (read each way it could be, when
    it could be several)."""
    source = os.fspath(path)
    try:
        text = read_text(path)
        found = candidates(text, PurePath(source).suffix)
        if len(found) > 1:
            try:
                found = [_resolve(text, source, found, None, parse_rules(None), Layout())[0]]
            except FormatsDisagree:
                raise
            except AmbiguousReading as err:  # the one format that reads it, two ways
                found = [err.format]
            except PuzzleError:
                pass  # no format reads the file: the likeliest is the first
        return found[0]
    except PuzzleError as err:
        err.locate(source)
        raise


def _read_items(text: str, source: str, format: str | None, puzzle: str | None, rules, layout: Layout) -> list:
    if format is not None:
        module = _format_module(format)
        if format not in _MODULES and puzzle is not None and puzzle not in kinds_held(format):
            raise PuzzleError(f"the {format} format holds only {' and '.join(kinds_held(format))} puzzles, not "
                              f"{puzzle}; {puzzle} is read by the {', '.join(formats_holding(puzzle))} format(s)")
        return module.read(text, source, puzzle, rules, layout)
    try:
        found = candidates(text, PurePath(source).suffix)
    except PuzzleError as err:
        if puzzle is None or err.line is None or not err.problem.startswith("cannot tell the file's format"):
            raise
        kind = get_kind(puzzle)
        examples = [f"a native header '{kind.native_usage}'"] + format_hints(puzzle)
        err.problem = (err.problem.split(": expected")[0] + f": a {puzzle} file is read by the "
                       f"{', '.join(formats_holding(puzzle))} format(s); expected " + ", ".join(examples))
        raise
    if puzzle is not None:  # only the formats that hold that puzzle
        found = [fmt for fmt in found if puzzle in kinds_held(fmt)] or found
    if len(found) == 1:
        return _format_module(found[0]).read(text, source, puzzle, rules, layout)
    return _resolve(text, source, found, puzzle, rules, layout)[1]


def _resolve(text: str, source: str, found: list[str], puzzle, rules, layout: Layout) -> tuple[str, list]:
    """(format, items) of a file several formats could hold: the one that reads it whole, or, when
    several do, the first if they read the same puzzles; else the file is refused naming the
    readings.  When none reads it whole, a format's reading that is itself ambiguous, else the
    reading that kept most puzzles; when none kept any, the errors of each, the first format's first."""
    readings, failures = {}, []
    for fmt in found:
        try:
            readings[fmt] = _format_module(fmt).read(text, source, puzzle, rules, layout)
        except PuzzleError as err:
            failures.append((fmt, err))
    whole = {fmt: items for fmt, items in readings.items()
             if items and not any(isinstance(i, PuzzleError) for i in items)}
    ambiguous = next(((fmt, err) for fmt, err in failures if isinstance(err, AmbiguousReading)), None)
    if whole and ambiguous is not None:  # one reading, and another format that itself reads two ways
        fmt, (other, err) = next(iter(whole)), ambiguous
        why = err.problem.split(": say which")[0]
        raise FormatsDisagree(f"the file reads as {describe_reading(whole[fmt])} ({fmt} format), and in the "
                               f"{other} format {why[0].lower()}{why[1:]}: say which with --format {fmt} or "
                               f"--format {other} (and --puzzle or --symbols)")
    if whole:
        keys = {}
        for fmt, items in whole.items():
            keys.setdefault(tuple(kind_key(e.puzzle) for e in items), fmt)
        if len(keys) > 1:
            shown = [(fmt, describe_reading(whole[fmt])) for fmt in keys.values()]
            sizes = {items[0].puzzle.shape for items in whole.values()}
            hint = ""
            if len(sizes) > 1:
                hint = " (or --size " + " / --size ".join("x".join(map(str, whole[fmt][0].puzzle.shape))
                                                           for fmt in keys.values()) + ")"
            raise FormatsDisagree("the file reads as " + " or as ".join(f"{d} ({fmt} format)" for fmt, d in shown)
                                  + ": say which with " + " or ".join(f"--format {fmt}" for fmt, _ in shown) + hint)
        fmt = next(iter(keys.values()))
        return fmt, whole[fmt]
    if ambiguous is not None:  # no reading whole, one that reads two ways: that is what to decide
        ambiguous[1].format = ambiguous[0]
        raise ambiguous[1]
    kept = {fmt: sum(isinstance(i, Entry) for i in items) for fmt, items in readings.items()}
    if kept and max(kept.values()) > 0:
        fmt = max(kept, key=kept.get)
        return fmt, readings[fmt]
    errors = dict(failures)
    errors.update((fmt, next((i for i in items if isinstance(i, PuzzleError)), PuzzleError("it holds no puzzle")))
                  for fmt, items in readings.items())
    (first, err), *others = [(fmt, errors[fmt]) for fmt in found]
    raise PuzzleError(f"{err.problem} (read in the {first} format; "
                      + "; ".join(f"in the {fmt} format{f', line {e.line}' if e.line else ''}: {e.problem}"
                                  for fmt, e in others) + ")", line=err.line)


def read_puzzles_keeping(path, *, format: str | None = None, puzzle: str | None = None,
                         options: dict | None = None, layout: dict | None = None
                         ) -> tuple[list[Entry], list[PuzzleError]]:
    """The puzzles of the file at ``path`` that read, and a located PuzzleError for each that does not.

    ``format`` is detected when None; ``puzzle`` (a kind's name) is needed
    only when the file does not say which puzzle it holds, or could hold more than one.
    A problem with the file as a whole is raised.
    """
    source = os.fspath(path)
    try:
        if puzzle is not None:
            get_kind(puzzle)  # an unknown puzzle: the error naming the known kinds
        rules = parse_rules(options)
        settings = settings_of(layout)
        items = _read_items(read_text(path), source, format, puzzle, rules, settings)
        if not items:
            raise PuzzleError("the file holds no puzzle")
    except PuzzleError as err:
        err.locate(source)
        raise
    entries = [i for i in items if isinstance(i, Entry)]
    return entries, [i.locate(source) for i in items if isinstance(i, PuzzleError)]


def read_puzzles(path, *, format: str | None = None, puzzle: str | None = None,
                 options: dict | None = None, layout: dict | None = None) -> list[Entry]:
    """Every puzzle in the file at ``path``; a puzzle that does not read refuses the file."""
    entries, refused = read_puzzles_keeping(path, format=format, puzzle=puzzle, options=options, layout=layout)
    if refused:
        raise refused[0]
    return entries


def read_puzzle(path, index: int = 0, *, format: str | None = None, puzzle: str | None = None,
                options: dict | None = None, layout: dict | None = None) -> Entry:
    """Puzzle number ``index`` (0-based) of the file at ``path``."""
    entries = read_puzzles(path, format=format, puzzle=puzzle, options=options, layout=layout)
    if not 0 <= index < len(entries):
        raise PuzzleError(f"index {index} is out of range: the file holds {len(entries)} "
                          f"puzzle{'s' if len(entries) > 1 else ''} (0..{len(entries) - 1})",
                          path=os.fspath(path))
    return entries[index]


def read_solutions(path, puzzle, *, format: str | None = None) -> list[np.ndarray]:
    """The solution grids the file at ``path`` gives for ``puzzle``, each of the puzzle's shape.

    A native file may list several (alternative solutions of one puzzle); in a
    lines file of several lines, or a puzzlekit dataset, the one whose line
    index or record key is ``puzzle.name`` is taken.
    """
    source = os.fspath(path)
    try:
        text = read_text(path)
        format = format or detect_solution_text(text, puzzle)
        if (refused := _no_solutions(format, _format_module(format))) is not None:
            raise refused
        found = _format_module(format).read_solutions(text, puzzle)
        if not found:
            raise PuzzleError("the file holds no solution")
    except PuzzleError as err:
        err.locate(source)
        raise
    return [grid for _, grid in found]


def read_solutions_of(path, puzzles, *, format: str | None = None) -> list[tuple[int | None, np.ndarray]]:
    """(first line, grid) of the solution of each of ``puzzles`` (the puzzles of one file, in order)
    in the solution file at ``path``: one per puzzle.

    A lines file or a dataset names each puzzle's grid (its line or key); a native or
    grid file holds one grid per puzzle, in order (for a file of one puzzle, the first of
    its grids is taken, as by :func:`read_solution`).
    """
    source = os.fspath(path)
    try:
        text = read_text(path)
        format = format or detect_solution_text(text, puzzles[0])
        module = _format_module(format)
        if (refused := _no_solutions(format, module)) is not None:
            raise refused
        if module in (native, grid) and len(puzzles) > 1:
            return module.read_solution_per_puzzle(text, puzzles)
        found = []
        for puzzle in puzzles:
            grids = module.read_solutions(text, puzzle)
            if not grids:
                raise PuzzleError("the file holds no solution")
            found.append(grids[0])
        return found
    except PuzzleError as err:
        err.locate(source)
        raise


def read_reference_solutions(path, puzzles, *, format: str | None = None) -> list[tuple[np.ndarray, ...]]:
    """The reference solutions of each of ``puzzles`` (the puzzles of one file, in order) in the
    companion solution file at ``path``: for a file of one puzzle every grid it lists (several
    when the puzzle has several solutions), else one grid per puzzle."""
    if len(puzzles) == 1:
        return [tuple(read_solutions(path, puzzles[0], format=format))]
    return [(grid,) for _, grid in read_solutions_of(path, puzzles, format=format)]


def read_solutions_for(path, puzzles, index: int, *, format: str | None = None) -> list[np.ndarray]:
    """The solution grids the file at ``path`` gives for puzzle ``index`` of ``puzzles`` (the puzzles
    of one file): its own grid when the file holds one per puzzle, else every grid of the file
    (that puzzle's solution and its alternatives)."""
    try:
        return [read_solutions_of(path, puzzles, format=format)[index][1]]
    except PuzzleError as per_puzzle:
        try:
            return read_solutions(path, puzzles[index], format=format)
        except PuzzleError:
            raise per_puzzle from None


def read_solution(path, puzzle, *, format: str | None = None) -> np.ndarray:
    """The solution grid for ``puzzle`` in the file at ``path`` (the first, if it lists several)."""
    return read_solutions(path, puzzle, format=format)[0]


def format_puzzle(puzzle, format: str = "native", layout: dict | None = None) -> str:
    """The text of ``puzzle`` in ``format``; a PuzzleError if the format cannot state it.
    ``layout`` chooses among a format's conventions (dzn: ``{"dzn": {"convention": "clue-cell"}}``)."""
    module = _format_module(format)
    if module is dzn:
        return dzn.format_puzzle(puzzle, settings_of(layout))
    if not callable(getattr(module, "format_puzzle", None)):
        raise PuzzleError(f"the {format} format is read, not written; use the native format")
    return module.format_puzzle(puzzle)


def format_solution(puzzle, grid, format: str = "native") -> str:
    """The text of solution ``grid`` of ``puzzle`` in ``format``."""
    grid = np.asarray(grid, dtype=np.int64)
    if grid.shape != puzzle.shape:
        raise PuzzleError(f"the grid is {' x '.join(map(str, grid.shape))}, "
                          f"the puzzle {puzzle.shape[0]} x {puzzle.shape[1]}")
    module = _format_module(format)
    if (refused := _no_solutions(format, module)) is not None:
        raise refused
    if not callable(getattr(module, "format_solution", None)):
        raise PuzzleError(f"the {format} format is read, not written; use the native format")
    return module.format_solution(puzzle, grid)
