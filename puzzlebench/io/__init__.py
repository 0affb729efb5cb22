"""Puzzle and solution files: reading, writing and telling formats apart.

Formats (each module's docstring is its specification):

* ``native`` -- puzzlebench's own text layout, one per puzzle type, with a header line.
* ``lines`` -- Sudoku and Takuzu, one puzzle per line (the classic benchmark lists, Binairo lines).
* ``janko`` -- the janko.at / puzzlekit layout: a single text puzzle or a JSON dataset.
* ``tatham`` -- Simon Tatham's Solo and Unruly game IDs.
* ``dzn`` -- MiniZinc data files: Sudoku, Killer and Kakuro.
* ``kakuro-csv`` -- Kakuro grids as comma-separated rows (``x``, ``0``, ``D\\A``).
* ``killer-csv`` -- Killer Sudoku rows: cage-id string, sums, solution.

Every problem in a file is a :class:`~puzzlebench.errors.PuzzleError` naming the
file and, where there is one, the line.  ``options`` carries an instance set's
rule options (``box``, ``diagonal``, ``distinct_lines``); a marker stated in
the file itself takes precedence.  ``layout`` carries how to find the data in
the formats whose names vary: ``{"dzn": {ROLE: VARIABLE}, "csv": {ROLE: COLUMN}}``
(``set.yaml``'s ``dzn:`` and ``csv:``, the CLI's ``--dzn-map`` and ``--csv-columns``).
"""

from __future__ import annotations

import os
from pathlib import PurePath

import numpy as np

from ..errors import PuzzleError
from ..puzzles import PUZZLE_NAMES
from . import dzn, janko, kakuro_csv, killer_csv, lines, native, tatham
from .detect import detect_solution_text, detect_text
from .entry import Entry
from .identity import puzzle_key
from .rules import parse_rules
from .text import parse_pairs, read_text

FORMATS = ("native", "lines", "janko", "tatham", "dzn", "kakuro-csv", "killer-csv")
_MODULES = {"native": native, "lines": lines, "janko": janko, "tatham": tatham, "dzn": dzn,
            "kakuro-csv": kakuro_csv, "killer-csv": killer_csv}
LAYOUT_KEYS = {"dzn": "dzn", "killer-csv": "csv"}
"""The formats that take a ``layout`` entry, and its key (also the ``set.yaml`` key)."""
NO_SOLUTIONS = (tatham, dzn)

__all__ = ["FORMATS", "LAYOUT_KEYS", "parse_layout", "Entry", "read_puzzles", "read_puzzle", "read_solution", "read_solutions",
           "read_solutions_of",
           "format_puzzle", "format_solution", "detect_format", "puzzle_key"]


def _format_module(format: str):
    if format not in _MODULES:
        raise PuzzleError(f"unknown format {format!r} (known: {', '.join(FORMATS)})")
    return _MODULES[format]


def parse_layout(dzn_map: str | None = None, csv_columns: str | None = None) -> dict:
    """The ``layout`` of the CLI options ``--dzn-map ROLE=NAME,...`` and ``--csv-columns ROLE=COLUMN,...``."""
    layout = {}
    if dzn_map:
        layout["dzn"] = dzn.check_map(parse_pairs(dzn_map, "--dzn-map"))
    if csv_columns:
        layout["csv"] = killer_csv.check_columns(parse_pairs(csv_columns, "--csv-columns"))
    return layout


def detect_format(path) -> str:
    """The format of the puzzle file at ``path``, from its content."""
    try:
        return detect_text(read_text(path), PurePath(path).suffix)
    except PuzzleError as err:
        err.locate(os.fspath(path))
        raise


def read_puzzles(path, *, format: str | None = None, puzzle: str | None = None,
                 options: dict | None = None, layout: dict | None = None) -> list[Entry]:
    """Every puzzle in the file at ``path``.

    ``format`` is detected when None; ``puzzle`` (one of PUZZLE_NAMES) is needed
    only when the file does not say which puzzle it holds, or could hold more than one.
    """
    source = os.fspath(path)
    try:
        if puzzle is not None and puzzle not in PUZZLE_NAMES:
            raise PuzzleError(f"unknown puzzle {puzzle!r} (known: {', '.join(PUZZLE_NAMES)})")
        rules = parse_rules(options)
        text = read_text(path)
        format = format or detect_text(text, PurePath(source).suffix)
        module = _format_module(format)
        if format in LAYOUT_KEYS:
            entries = module.read(text, source, puzzle, rules, (layout or {}).get(LAYOUT_KEYS[format]))
        else:
            entries = module.read(text, source, puzzle, rules)
        if not entries:
            raise PuzzleError("the file holds no puzzle")
    except PuzzleError as err:
        err.locate(source)
        raise
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
        if _format_module(format) in NO_SOLUTIONS:
            raise _format_module(format).unsupported_solutions()
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

    A lines file or a dataset names each puzzle's grid (its line or key); a native
    file holds one grid per puzzle, in order (for a file of one puzzle, the first of
    its grids is taken, as by :func:`read_solution`).
    """
    source = os.fspath(path)
    try:
        text = read_text(path)
        module = _format_module(format or detect_solution_text(text, puzzles[0]))
        if module is tatham:
            raise tatham.unsupported_solutions()
        if module is native and len(puzzles) > 1:
            return native.read_solution_per_puzzle(text, puzzles)
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


def read_solution(path, puzzle, *, format: str | None = None) -> np.ndarray:
    """The solution grid for ``puzzle`` in the file at ``path`` (the first, if it lists several)."""
    return read_solutions(path, puzzle, format=format)[0]


def format_puzzle(puzzle, format: str = "native") -> str:
    """The text of ``puzzle`` in ``format``; a PuzzleError if the format cannot state it."""
    return _format_module(format).format_puzzle(puzzle)


def format_solution(puzzle, grid, format: str = "native") -> str:
    """The text of solution ``grid`` of ``puzzle`` in ``format``."""
    grid = np.asarray(grid, dtype=np.int64)
    if grid.shape != puzzle.shape:
        raise PuzzleError(f"the grid is {' x '.join(map(str, grid.shape))}, "
                          f"the puzzle {puzzle.shape[0]} x {puzzle.shape[1]}")
    module = _format_module(format)
    if module in NO_SOLUTIONS:
        raise module.unsupported_solutions()
    return module.format_solution(puzzle, grid)
