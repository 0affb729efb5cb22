"""Killer Sudoku rows: a cage-id string, the cage sums and optionally the solution, one puzzle a row.

A row is CSV (``,``, ``;`` or tab between fields, quotes as usual) or
whitespace-separated words.  Its fields:

* ``cages``: N*N characters row-major (81 for 9x9), one cage id per cell; a
  cage is the connected region of one id;
* ``sums``: the cage sums in the order of the ids' characters (``A`` < ``B``
  < ... < ``Z`` < ``a`` ..., i.e. letter order), as a comma list (quoted in CSV)
  or a bracketed list;
* ``solution`` (optional): N*N digits, the reference solution.

A first row with no field of N*N characters is a header naming the columns;
the names ``cages``, ``sums`` and ``solution`` (and the aliases in
:data:`COLUMN_NAMES`) are recognised; ``--csv-columns cages=layout,sums=2``
or a ``csv:`` mapping in ``set.yaml`` says which column is which, by header
name or 1-based position.  Without a header the columns are cages, sums,
solution in that order.  Other columns are kept in ``Entry.extra["fields"]``.
Boxes are the squarest shape (``options: {box: RxC}`` says otherwise), the
diagonal rule is the set option ``diagonal: true``.  Puzzles are named by
their 1-based row among the puzzle rows::

    cages,sums,solution
    AABBCDDCEEFFGGHH,"3,7,4,6,3,7,3,7",1234341221434321
"""

from __future__ import annotations

import csv
import re

import numpy as np

from ..errors import PuzzleError
from ..puzzles import KillerSudoku
from . import lines
from .entry import Entry
from .regions import cages_from_index, canonical_index, label_regions
from .rules import MAX_SUDOKU, Rules
from .text import TextLine, build_located, content_lines, split_lines

PUZZLES = ("killer",)
ROLES = ("cages", "sums", "solution")
COLUMN_NAMES = {"cages": ("cages", "cage", "cage_ids", "cage_string", "layout", "regions"),
                "sums": ("sums", "cage_sums", "totals"),
                "solution": ("solution", "solutions", "answer")}
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SYMBOLS = "".join(chr(c) for c in range(33, 127) if chr(c) not in ',;"#')
"""Cage labels the writer uses, in character order as the sums are: letters while they last, else
every printable character but the delimiters, the quote and the comment mark (up to 90 cages)."""
_SUMS = re.compile(r"[\[(]?\s*[0-9]+(?:\s*[,; ]\s*[0-9]+)*\s*[\])]?")
_LENGTHS = {n * n: n for n in range(4, MAX_SUDOKU + 1)}


def _fields(line: TextLine) -> list[str]:
    """A row's fields: whitespace-separated words when the first is a cage string, else CSV with
    the first of , ; tab that the line holds, else the words."""
    words = line.text.split()
    if len(words) > 1 and _is_cage_string(words[0]):
        return words
    for delimiter in (",", ";", "\t"):
        if delimiter in line.text:
            try:
                return [f.strip() for f in next(csv.reader([line.text], delimiter=delimiter, strict=True))]
            except csv.Error as err:
                raise PuzzleError(f"malformed CSV row: {err}", line=line.number) from None
    return line.text.split()


def _is_cage_string(field: str) -> bool:
    return len(field) in _LENGTHS and not any(ch.isspace() or ch in ",;\"" for ch in field)


def looks_like(line: str) -> bool:
    """Is ``line`` a row of this layout: a cage-id string followed by a list of sums?"""
    try:
        fields = _fields(TextLine(1, line))
    except PuzzleError:
        return False
    if {f.lower() for f in fields} & set(COLUMN_NAMES["cages"]) and len(fields) >= 2:
        return True
    return (len(fields) >= 2 and _is_cage_string(fields[0]) and bool(_SUMS.fullmatch(fields[1]))
            and not lines.has_grid_length(fields[1]))


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


def _columns(header: list[str] | None, mapping: dict, line: int | None) -> dict[str, int]:
    """Role -> 0-based column, from the mapping (names or 1-based numbers), the header, or the position."""
    names = [h.lower() for h in header] if header else []
    columns = {}
    for role in ROLES:
        if role in mapping:
            ref = str(mapping[role])
            if ref.isdecimal():
                columns[role] = int(ref) - 1
            elif ref.lower() in names:
                columns[role] = names.index(ref.lower())
            else:
                raise PuzzleError(f"the csv columns say {role}={ref}, but the header has no column {ref!r}"
                                  + (f" (columns: {', '.join(header)})" if header else " (the file has no header)"),
                                  line=line)
        elif header:
            found = next((names.index(n) for n in COLUMN_NAMES[role] if n in names), None)
            if found is not None:
                columns[role] = found
        else:
            columns[role] = ROLES.index(role)
    for role in ("cages", "sums"):
        if role not in columns:
            raise PuzzleError(f"the header has no {role} column (columns: {', '.join(header)}); "
                              f"name it with --csv-columns {role}=NAME", line=line)
    return columns


def _sums(field: str, line: int) -> list[int]:
    if not _SUMS.fullmatch(field.strip()):
        raise PuzzleError(f"the sums {field[:30]!r} are not a list of numbers such as \"3,15,7\"", line=line)
    return [int(v) for v in re.findall(r"[0-9]+", field)]


