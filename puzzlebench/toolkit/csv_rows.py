"""Rows of delimited fields, one puzzle a row, and the columns that hold each role (Killer and Sudoku CSV).

A row is CSV (``,``, ``;`` or tab between fields, quotes as usual) or, when its
first word is a data field, whitespace-separated words.  A first row with no
data field is a header naming the columns; ``--csv-columns ROLE=COLUMN,...``
(or ``csv:`` in ``set.yaml``) names a role's column by header name or
1-based position when the header uses another name.
"""

from __future__ import annotations

import csv
from collections.abc import Callable

from ..errors import PuzzleError
from .text import TextLine, content_lines, split_lines

COLUMN_NAMES = {  # role -> the header names recognised for it (compared in lower case)
    "cages": ("cages", "cage", "cage_ids", "cage_string", "layout", "regions", "puzz_color"),
    "sums": ("sums", "cage_sums", "totals", "puzz_hint"),
    "puzzle": ("puzzle", "puzzles", "quizzes", "quiz", "problem", "question", "grid", "board"),
    "solution": ("solution", "solutions", "answer", "solved"),
}
ROLES = tuple(COLUMN_NAMES)


def fields(line: TextLine, is_data: Callable[[str], bool]) -> list[str]:
    """A row's fields: whitespace-separated words when the first is a data field (``is_data``), else
    CSV with the first of , ; tab that the line holds, else the words."""
    words = line.text.split()
    if len(words) > 1 and is_data(words[0]):
        return words
    for delimiter in (",", ";", "\t"):
        if delimiter in line.text:
            try:
                return [f.strip() for f in next(csv.reader([line.text], delimiter=delimiter, strict=True))]
            except csv.Error as err:
                raise PuzzleError(f"malformed CSV row: {err}", line=line.number) from None
    return words


def split_header(text: str, split: Callable[[TextLine], list[str]], is_data: Callable[[str], bool]):
    """(header or None, rows) of a text's content lines, each (line, fields): the first row is a
    header when no field of it is a data field."""
    rows = [(line, split(line)) for line in content_lines(split_lines(text))]
    if rows and not any(is_data(f) for f in rows[0][1]):
        return rows[0], rows[1:]
    return None, rows


def check_columns(mapping) -> dict:
    """Validate a role -> column mapping (from --csv-columns or set.yaml's ``csv:``)."""
    if not isinstance(mapping, dict) or not all(isinstance(v, (str, int)) and not isinstance(v, bool)
                                                for v in mapping.values()):
        raise PuzzleError("the csv columns must be a mapping of roles to column names or numbers, "
                          "e.g. {cages: layout, sums: 2}")
    unknown = sorted(set(mapping) - set(ROLES), key=str)
    if unknown:
        raise PuzzleError(f"the csv columns name an unknown role {unknown[0]!r} (roles: {', '.join(ROLES)})")
    if any(str(v).isdecimal() and int(v) < 1 for v in mapping.values()):
        raise PuzzleError("the csv columns count from 1")
    return dict(mapping)


def names_a_role(row: list[str], role: str) -> bool:
    """Does a header row name a column of ``role``?"""
    return bool({f.lower() for f in row} & set(COLUMN_NAMES[role]))


def columns(header: list[str] | None, mapping: dict, roles: tuple[str, ...], required: tuple[str, ...],
            line: int | None) -> dict[str, int]:
    """Role -> 0-based column, from the mapping (names or 1-based numbers), the header, or the position
    in ``roles`` when there is no header."""
    names = [h.lower() for h in header] if header else []
    found = {}
    for role in roles:
        if role in mapping:
            ref = str(mapping[role])
            if ref.isdecimal():
                found[role] = int(ref) - 1
            elif ref.lower() in names:
                found[role] = names.index(ref.lower())
            else:
                raise PuzzleError(f"the csv columns say {role}={ref}, but the header has no column {ref!r}"
                                  + (f" (columns: {', '.join(header)})" if header else " (the file has no header)"),
                                  line=line)
        elif header:
            column = next((names.index(n) for n in COLUMN_NAMES[role] if n in names), None)
            if column is not None:
                found[role] = column
        else:
            found[role] = roles.index(role)
    for role in required:
        if role not in found:
            raise PuzzleError(f"the header has no {role} column (columns: {', '.join(header)}); "
                              f"name it with --csv-columns {role}=NAME", line=line)
    return found


def named_row_solutions(entries, puzzle) -> list:
    """(line, grid) of the solution of ``puzzle`` among a file's rows ``entries``: the row named as the
    puzzle is (or the only row); a grid of another shape than the puzzle's is refused at its line."""
    pick = [e for e in entries if e.name == puzzle.name] if len(entries) > 1 else entries
    found = [(e.line, e.solution) for e in pick if e.solution is not None]
    for line, grid in found:
        if grid.shape != puzzle.shape:
            raise PuzzleError(f"the solution is {grid.shape[0]} x {grid.shape[1]}, the puzzle "
                              f"{puzzle.shape[0]} x {puzzle.shape[1]}", line=line)
    return found
