"""The lines format: one puzzle per line, as in the classic benchmark lists (Sudoku, Binairo lines).

A line is words separated by blanks; what its words state is the kinds' (the ``lines`` parts of
:attr:`puzzlebench.kinds.PuzzleKind.layouts`): Sudoku (``kinds/sudoku/lines.py``: a *grid word* of N*N
symbols) and Takuzu (``kinds/takuzu/lines.py``: ``0``/``1`` and blanks, after an optional ``RxC``); a
Killer's solution is a Sudoku grid (the killer kind's ``lines`` part is the sudoku kind's).  With no ``--puzzle`` the file is
read as each kind whose part reads puzzles, in the kinds' order, and it must read as exactly one of
them: when every line reads as two (a Sudoku and a Takuzu of ``0``, ``1`` and ``.`` only), the reader
asks for ``--puzzle`` rather than choose.

``#`` comment lines and blank lines are skipped; LF and CRLF ends both work.
Puzzles are named by their 1-based index among the puzzles (not the lines).

A grid word is N*N characters, row-major, no separator among them (``,;|"'``); N is 4 to 36 (16,
81, 256, 625 or 1296 characters).  Its symbols are one alphabet for all the file's grid words of a
size, inferred from all of them (:mod:`puzzlebench.toolkit.symbols`; ``--symbols`` names it when several fit); the
default writes ``.`` blanks and ``1``-``9`` then ``A``-``Z`` and ``a`` (36)::

    4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......

A lines solution file holds one solution per line (a part says which word of it); in a file of
several lines, the solution of puzzle "K" is on the K-th (non-comment) line.
"""

from __future__ import annotations

import numpy as np

from ..errors import PuzzleError
from ..kinds import layout_parts
from ..toolkit.layout import Layout
from ..toolkit.syntax.grid_words import solution_lines
from ..toolkit.text import AmbiguousReading, listing
from .parts import layout_holds, puzzle_part, solution_part


def __getattr__(name: str):
    if name in ("PUZZLES", "SOLUTIONS"):  # computed on use, as the kinds load on first use
        return layout_holds("lines", name.lower())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def looks_like(text: str) -> bool:
    """Does a line look like one of a kind's lines (a part's ``looks_like``)?"""
    return any(part.looks_like(text) for part in layout_parts("lines").values())


def read(text: str, path: str, puzzle: str | None, rules, layout: Layout = Layout()) -> list:
    """The puzzles of the lines of ``text``, as kind ``puzzle``; with ``puzzle`` None the file is read
    as each kind, and it must be exactly one of them (a file two readers accept is refused: say which
    with --puzzle)."""
    readers = {kind: part.read for kind, part in layout_parts("lines").items()}
    if puzzle not in (None, *readers):
        raise PuzzleError(f"the lines format holds only {listing(readers)} puzzles, not {puzzle}")
    if puzzle is not None:
        return readers[puzzle](text, path, rules, layout)
    return read_either(readers, text, path, rules, layout)


def read_either(readers: dict, *args, unit: str = "line") -> list:
    """The entries of the one reader in ``readers`` (kind -> reader) that reads every puzzle of the
    file; a file two of them read is refused (say which with --puzzle); when none reads it all,
    the reading that kept most puzzles (its refused puzzles as PuzzleErrors), else the error of
    the reader that got furthest."""
    read, failures = {}, []
    for kind, reader in readers.items():
        try:
            read[kind] = reader(*args)
        except PuzzleError as err:
            failures.append(err)
            continue
        failures += [i for i in read[kind] if isinstance(i, PuzzleError)][:1]
    whole = [kind for kind, items in read.items() if not any(isinstance(i, PuzzleError) for i in items)]
    if len(whole) > 1:
        raise AmbiguousReading(f"every {unit} reads both as a {whole[0]} and as a {whole[1]}: "
                          f"say which with --puzzle {whole[0]} or --puzzle {whole[1]}")
    if whole:
        return read[whole[0]]
    ambiguous = next((err for err in failures if isinstance(err, AmbiguousReading)), None)
    if ambiguous is not None:
        raise ambiguous
    kept = {kind: sum(not isinstance(i, PuzzleError) for i in items) for kind, items in read.items()}
    if kept and max(kept.values()) > 0:
        return read[max(kept, key=kept.get)]
    raise max(failures, key=lambda err: err.line or 0)  # the reader that got furthest


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solution for ``puzzle`` as [(line, grid)]: that of its line (:func:`~puzzlebench.toolkit.syntax.grid_words.solution_lines`)."""
    part = solution_part(puzzle, "lines")
    return [(line.number, part.read_solution(line, puzzle)) for line in solution_lines(text, puzzle)]


def format_puzzle(puzzle) -> str:
    return puzzle_part(puzzle, "lines").format_puzzle(puzzle)


def format_solution(puzzle, grid: np.ndarray) -> str:
    return solution_part(puzzle, "lines").format_solution(puzzle, grid)