def _row(fields: list[str], columns: dict[str, int], line: TextLine, rules: Rules, name: str, path: str) -> Entry:
    optional = columns.get("solution")
    needed = max(c for role, c in columns.items() if role != "solution") + 1
    if len(fields) < needed:
        raise PuzzleError(f"the row has {len(fields)} fields, expected at least {needed}", line=line.number)
    cages = fields[columns["cages"]]
    n = _LENGTHS.get(len(cages))
    if n is None or not _is_cage_string(cages):
        raise PuzzleError(f"the cages field has {len(cages)} characters, expected N*N (81 for 9x9) cage ids",
                          line=line.number)
    labels = np.array(list(cages)).reshape(n, n)
    index, order = build_located(lambda: label_regions(labels.tolist()), [], line.number)
    sums = _sums(fields[columns["sums"]], line.number)
    ids = sorted(set(cages))
    if len(sums) != len(ids):
        raise PuzzleError(f"{len(ids)} cages ({''.join(ids)[:20]}...) but {len(sums)} sums", line=line.number)
    by_id = dict(zip(ids, sums))
    cages_ = cages_from_index(index, [by_id[label] for label in order])
    br, bc = rules.box_for(n)
    puzzle = build_located(lambda: KillerSudoku(np.zeros((n, n), np.int64), br, bc, name, cages=cages_,
                                                diagonal=bool(rules.diagonal)), [], line.number)
    solution = None
    if optional is not None and optional < len(fields) and fields[optional]:
        solution = lines.decode(fields[optional], n) if len(fields[optional]) == n * n else None
        if solution is None or (solution == 0).any():
            raise PuzzleError(f"the solution field is not {n * n} digits 1..{n}", line=line.number)
    others = [f for k, f in enumerate(fields) if k not in columns.values()]
    return Entry(puzzle, name, path, line.number, solution, {"fields": others} if others else {})


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: dict | None = None) -> list[Entry]:
    if puzzle not in (None, "killer"):
        raise PuzzleError(f"the killer-csv format holds only killer puzzles, not {puzzle}")
    rules.require_applicable("killer")
    mapping = check_columns(layout or {})
    rows = [(line, _fields(line)) for line in content_lines(split_lines(text))]
    header = None
    if rows and not any(_is_cage_string(f) for f in rows[0][1]):
        header, rows = rows[0], rows[1:]
    columns = _columns(header[1] if header else None, mapping, header[0].number if header else None)
    entries = []
    for line, fields in rows:
        entries.append(_row(fields, columns, line, rules, str(len(entries) + 1), path))
    return entries


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solution of ``puzzle``: the row named by the puzzle's name (or the only row), its
    solution column; a file of bare N*N-digit words is read as the lines format."""
    _require_killer(puzzle)
    found = content_lines(split_lines(text))
    if found and len(_fields(found[0])) == 1:
        return lines.read_solutions(text, puzzle)
    entries = read(text, "", "killer", Rules())
    pick = [e for e in entries if e.name == puzzle.name] if len(entries) > 1 else entries
    found = [(e.line, e.solution) for e in pick if e.solution is not None]
    for line, grid in found:
        if grid.shape != puzzle.shape:
            raise PuzzleError(f"the solution is {grid.shape[0]} x {grid.shape[1]}, the puzzle "
                              f"{puzzle.shape[0]} x {puzzle.shape[1]}", line=line)
    return found


def _row_text(puzzle: KillerSudoku, solution: np.ndarray | None = None) -> str:
    if puzzle.diagonal or puzzle.num_givens:
        raise PuzzleError(f"the killer-csv format cannot state {'the diagonal rule' if puzzle.diagonal else 'givens'}; "
                          "use the native format")
    if (puzzle.box_rows, puzzle.box_cols) != Rules().box_for(puzzle.n):
        raise PuzzleError(f"the killer-csv format cannot state the box shape {puzzle.box_rows}x{puzzle.box_cols}; "
                          "use the native format")
    index = canonical_index(puzzle)
    labels = LETTERS if index.max() < len(LETTERS) else SYMBOLS
    if index.max() >= len(labels):
        raise PuzzleError(f"the killer-csv format labels at most {len(labels)} cages, the puzzle has "
                          f"{index.max() + 1}")
    totals = [0] * (int(index.max()) + 1)
    for cage in puzzle.cages:
        totals[index[cage.cells[0]]] = cage.total
    cages = "".join(labels[k] for k in index.ravel().tolist())
    row = f'{cages},"{",".join(map(str, totals))}"'
    return row + (f",{lines.encode(solution)}" if solution is not None else "") + "\n"


def format_puzzle(puzzle) -> str:
    _require_killer(puzzle)
    return "cages,sums\n" + _row_text(puzzle)


def format_entries(entries) -> str:
    """A killer-csv file of several puzzles, with their solutions where they have one."""
    with_solutions = any(e.solution is not None for e in entries)
    head = "cages,sums,solution\n" if with_solutions else "cages,sums\n"
    return head + "".join(_row_text(e.puzzle, e.solution) for e in entries)


def _require_killer(puzzle) -> None:
    if not isinstance(puzzle, KillerSudoku):
        raise PuzzleError(f"the killer-csv format holds only killer puzzles, not {puzzle.puzzle}")


def format_solution(puzzle, grid: np.ndarray) -> str:
    _require_killer(puzzle)
    return lines.format_solution(puzzle, grid)
