"""Killer Sudoku rows: a cage-id string, the cage sums and optionally the solution, one puzzle a row.

A row is CSV (``,``, ``;`` or tab between fields, quotes as usual) or
whitespace-separated words.  Its fields:

* ``cages``: N*N characters row-major (81 for 9x9), one cage id per cell; a
  cage is the connected region of one id (the krazydad dataset writes a
  marker ``K`` before them: N*N + 1 characters starting with ``K``);
* ``sums``: the cage sums in the order of the ids' characters (``A`` < ``B``
  < ... < ``Z`` < ``a`` ..., i.e. letter order), as a comma list (quoted in CSV)
  or a bracketed list;
* ``solution`` (optional): N*N digits, the reference solution.

A first row with no field of N*N characters is a header naming the columns;
the names ``cages``, ``sums`` and ``solution`` (and the aliases in
:data:`puzzlebench.toolkit.csv_rows.COLUMN_NAMES`, such as krazydad's ``puzz_color``,
``puzz_hint`` and ``solved``) are recognised; ``--csv-columns cages=layout,sums=2``
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

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit import csv_rows
from ...toolkit.entry import Entry, entries_only
from ...toolkit.layout import Layout
from ...toolkit.regions import label_regions
from ...toolkit.rules import MAX_SUDOKU, Rules
from ...toolkit.syntax import grid_words
from ...toolkit.text import TextLine, build_located, content_lines, split_lines
from .. import kind_of, require_applicable, require_kind
from .cages import cages_from_index, canonical_index
from .puzzle import KillerSudoku

PUZZLES = ("killer",)
HINT = "a Killer cage string with its sums"
DETECT = "line"
"""Detection tests :func:`looks_like` on the file's first content line (:func:`puzzlebench.io.detect.candidates`)."""
PLACE = 6
"""The format's place in ``--format``'s list and among detection's tests (:data:`puzzlebench.io.PLACES`)."""
ROLES = ("cages", "sums", "solution")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SYMBOLS = "".join(chr(c) for c in range(33, 127) if chr(c) not in ',;"#')
"""Cage labels the writer uses, in character order as the sums are: letters while they last, else
every printable character but the delimiters, the quote and the comment mark (up to 90 cages)."""
_SUMS = re.compile(r"[\[(]?\s*[0-9]+(?:\s*[,; ]\s*[0-9]+)*\s*[\])]?")
_LENGTHS = {n * n: n for n in range(4, MAX_SUDOKU + 1)}
MARKER = "K"
"""The character the krazydad dataset writes before the cage ids."""


def _cage_ids(field: str) -> str | None:
    """The N*N cage ids of a field (without krazydad's marker), or None if it is no cage string."""
    if any(ch.isspace() or ch in ",;\"" for ch in field):
        return None
    if len(field) in _LENGTHS:
        return field
    if field.startswith(MARKER) and len(field) - 1 in _LENGTHS:
        return field[1:]
    return None


def _is_cage_string(field: str) -> bool:
    return _cage_ids(field) is not None


def _fields(line: TextLine) -> list[str]:
    return csv_rows.fields(line, _is_cage_string)


def looks_like(line: str) -> bool:
    """Is ``line`` a row of this layout: a cage-id string followed by a list of sums (or a header
    naming a cages column)?"""
    try:
        fields = _fields(TextLine(1, line))
    except PuzzleError:
        return False
    if csv_rows.names_a_role(fields, "cages") and len(fields) >= 2:
        return True
    return (len(fields) >= 2 and _is_cage_string(fields[0]) and bool(_SUMS.fullmatch(fields[1]))
            and not grid_words.has_grid_length(fields[1]))


def looks_like_solution(line: str, puzzle) -> bool:
    """Is ``line``, the first row of a solution file for ``puzzle`` (a Killer), a row of this layout?"""
    return kind_of(puzzle).name in PUZZLES and looks_like(line)


check_columns = csv_rows.check_columns


def _sums(field: str, line: int) -> list[int]:
    if not _SUMS.fullmatch(field.strip()):
        raise PuzzleError(f"the sums {field[:30]!r} are not a list of numbers such as \"3,15,7\"", line=line)
    return [int(v) for v in re.findall(r"[0-9]+", field)]


def _row(fields: list[str], columns: dict[str, int], line: TextLine, rules: Rules, name: str, path: str) -> Entry:
    optional = columns.get("solution")
    needed = max(c for role, c in columns.items() if role != "solution") + 1
    if len(fields) < needed:
        raise PuzzleError(f"the row has {len(fields)} fields, expected at least {needed}", line=line.number)
    field = fields[columns["cages"]]
    cages = _cage_ids(field)
    if cages is None:
        raise PuzzleError(f"the cages field has {len(field)} characters, expected N*N (81 for 9x9) cage ids, "
                          f"or {MARKER} and N*N", line=line.number)
    n = _LENGTHS[len(cages)]
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
        solution = grid_words.decode(fields[optional], n) if len(fields[optional]) == n * n else None
        if solution is None or (solution == 0).any():
            raise PuzzleError(f"the solution field is not {n * n} digits 1..{n}", line=line.number)
    others = [f for k, f in enumerate(fields) if k not in columns.values()]
    return Entry(puzzle, name, path, line.number, solution, {"fields": others} if others else {})


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the killer-csv format holds only killer puzzles, not {puzzle}")
    require_applicable(rules, PUZZLES[0])
    header, rows = csv_rows.split_header(text, _fields, _is_cage_string)
    columns = csv_rows.columns(header[1] if header else None, layout.csv, ROLES, ("cages", "sums"),
                               header[0].number if header else None)
    entries = []
    for line, fields in rows:
        try:
            entries.append(_row(fields, columns, line, rules, str(len(entries) + 1), path))
        except PuzzleError as err:
            entries.append(err.locate(None, line.number))
    return entries


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solution of ``puzzle``: the row named by the puzzle's name (or the only row), its
    solution column; a file of bare N*N-digit words is read as the lines format."""
    _require_killer(puzzle)
    found = content_lines(split_lines(text))
    if found and len(_fields(found[0])) == 1:
        from ..sudoku.lines import read_solution  # the lines layout's Sudoku part, loaded on use
        return [(line.number, read_solution(line, puzzle))
                for line in grid_words.solution_lines(text, puzzle)]
    entries = entries_only(read(text, "", PUZZLES[0], Rules()))
    return csv_rows.named_row_solutions(entries, puzzle)


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
    return row + (f",{grid_words.encode(solution)}" if solution is not None else "") + "\n"


def format_puzzle(puzzle) -> str:
    _require_killer(puzzle)
    return "cages,sums\n" + _row_text(puzzle)


def format_entries(entries) -> str:
    """A killer-csv file of several puzzles, with their solutions where they have one."""
    with_solutions = any(e.solution is not None for e in entries)
    head = "cages,sums,solution\n" if with_solutions else "cages,sums\n"
    return head + "".join(_row_text(e.puzzle, e.solution) for e in entries)


def _require_killer(puzzle) -> None:
    require_kind(puzzle, "killer-csv", PUZZLES)


def format_solution(puzzle, grid: np.ndarray) -> str:
    _require_killer(puzzle)
    from ..sudoku.lines import format_solution as lines_solution  # loaded on use
    return lines_solution(puzzle, grid)
