"""The janko.at / puzzlekit layout, as a plain text file or a puzzlekit JSON dataset.

A puzzle is a header ``R C`` (rows, columns) followed by rows of
space-separated tokens:

* Sudoku: numbers 1..N, ``-`` a blank.
* Killer Sudoku: R rows of the clue layer (each cage's sum in one of its
  cells, ``-`` elsewhere), then R rows of the region layer (a cage id per
  cell).  Boxes are the squarest shape (2x2, 2x3, 3x3); no givens.
* Kakuro: ``-`` a block, ``0`` a white cell, ``D,A`` a clue cell with down
  sum D and across sum A (``16,`` down only, ``,23`` across only).
* Binairo (Takuzu): ``1`` and ``2`` the two colours (read as 0 and 1), ``-``
  (or ``0``, as in ``20x20_1.txt``) a blank; or ``O`` and ``X`` (read as 0
  and 1) with ``.`` or ``-`` blanks (pottu/takuzu's instances, ``16 22``: not
  square).  Rows may be written without spaces, one character per cell.

A plain file holds one puzzle; with no ``puzzle=`` its type is inferred: two
layers of R rows -> Killer, a ``,`` in a token -> Kakuro, only ``0 1 2 -``
or only ``O X . -`` -> Binairo (unless it reads as a Sudoku too: then ``puzzle=`` must say which),
else Sudoku.  A solution has the same header and rows (Kakuro:
``-`` in every non-white cell; Binairo: ``1``/``2``).

A puzzlekit JSON dataset ``{"count", "count_sol", "name", "data": {key:
{"problem", "solution", "source", "info"}}}`` holds many puzzles with their
solutions; ``name`` (Sudoku, KillerSudoku, Kakuro, Binairo) gives the type,
each entry is named by its key and keeps its janko URL in ``extra["url"]``.
"""

from __future__ import annotations

import json
import re

import numpy as np

from ..errors import PuzzleError
from ..puzzles import Kakuro, KillerSudoku, Sudoku, Takuzu, digit_sum_range
from .entry import Entry
from .regions import cages_from_index, canonical_index, label_regions
from .rules import MAX_SUDOKU, Rules
from .text import (
    MAX_SIDE,
    TextLine,
    as_uint,
    build_located,
    content_lines,
    kakuro_clue,
    parse_row,
    require_kind,
    row_cells,
    split_lines,
)

PUZZLES = ("sudoku", "killer", "kakuro", "takuzu")

DATASET_KINDS = {"Sudoku": "sudoku", "KillerSudoku": "killer", "Kakuro": "kakuro", "Binairo": "takuzu"}
_CLUE = re.compile(r"([0-9]{0,2}),([0-9]{0,2})")


# ---------------------------------------------------------------- cell tokens

def _sudoku_cell(n: int):
    def cell(token: str) -> int | None:
        if token == "-":
            return 0
        value = as_uint(token)
        return value if value is not None and 1 <= value <= n else None
    return cell


def _number(token: str) -> int | None:
    if token == "-":
        return 0
    value = as_uint(token)
    return value if value else None


def _kakuro_cell(token: str) -> tuple[int, int, int] | None:
    """Token -> (white, down, across)."""
    if token in ("-", "0"):
        return (0, 0, 0) if token == "-" else (1, 0, 0)
    return kakuro_clue(_CLUE, token)


_BINAIRO = {"1": 0, "2": 1, "-": -1, "0": -1}
_OX = {"O": 0, "X": 1, ".": -1, "-": -1}


def _takuzu_cells(tokens: set[str]) -> dict[str, int]:
    """The Binairo symbols a grid uses: O/X when it has no 1 or 2, else janko's 1/2."""
    return _OX if tokens <= set(_OX) and tokens & {"O", "X"} else _BINAIRO


def _kakuro_solution_cell(token: str) -> int | None:
    if token == "-":
        return 0
    return int(token) if len(token) == 1 and token in "123456789" else None


# ---------------------------------------------------------------- puzzles

def _header(line: TextLine) -> tuple[int, int]:
    sizes = [as_uint(t) for t in line.text.split()]
    if len(sizes) != 2 or any(s is None or not 1 <= s <= MAX_SIDE for s in sizes):
        raise PuzzleError(f"bad header: expected 'ROWS COLS' (two numbers 1..{MAX_SIDE}), got {line.text[:40]!r}",
                          line=line.number)
    return sizes[0], sizes[1]


