"""The janko.at / puzzlekit layout, as a plain text file or a puzzlekit JSON dataset.

A puzzle is a header ``R C`` (rows, columns) followed by rows of space-separated tokens (or one
character per cell, without spaces).  What the rows state is the kinds' (the ``janko`` parts of
:attr:`puzzlebench.kinds.PuzzleKind.layouts`): Sudoku (``kinds/sudoku/janko.py``: numbers 1..N, ``-``
a blank), Killer Sudoku (``kinds/killer/janko.py``: a clue layer and a region layer), Kakuro
(``kinds/kakuro/janko.py``: ``-``, ``0`` and ``D,A`` clues) and Binairo (``kinds/takuzu/janko.py``:
``1``/``2`` or ``O``/``X``).  A solution has the same header and rows.

A plain file holds one puzzle; with no ``puzzle=`` its kind is that of the first part, in the kinds'
order, that claims the text (two layers of R rows -> Killer, a ``,`` in a token -> Kakuro, only ``0 1
2 -`` or only ``O X . -`` -> Binairo), else that of the part that claims nothing (Sudoku).  A part
whose claimed grids may read as that kind's too (Binairo's ``1``/``2`` are digits) names them
(``CLASH``): such a grid is read both ways, and refused when both read it (``puzzle=`` must say
which).

A puzzlekit JSON dataset ``{"count", "count_sol", "name", "data": {key:
{"problem", "solution", "source", "info"}}}`` holds many puzzles with their
solutions; ``name`` (a part's ``DATASET``: Sudoku, KillerSudoku, Kakuro, Binairo) gives the kind,
each entry is named by its key and keeps its janko URL in ``extra["url"]``.
"""

from __future__ import annotations

import json

import numpy as np

from ..errors import PuzzleError
from ..kinds import layout_parts, require_applicable
from ..toolkit.entry import Entry
from ..toolkit.rules import Rules
from ..toolkit.syntax.janko import body
from ..toolkit.text import MAX_SIDE, TextLine, as_uint, content_lines, listing, parse_row, split_lines
from .parts import puzzle_part, solution_part


def __getattr__(name: str):
    if name == "PUZZLES":  # computed on use, as the kinds load on first use
        return tuple(layout_parts("janko"))
    if name == "DATASET_KINDS":
        return _dataset_kinds()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _dataset_kinds() -> dict[str, str]:
    """Dataset name -> kind, of each kind's part (its ``DATASET``)."""
    return {part.DATASET: kind for kind, part in layout_parts("janko").items()}


# ---------------------------------------------------------------- puzzles

def _header(line: TextLine) -> tuple[int, int]:
    sizes = [as_uint(t) for t in line.text.split()]
    if len(sizes) != 2 or any(s is None or not 1 <= s <= MAX_SIDE for s in sizes):
        raise PuzzleError(f"bad header: expected 'ROWS COLS' (two numbers 1..{MAX_SIDE}), got {line.text[:40]!r}",
                          line=line.number)
    return sizes[0], sizes[1]


def infer_kind(lines: list[TextLine], rows: int) -> str:
    """The kind a janko text most likely holds: that of the first part that claims it, else that of the
    part that claims nothing (see the module docstring)."""
    rows_after = lines[1:]
    tokens: set[str] = set()
    for line in rows_after:
        words = line.text.split()
        tokens.update(words if len(words) > 1 else line.text)  # a one-word row: one cell per character
    parts = layout_parts("janko")
    return next((kind for kind, part in parts.items() if hasattr(part, "claims")
                 and part.claims(rows_after, rows, tokens)), _default(parts))


def _default(parts: dict) -> str:
    """The kind whose part claims nothing: a text no other part claims is its."""
    return next(kind for kind, part in parts.items() if not hasattr(part, "claims"))


def _readable_kind(lines: list[TextLine], inferred: str, rules: Rules, name: str) -> str:
    """``inferred``, unless its part names grids that may read as the default kind's too (``CLASH``): then
    both readers are tried, and a grid both accept is refused rather than guessed."""
    parts = layout_parts("janko")
    clash = getattr(parts[inferred], "CLASH", None)
    if clash is None:
        return inferred
    default = _default(parts)
    readable = []
    for kind in (inferred, default):
        try:
            parse_problem(lines, kind, rules, name)
        except PuzzleError:
            continue
        readable.append(kind)
    if len(readable) > 1:
        raise PuzzleError(f"this grid of {clash} reads both as a {parts[inferred].DATASET} ({inferred}) and as a "
                          f"{default}: say which with --puzzle", line=lines[0].number)
    return readable[0] if readable else inferred


