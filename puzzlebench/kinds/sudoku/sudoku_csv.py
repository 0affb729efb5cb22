"""Sudoku CSV: one puzzle a row, its N*N symbols in one field, optionally the solution in another.

The layout of the Kaggle datasets and their copies: a header such as
``quizzes,solutions`` (the 1 million Sudoku set), ``puzzle,solution``,
``Puzzle,solution`` or ``id,puzzle,solution,clues,difficulty`` (the 3 million
set), then one row per puzzle; the header names are matched in any case
(:data:`puzzlebench.toolkit.csv_rows.COLUMN_NAMES`; ``--csv-columns puzzle=NAME,solution=NAME`` for
others).  Without a header (a first row holding a grid field) the first grid
field of a row is the puzzle and the next one the solution, whatever the
delimiter (``,``, ``;`` or tab; ``<puzzle>;<solution>``).  Other columns are
kept in ``Entry.extra["fields"]``.

Symbols: one alphabet for all the file's grids of a size, inferred from all of
them (:mod:`puzzlebench.toolkit.symbols`): ``0`` or ``.`` a blank in 9x9 grids; ``0-9a-f`` with
``.`` blanks in krazydad's hexadecimal 16x16 set.  Box shape: the squarest
(``options: {box: RxC}``).  Puzzles are named by their 1-based row among the
puzzle rows.  A solution has no blanks.  Written with the header
``puzzle,solution`` (``.`` blanks, the lines format's symbols)::

    quizzes,solutions
    004300209005009001070060043006002087190007400050083000600000105003508690042910300,864371259325849761971265843436192587198657432257483916689734125713528694542916378
"""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from ...toolkit import csv_rows
from ...toolkit.entry import Entry, entries_only
from ...toolkit.layout import Layout
from ...toolkit.rules import Rules
from ...toolkit.syntax import grid_words
from ...toolkit.text import TextLine
from .. import kinds, require_applicable, require_kind
from .puzzle import Sudoku

PUZZLES = ("sudoku",)
HINT = "a CSV header 'puzzle,solution'"
DETECT = "line"
"""Detection tests :func:`looks_like` on the file's first content line (:func:`puzzlebench.io.detect.candidates`)."""
PLACE = 7
"""The format's place in ``--format``'s list and among detection's tests (:data:`puzzlebench.io.PLACES`)."""
ROLES = ("puzzle", "solution")


def _is_grid(field: str) -> bool:
    from .lines import looks_like as is_sudoku_word  # the kind's lines part: loaded on use, not with the kind
    return is_sudoku_word(field) and len(field.split()) == 1


def _fields(line: TextLine) -> list[str]:
    return csv_rows.fields(line, _is_grid)


def looks_like(line: str) -> bool:
    """A delimited header naming a puzzle column and another column, or a delimited row with a grid field."""
    if not any(d in line for d in ",;\t"):
        return False
    try:
        fields = _fields(TextLine(1, line))
    except PuzzleError:
        return False
    return len(fields) >= 2 and (csv_rows.names_a_role(fields, "puzzle") or any(_is_grid(f) for f in fields))


def looks_like_solution(line: str, puzzle) -> bool:
    """Is ``line``, the first row of a solution file for ``puzzle`` (of more than one row), a row of this
    layout?  Asked for a puzzle of any kind: one whose solutions this format does not hold is then
    refused by :func:`read_solutions`, naming the kinds it holds."""
    return puzzle.shape[0] > 1 and looks_like(line)


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the sudoku-csv format holds only sudoku puzzles, not {puzzle}")
    require_applicable(rules, PUZZLES[0])
    header, rows = csv_rows.split_header(text, _fields, _is_grid)
    columns = None
    if header is not None or layout.csv:
        columns = csv_rows.columns(header[1] if header else None, layout.csv, ROLES, ("puzzle",),
                                   header[0].number if header else None)
    parsed = []  # (line, side, [puzzle word, solution word?], other fields) or a PuzzleError
    for line, fields in rows:
        try:
            parsed.append(_row(line, fields, columns, layout))
        except PuzzleError as err:
            parsed.append(err.locate(None, line.number))
    from .lines import sudoku_entries
    return sudoku_entries(parsed, path, rules, layout, "the solution field")


def _row(line: TextLine, fields: list[str], columns: dict | None, layout: Layout):
    """(line, side, grid words, other fields) of a row."""
    if columns is None:
        chosen = [k for k, f in enumerate(fields) if _is_grid(f)][:2]
        if not chosen:
            raise PuzzleError("the row has no field of N*N sudoku symbols", line=line.number)
    else:
        chosen = [columns[role] for role in ROLES if role in columns]
        if columns["puzzle"] >= len(fields):
            raise PuzzleError(f"the row has {len(fields)} fields, the puzzle column is {columns['puzzle'] + 1}",
                              line=line.number)
        if "solution" in columns and (columns["solution"] >= len(fields) or not fields[columns["solution"]]):
            chosen = chosen[:1]
    words = [fields[k] for k in chosen]
    n = grid_words.side_of(words[0], layout.size)
    if n is None:
        raise PuzzleError(f"the puzzle field has {len(words[0])} characters, not N*N (81 for 9x9) symbols",
                          line=line.number)
    if len(words) > 1 and len(words[1]) != len(words[0]):
        raise PuzzleError(f"the solution field has {len(words[1])} characters, the puzzle {len(words[0])}",
                          line=line.number)
    others = [f for k, f in enumerate(fields) if k not in chosen]
    return line, n, words, others


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solution of ``puzzle`` (a Sudoku or a Killer): that of the row named by the puzzle's name
    (or of the only row)."""
    _require_solution(puzzle)
    entries = entries_only(read(text, "", PUZZLES[0], Rules(box=(puzzle.box_rows, puzzle.box_cols))))
    return csv_rows.named_row_solutions(entries, puzzle)


def format_puzzle(puzzle) -> str:
    return format_entries([Entry(puzzle, "1", "", None)])


def format_entries(entries) -> str:
    """A sudoku-csv file of several puzzles, with their solutions where they have one."""
    for e in entries:
        _check_writable(e.puzzle)
    return "puzzle,solution\n" + "".join(f"{grid_words.encode(e.puzzle.givens)},"
                                         f"{grid_words.encode(e.solution) if e.solution is not None else ''}\n"
                                         for e in entries)


def _check_writable(puzzle) -> None:
    require_kind(puzzle, "sudoku-csv", PUZZLES)
    from .lines import format_puzzle as lines_puzzle  # loaded on use
    lines_puzzle(puzzle)  # the same limits as a lines word: size and box shape


def solution_kinds() -> tuple[str, ...]:
    """The kinds whose solutions this format holds: every kind whose puzzles are Sudokus (a Killer's
    solution is a Sudoku digit grid: :class:`~puzzlebench.kinds.killer.puzzle.KillerSudoku` is a
    :class:`~.puzzle.Sudoku`), in the registry's order."""
    return tuple(kind.name for kind in kinds() if issubclass(kind.type, Sudoku))


def _require_solution(puzzle) -> None:
    require_kind(puzzle, "sudoku-csv", solution_kinds(), "solutions")


def format_solution(puzzle, grid: np.ndarray) -> str:
    _require_solution(puzzle)
    blank = Sudoku(np.zeros(puzzle.shape, np.int64), puzzle.box_rows, puzzle.box_cols)
    return format_entries([Entry(blank, "1", "", None, np.asarray(grid))])