def _body(lines: list[TextLine], count: int) -> list[TextLine]:
    """Exactly ``count`` rows after the header."""
    body = lines[1:]
    if len(body) < count:
        raise PuzzleError(f"the text ends after {len(body)} of the {count} rows", line=lines[-1].number)
    if len(body) > count:
        raise PuzzleError(f"unexpected line after the {count} rows: {body[count].text[:40]!r}",
                          line=body[count].number)
    return body


def infer_kind(lines: list[TextLine], rows: int) -> str:
    """The puzzle type a janko text most likely holds (see the module docstring)."""
    body = lines[1:]
    if len(body) == 2 * rows:
        return "killer"
    tokens: set[str] = set()
    for line in body:
        words = line.text.split()
        tokens.update(words if len(words) > 1 else line.text)  # a one-word row: one cell per character
    if any("," in t for t in tokens):
        return "kakuro"
    return "takuzu" if tokens <= set("012-") or tokens <= set(_OX) else "sudoku"


def _readable_kind(lines: list[TextLine], inferred: str, rules: Rules, name: str) -> str:
    """``inferred``, unless a grid of only 1, 2 and '-' also reads as a Sudoku: then both readers
    are tried, and a grid both accept is refused rather than guessed."""
    if inferred != "takuzu":
        return inferred
    readable = []
    for kind in ("takuzu", "sudoku"):
        try:
            parse_problem(lines, kind, rules, name)
        except PuzzleError:
            continue
        readable.append(kind)
    if len(readable) > 1:
        raise PuzzleError("this grid of 1, 2 and '-' reads both as a Binairo (takuzu) and as a sudoku: "
                          "say which with --puzzle", line=lines[0].number)
    return readable[0] if readable else inferred


def parse_problem(lines: list[TextLine], kind: str | None, rules: Rules, name: str):
    """The puzzle of a janko text (header line first); ``kind`` None means infer it."""
    if not lines:
        raise PuzzleError("no puzzle: the text is empty")
    rows, cols = _header(lines[0])
    if kind is None:
        kind = _readable_kind(lines, infer_kind(lines, rows), rules, name)
    rules.require_applicable(kind)
    if kind in ("sudoku", "killer") and (rows != cols or rows > MAX_SUDOKU):
        raise PuzzleError(f"a {kind} grid must be square with at most {MAX_SUDOKU} rows, got {rows} x {cols}",
                          line=lines[0].number)
    if kind == "killer":
        return _killer(lines, rows, rules, name)
    body = _body(lines, rows)
    row_lines = [line.number for line in body]
    if kind == "sudoku":
        givens = np.array([parse_row(r, cols, _sudoku_cell(rows), f"a number 1..{rows} or '-'") for r in body])
        br, bc = rules.box_for(rows)
        return build_located(lambda: Sudoku(givens, br, bc, name), row_lines, lines[0].number)
    if kind == "kakuro":
        cells = np.array([parse_row(r, cols, _kakuro_cell, "'-', '0' or a clue D,A (sums 1..45)") for r in body],
                         dtype=np.int64).reshape(rows, cols, 3)
        return build_located(lambda: Kakuro(cells[..., 0], cells[..., 2], cells[..., 1], name),
                             row_lines, lines[0].number)
    tokens = {t for r in body for t in row_cells(r, cols)}
    table = _takuzu_cells(tokens)
    what = "O, X or '.'" if table is _OX else "1, 2 or '-'"
    givens = np.array([parse_row(r, cols, table.get, what) for r in body])
    return build_located(lambda: Takuzu(givens, bool(rules.distinct_lines), name), row_lines, lines[0].number)


def _killer(lines: list[TextLine], n: int, rules: Rules, name: str) -> KillerSudoku:
    body = _body(lines, 2 * n)
    clue_rows, region_rows = body[:n], body[n:]
    clues = np.array([parse_row(r, n, _number, "a cage sum or '-'") for r in clue_rows])
    labels = [row_cells(r, n) for r in region_rows]
    index, order = build_located(lambda: label_regions(labels), [r.number for r in region_rows], lines[0].number)
    totals = []
    for k, label in enumerate(order):
        cells = np.argwhere(index == k)
        sums = [(int(r), int(clues[r, c])) for r, c in cells if clues[r, c]]
        if not sums:
            raise PuzzleError(f"cage {label} has no sum in the clue layer", line=region_rows[cells[0][0]].number)
        if len(sums) > 1:
            raise PuzzleError(f"cage {label} has two sums, {sums[0][1]} and {sums[1][1]}: "
                              "cages overlap or a region id is reused", line=clue_rows[sums[1][0]].number)
        lo, hi = digit_sum_range(len(cells), n)
        row, total = sums[0]
        if len(cells) > n or not lo <= total <= hi:
            raise PuzzleError(f"cage {label} has {len(cells)} cells and cannot sum to {total}",
                              line=clue_rows[row].number)
        totals.append(total)
    br, bc = rules.box_for(n)
    cages = cages_from_index(index, totals)
    return build_located(lambda: KillerSudoku(np.zeros((n, n), np.int64), br, bc, name, cages=cages,
                                              diagonal=bool(rules.diagonal)), [], lines[0].number)