def parse_problem(lines: list[TextLine], kind: str | None, rules: Rules, name: str):
    """The puzzle of a janko text (header line first); ``kind`` None means infer it."""
    if not lines:
        raise PuzzleError("no puzzle: the text is empty")
    rows, cols = _header(lines[0])
    if kind is None:
        kind = _readable_kind(lines, infer_kind(lines, rows), rules, name)
    parts = layout_parts("janko")
    if kind not in parts:
        raise PuzzleError(f"the janko format holds only {listing(parts)} puzzles, not {kind}")
    require_applicable(rules, kind)
    return parts[kind].read(lines, rows, cols, rules, name)


def parse_solution(lines: list[TextLine], puzzle) -> np.ndarray:
    """The solution grid of a janko text for ``puzzle`` (its header must match the puzzle's shape)."""
    if not lines:
        raise PuzzleError("no solution: the text is empty")
    shape = _header(lines[0])
    if shape != puzzle.shape:
        raise PuzzleError(f"the solution is {shape[0]} x {shape[1]}, the puzzle {puzzle.shape[0]} x "
                          f"{puzzle.shape[1]}", line=lines[0].number)
    cell, what = solution_part(puzzle, "janko").solution_cell(lines, puzzle)
    return np.array([parse_row(r, shape[1], cell, what) for r in body(lines, shape[0])])


# ---------------------------------------------------------------- files and datasets

def _load_dataset(text: str) -> tuple[str | None, dict]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise PuzzleError(f"not valid JSON: {err.msg}", line=err.lineno) from None
    except RecursionError:
        raise PuzzleError("not valid JSON: nested too deeply") from None
    if not isinstance(data, dict) or not isinstance(data.get("data"), dict):
        raise PuzzleError('a puzzlekit dataset is a JSON object with a "data" object of records')
    return data.get("name"), data["data"]


def _record_text(key: str, record, field: str) -> str:
    if not isinstance(record, dict) or not isinstance(record.get(field, ""), str):
        raise PuzzleError(f'record {key}: expected an object whose "{field}" is a string')
    return record.get(field, "")


def _in_record(key: str, part: str, err: PuzzleError) -> PuzzleError:
    where = f", {part} line {err.line}" if err.line is not None else f", {part}"
    return PuzzleError(f"record {key}{where}: {err.problem}")


def _dataset_kind(name, puzzle: str | None) -> str:
    known = _dataset_kinds()
    kind = known.get(name) if isinstance(name, str) else None
    if kind and puzzle and kind != puzzle:
        raise PuzzleError(f"this is a {name} dataset, not {puzzle}")
    if not (kind or puzzle):
        raise PuzzleError(f"unknown dataset name {name!r} (known: {', '.join(known)}); "
                          "say which puzzle it holds")
    return kind or puzzle


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout=None) -> list:
    if text.lstrip().startswith("{"):
        return _read_dataset(text, path, puzzle, rules)
    lines = content_lines(split_lines(text))
    return [Entry(parse_problem(lines, puzzle, rules, "1"), "1", path, lines[0].number)]


def _read_dataset(text: str, path: str, puzzle: str | None, rules: Rules) -> list[Entry]:
    name, records = _load_dataset(text)
    kind = _dataset_kind(name, puzzle)
    entries = []
    for key, record in records.items():
        try:
            problem = content_lines(split_lines(_record_text(key, record, "problem")))
            try:
                p = parse_problem(problem, kind, rules, key)
            except PuzzleError as err:
                raise _in_record(key, "problem", err) from None
            solution_text = _record_text(key, record, "solution")
            try:
                solution = parse_solution(content_lines(split_lines(solution_text)), p) if solution_text else None
            except PuzzleError as err:
                raise _in_record(key, "solution", err) from None
        except PuzzleError as err:
            entries.append(err)
            continue
        url = record.get("source")
        entries.append(Entry(p, key, path, None, solution, {"url": url} if isinstance(url, str) and url else {}))
    return entries


def read_solutions(text: str, puzzle) -> list[tuple[int | None, np.ndarray]]:
    """The solution in a janko text, or that of the record named ``puzzle.name`` in a dataset."""
    if not text.lstrip().startswith("{"):
        lines = content_lines(split_lines(text))
        return [(lines[0].number if lines else None, parse_solution(lines, puzzle))]
    _, records = _load_dataset(text)
    if puzzle.name not in records:
        raise PuzzleError(f"the dataset has no record named {puzzle.name!r}")
    solution_text = _record_text(puzzle.name, records[puzzle.name], "solution")
    if not solution_text:
        raise PuzzleError(f"record {puzzle.name} holds no solution")
    try:
        return [(None, parse_solution(content_lines(split_lines(solution_text)), puzzle))]
    except PuzzleError as err:
        raise _in_record(puzzle.name, "solution", err) from None


# ---------------------------------------------------------------- writing

def format_puzzle(puzzle) -> str:
    return puzzle_part(puzzle, "janko").format_puzzle(puzzle)


def format_solution(puzzle, grid: np.ndarray) -> str:
    return solution_part(puzzle, "janko").format_solution(puzzle, grid)
