"""Telling a file's format from its content (and, for MiniZinc data and a kind's source files, its suffix).

:func:`candidates` lists every format whose test the file passes; when it is more than one, the
caller reads the file each way and keeps the reading that works (or refuses the file naming
the readings that differ), so detection never picks one reading of several silently.  The kinds'
formats take part where their reader's ``DETECT`` says (:mod:`puzzlebench.io`, :func:`.detecting`).
"""

from __future__ import annotations

import re
from collections import Counter

from ..errors import PuzzleError
from ..kinds import kind_of, names
from ..toolkit.syntax.dzn import FIRST_LINE as DZN_FIRST_LINE
from ..toolkit.syntax.grid_words import has_grid_length
from ..toolkit.text import Cursor, content_lines, looks_like_row, split_lines
from . import grid, killer_json, lines, native, sudoku_yaml, tatham
from .format_registry import claiming_formats, detecting, format_hints, reader_accepts

_JANKO_HEADER = re.compile(r"[0-9]{1,3}\s+[0-9]{1,3}")


_FIRST_LINE_TESTS = (  # format -> does the first content line look like it? (before the kinds' line formats)
    ("native", lambda text: text.split()[0] in names()),
    ("janko", lambda text: bool(_JANKO_HEADER.fullmatch(text))),
    ("tatham", lambda text: bool(tatham.ID.fullmatch(text))),
)
_LAST_LINE_TESTS = (  # (after the kinds' line formats)
    ("lines", lines.looks_like),
)


def _line_tests() -> list:
    """(format, test of the first content line): io's first ones, then each kind's format whose reader's
    ``DETECT`` is ``"line"`` (its ``looks_like``, in ``--format`` order), then lines."""
    kinds_tests = [(fmt, lambda text, reader=reader: reader_accepts(reader, text)) for fmt, _, reader in detecting("line")]
    return [*_FIRST_LINE_TESTS, *kinds_tests, *_LAST_LINE_TESTS]


def candidates(text: str, suffix: str = "") -> list[str]:
    """The formats a puzzle file's text may be in, in order of preference.

    A ``.dzn`` suffix -> dzn; a kind's source format (``DETECT = "source"``: a suffix in its
    ``SUFFIXES`` or its ``looks_like``; gecode-kakuro: a C++ suffix or ``int NAME[] = {``); the
    kinds' formats that claim the text (``DETECT = "text"``: KenKen's); JSON -> janko (a puzzlekit
    dataset) or killer-json (cage lists, f-puzzles); a ``Board:`` YAML -> sudoku-yaml; a first line
    that is a ``%`` comment or ``NAME =`` -> dzn; else the first content line's tests (a puzzle
    name -> native, ``R C`` -> janko, ``AxB[flags]:`` -> tatham, then the kinds' line formats
    (``DETECT = "line"``, in ``--format`` order: comma-separated Kakuro cells -> kakuro-csv, a
    cage-id string and its sums -> killer-csv, delimited grid fields or a puzzle/solution header ->
    sudoku-csv, ``id:sum`` tokens -> killer-labels, a run-length task -> binairo-task), then a word
    of N*N symbols or a Takuzu line -> lines) and, for the whole text, bare grids -> grid.  A file
    none can read is a PuzzleError at its first content line.
    """
    suffix = suffix.lower()
    if suffix == ".dzn":
        return ["dzn"]
    for fmt, _, reader in detecting("source"):
        if suffix in getattr(reader, "SUFFIXES", ()) or reader_accepts(reader, text):
            return [fmt]
    claimed = [fmt for fmt, _ in claiming_formats(text)]
    if claimed:  # a kind's own layout (its test is specific): io's readers refuse such a text
        return claimed
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        return ["killer-json" if killer_json.looks_like(stripped) else "janko"]
    if sudoku_yaml.looks_like(text):
        return ["sudoku-yaml"]
    raw = next((line for line in split_lines(text) if line.text), None)
    if raw is not None and DZN_FIRST_LINE.match(raw.text):
        return ["dzn"]
    first = next(iter(content_lines(split_lines(text))), None)
    if first is None:
        raise PuzzleError("the file holds no puzzle: every line is blank or a # comment")
    found = [fmt for fmt, test in _line_tests() if test(first.text)]
    if not found and any(has_grid_length(word) for word in first.text.split()):
        found = ["lines"]  # a grid word with a bad symbol: the lines reader says which
    if found in ([], ["lines"]) and grid.looks_like(text):  # a bare grid may also read as lines
        found.append("grid")
    if found:
        return found
    raise PuzzleError(f"cannot tell the file's format from {first.text[:40]!r}: expected a native header "
                      f"({'/'.join(names())} ...), a janko size line 'R C', a Tatham game ID "
                      "'3x3:...', a MiniZinc assignment 'n = 3;', a line of N*N sudoku or takuzu symbols, "
                      "a bare grid of N rows, JSON cages"
                      + "".join(", " + hint for hint in format_hints()), line=first.number)


def describe_reading(entries) -> str:
    """``"1 takuzu 16x16"``, ``"16 sudoku 4x4"``: what a reading of a file holds."""
    kinds = Counter((e.puzzle.puzzle, "x".join(map(str, e.puzzle.shape))) for e in entries)
    return ", ".join(f"{count} {kind} {shape}" for (kind, shape), count in kinds.items())


def detect_solution_text(text: str, puzzle) -> str:
    """The format of a solution file for ``puzzle``: a kind's format that claims the text, janko
    (JSON or a header matching the puzzle's shape), killer-json (f-puzzles JSON), tatham (a game ID,
    which holds no solution), a kind's line format whose reader's ``looks_like_solution`` accepts the
    first row (kakuro-csv / killer-csv / sudoku-csv: delimited rows), lines (a word of R*C symbols),
    grid (a one-line grid of separated cells) or native (grid rows)."""
    kind = kind_of(puzzle).name
    claimed = [fmt for fmt, holder in claiming_formats(text) if holder == kind]
    if claimed:
        return claimed[0]
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        return "killer-json" if killer_json.looks_like(stripped) else "janko"
    first = Cursor(split_lines(text)).peek(looks_like_row(native.solution_cell(puzzle)[0]))
    if first is None:
        raise PuzzleError("the file holds no solution: every line is blank or a # comment")
    rows, cols = puzzle.shape
    if _JANKO_HEADER.fullmatch(first.text) and tuple(map(int, first.text.split())) == (rows, cols):
        return "janko"
    if tatham.ID.fullmatch(first.text):
        return "tatham"
    for fmt, _, reader in detecting("line"):
        test = getattr(reader, "looks_like_solution", None)
        if callable(test) and test(first.text, puzzle):
            return fmt
    if rows > 1 and any(len(word) == rows * cols for word in first.text.split()):
        return "lines"
    if rows > 1 and kind in grid.SOLUTIONS and grid.looks_like(text):
        try:  # rows native reads, or a grid only the grid reader reads (separators, rules, letters)
            native.read_solutions(text, puzzle)
        except PuzzleError:
            try:
                grid.read_solutions(text, puzzle)
                return "grid"
            except PuzzleError:
                pass  # native's reading names the problem
    return "native"