def parse_solution(lines: list[TextLine], puzzle) -> np.ndarray:
    """The solution grid of a janko text for ``puzzle`` (its header must match the puzzle's shape)."""
    if not lines:
        raise PuzzleError("no solution: the text is empty")
    shape = _header(lines[0])
    if shape != puzzle.shape:
        raise PuzzleError(f"the solution is {shape[0]} x {shape[1]}, the puzzle {puzzle.shape[0]} x "
                          f"{puzzle.shape[1]}", line=lines[0].number)
    kind = require_kind(puzzle, "janko", PUZZLES, "solutions")
    if kind in ("sudoku", "killer"):
        cell, what = _sudoku_cell(puzzle.n), f"a number 1..{puzzle.n}"
    elif kind == "kakuro":
        cell, what = _kakuro_solution_cell, "a digit 1..9 or '-'"
    else:
        table = _takuzu_cells({t for r in _body(lines, shape[0]) for t in row_cells(r, shape[1])})
        cell, what = (lambda t: {0: 0, 1: 1}.get(table.get(t))), ("O or X" if table is _OX else "1 or 2")
    return np.array([parse_row(r, shape[1], cell, what) for r in _body(lines, shape[0])])


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
    kind = DATASET_KINDS.get(name) if isinstance(name, str) else None
    if kind and puzzle and kind != puzzle:
        raise PuzzleError(f"this is a {name} dataset, not {puzzle}")
    if not (kind or puzzle):
        raise PuzzleError(f"unknown dataset name {name!r} (known: {', '.join(DATASET_KINDS)}); "
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

def _text(shape: tuple[int, int], rows: list[list[str]]) -> str:
    return f"{shape[0]} {shape[1]}\n" + "".join(" ".join(row) + "\n" for row in rows)


def _unsupported(what: str) -> PuzzleError:
    return PuzzleError(f"the janko format cannot state {what}; use the native format")


def format_puzzle(puzzle) -> str:
    kind = require_kind(puzzle, "janko", PUZZLES)
    if kind in ("sudoku", "killer") and (puzzle.box_rows, puzzle.box_cols) != Rules().box_for(puzzle.n):
        raise _unsupported(f"the box shape {puzzle.box_rows}x{puzzle.box_cols}")
    if kind == "killer":
        return _format_killer(puzzle)
    if kind == "sudoku":
        return _text(puzzle.shape, [[str(v) if v else "-" for v in row] for row in puzzle.givens.tolist()])
    if kind == "kakuro":
        rows = [["0" if w else (f"{d or ''},{a or ''}" if d or a else "-") for w, d, a in zip(*cells)]
                for cells in zip(puzzle.white.tolist(), puzzle.down.tolist(), puzzle.across.tolist())]
        return _text(puzzle.shape, rows)
    if puzzle.distinct_lines:
        raise _unsupported("the distinct rows and columns rule")
    return _text(puzzle.shape, [[{-1: "-", 0: "1", 1: "2"}[v] for v in row] for row in puzzle.givens.tolist()])


def _format_killer(p: KillerSudoku) -> str:
    if p.diagonal:
        raise _unsupported("the diagonal rule")
    if p.num_givens:
        raise _unsupported("killer givens")
    index = canonical_index(p)
    clues = [["-"] * p.n for _ in range(p.n)]
    for cage in p.cages:
        r, c = min(cage.cells)
        clues[r][c] = str(cage.total)
    regions = [[str(k + 1) for k in row] for row in index.tolist()]
    return _text(p.shape, clues + regions)


def format_solution(puzzle, grid: np.ndarray) -> str:
    kind = require_kind(puzzle, "janko", PUZZLES, "solutions")
    if kind == "kakuro":
        rows = [[str(v) if w else "-" for v, w in zip(row, white)]
                for row, white in zip(grid.tolist(), puzzle.white.tolist())]
    elif kind == "takuzu":
        rows = [[{0: "1", 1: "2"}.get(v, "-") for v in row] for row in grid.tolist()]
    else:
        rows = [[str(v) if v > 0 else "-" for v in row] for row in grid.tolist()]
    return _text(puzzle.shape, rows)
