"""The ``kenken-json`` format: KenKen cage lists in JSON, as solvers and generators publish them.

A *puzzle* is a list of cages, or an object holding one under ``cages`` (or ``rules``, as
poisonmeatball.com's JSON button gives it), optionally wrapped as ``{"puzzle": {...}, ...}``
(arithmatrix's JSON Lines).  A cage is an object with

* its cells under ``cells`` (or ``indices``): ``[row, column]`` pairs, ``{"x": column, "y": row}``
  objects (also ``{"row": r, "col": c}``), or flat indices ``row*N + column``;
* its operation under ``op`` (or ``operation``, ``operator``): ``+ - * /``, also ``x``, ``\u00d7``,
  ``\u00f7``, ``add``/``sub``/``mul``/``div``; ``=``, ``""`` or none for a one-cell cage
  (:data:`.formats.SPELLINGS`);
* its target under ``target`` (or ``value``, ``result``, ``total``): a whole number or a float with
  no fraction (``3.0``); ``2.5`` refuses the puzzle.

The size N is the puzzle's ``size`` (or ``width`` and ``height``, equal), the key of an object of
puzzles by size, or the side the cells reach.  **0- or 1-based**: cells are 0-based when a 0
appears among them, 1-based when none does and the largest equals N (N*N for flat indices); anything
else refuses the puzzle.  The cages partition the grid, so a complete puzzle has one reading and
no option is needed: 0-based cells of an N x N grid hold a 0, 1-based ones reach N.

A puzzle's solution, when it gives one, is ``solution`` (or ``values``): N rows of N digits or the
N*N digits row-major; a ``values`` list of the digits 1..N (poisonmeatball's) is the digits, not a
solution.  Solutions become reference solutions (checked by ``import``).

A file holds one puzzle, a JSON list of puzzles (named 1, 2, ...), an object of puzzles by size
(``{"3": [puzzle, ...], "4": [...]}``, Kiguli/KenKenSolver's; named ``3-1``, ``3-2``, ``4-1``, ...)
or JSON Lines, a puzzle a line (named by their 1-based index; a line that is no JSON or no
puzzle is refused at its line, the others read).  A puzzle that breaks KenKen's rules is refused
naming it, the others read.

Detection: JSON whose (first) puzzle has a cage with an operation key.  io's ``killer-json`` reader
refuses such a file: a cage list with operations is KenKen's, never a Killer's.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.entry import Entry
from ...toolkit.text import read_only, split_lines
from .published import cage
from .puzzle import MAX_SIZE, KenKen

PUZZLES = ("kenken",)
HINT = """KenKen JSON cages '[{"cells": [[0, 0], [0, 1]], "op": "+", "target": 3}, ...]'"""
OP_KEYS = ("op", "operation", "operator")
TARGET_KEYS = ("target", "value", "result", "total")
CELL_KEYS = ("cells", "indices")
CAGE_KEYS = ("cages", "rules")
SIZE_KEYS = ("size", "width", "height")
SOLUTION_KEYS = ("solution", "values")

unsupported_solutions, _no_solutions, format_puzzle, format_solution = read_only(
    "kenken-json", "KenKen JSON files", "native")


# ---------------------------------------------------------------- detection

def looks_like(text: str) -> bool:
    """JSON (or JSON Lines) whose first puzzle has a cage carrying an operation key."""
    stripped = text.lstrip()
    if not stripped.startswith(("{", "[")):
        return False
    try:
        first, _ = json.JSONDecoder().raw_decode(stripped)
    except (json.JSONDecodeError, RecursionError):
        return False
    cages = _first_cages(first, 0)
    return bool(cages) and any(isinstance(c, dict) and any(k in c for k in OP_KEYS) for c in cages)


def _first_cages(data, depth: int):
    if depth > 4:
        return None
    if isinstance(data, list) and data:
        if all(_is_cage(c) for c in data):
            return data
        return _first_cages(data[0], depth + 1)
    if isinstance(data, dict):
        for key in CAGE_KEYS:
            if isinstance(data.get(key), list):
                return data[key]
        if isinstance(data.get("puzzle"), dict):
            return _first_cages(data["puzzle"], depth + 1)
        if data and all(isinstance(k, str) and k.isdecimal() for k in data):
            return _first_cages(next(iter(data.values())), depth + 1)
    return None


def _is_cage(item) -> bool:
    return isinstance(item, dict) and any(k in item for k in CELL_KEYS)


# ---------------------------------------------------------------- reading

def read(text: str, path: str, puzzle: str | None, rules=None, layout=None) -> list:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the kenken-json format holds only kenken puzzles, not {puzzle}")
    items = []
    for name, line, data, size in _puzzles(text):
        if isinstance(data, PuzzleError):
            items.append(data)
            continue
        try:
            p, solution = _puzzle(data, name, size)
        except PuzzleError as err:
            err.problem = f"puzzle {name}: {err.problem}"
            items.append(err.locate(None, line))
            continue
        items.append(Entry(p, name, path, line, solution))
    return items


def _load(text: str):
    try:
        return json.loads(text)
    except RecursionError:
        raise PuzzleError("not valid JSON: nested too deeply") from None


def _puzzles(text: str) -> list[tuple[str, int | None, object, int | None]]:
    """(name, line, data or PuzzleError, stated size) of each puzzle of the file."""
    try:
        data = _load(text)
    except json.JSONDecodeError as err:
        if err.msg != "Extra data":
            raise PuzzleError(f"not valid JSON: {err.msg}", line=err.lineno) from None
        return _json_lines(text)
    if isinstance(data, list) and data and all(_is_cage(c) for c in data):
        return [("1", 1, data, None)]
    if isinstance(data, list) and data:
        lines = _lines(text, lambda: [_starts(text, text.index("["))], [len(data)])
        return [(str(k), lines[k - 1], item, None) for k, item in enumerate(data, start=1)]
    if isinstance(data, dict) and (any(k in data for k in CAGE_KEYS) or isinstance(data.get("puzzle"), dict)):
        return [("1", 1, data, None)]
    if isinstance(data, dict) and data and all(k.isdecimal() and len(k) <= 3 for k in data):
        found = []
        for key, group in data.items():
            if not isinstance(group, list):
                raise PuzzleError(f"the puzzles of size {key} are not a JSON list")
            found += [(f"{int(key)}-{k}", None, item, int(key)) for k, item in enumerate(group, start=1)]
        lines = _lines(text, lambda: _group_starts(text), [len(group) for group in data.values()])
        if found:
            return [(name, line, item, size) for (name, _, item, size), line in zip(found, lines)]
    raise PuzzleError("expected KenKen JSON: a list of cages, an object with 'cages' (or 'rules'), a list of "
                      "puzzles, an object of puzzles by size ({\"4\": [...]}) or JSON Lines")


_BLANK = re.compile(r"\s*")


def _starts(text: str, at: int) -> list[int]:
    """The offsets where the elements of the JSON array at ``text[at]`` (a valid array) begin."""
    decoder, found = json.JSONDecoder(), []
    i = _BLANK.match(text, at + 1).end()
    while text[i] != "]":
        found.append(i)
        _, i = decoder.raw_decode(text, i)
        i = _BLANK.match(text, i).end()
        if text[i] == ",":
            i = _BLANK.match(text, i + 1).end()
    return found


def _group_starts(text: str) -> list[list[int]]:
    """The element offsets of each array value of the JSON object the (valid) text is."""
    decoder, groups = json.JSONDecoder(), []
    i = _BLANK.match(text, text.index("{") + 1).end()
    while text[i] != "}":
        _, i = decoder.raw_decode(text, i)  # the key
        i = _BLANK.match(text, _BLANK.match(text, i).end() + 1).end()  # past ':'
        if text[i] == "[":
            groups.append(_starts(text, i))
        _, i = decoder.raw_decode(text, i)
        i = _BLANK.match(text, i).end()
        if text[i] == ",":
            i = _BLANK.match(text, i + 1).end()
    return groups


def _lines(text: str, scan, counts: list[int]) -> list[int | None]:
    """The line each puzzle starts on, from ``scan()`` (the groups' element offsets); None for each
    when the scan does not match what was parsed (a key given twice)."""
    try:
        groups = scan()
    except (ValueError, IndexError, RecursionError):
        groups = []
    if [len(g) for g in groups] != counts:
        return [None] * sum(counts)
    return [text.count("\n", 0, at) + 1 for group in groups for at in group]


def _json_lines(text: str) -> list:
    found = []
    for line in split_lines(text):
        if not line.text:
            continue
        name = str(len(found) + 1)
        try:
            data = _load(line.text)
        except json.JSONDecodeError as err:
            data = PuzzleError(f"puzzle {name}: not valid JSON (one puzzle a line): {err.msg}", line=line.number)
        except PuzzleError as err:
            data = err.locate(None, line.number)
        found.append((name, line.number, data, None))
    return found


def _puzzle(data, name: str, size: int | None) -> tuple[KenKen, np.ndarray | None]:
    meta = data
    if isinstance(data, dict) and not any(k in data for k in CAGE_KEYS) and isinstance(data.get("puzzle"), dict):
        meta = {**{k: v for k, v in data.items() if k in SOLUTION_KEYS}, **data["puzzle"]}
    if isinstance(meta, list):
        raw, meta = meta, {}
    elif isinstance(meta, dict):
        raw = next((meta[k] for k in CAGE_KEYS if k in meta), None)
    else:
        raw = None
    if not isinstance(raw, list) or not raw:
        raise PuzzleError("is not a list of cages nor an object with one under 'cages' (or 'rules')")
    stated = {k: _whole(meta[k], f"its {k}") for k in SIZE_KEYS if k in meta}
    if size is not None:
        stated["key"] = size
    if len(set(stated.values())) > 1:
        raise PuzzleError("its sizes disagree (" + ", ".join(f"{k} {v}" for k, v in stated.items())
                          + "); a KenKen is square")
    n = next(iter(stated.values()), None)
    if n is not None and not 1 <= n <= MAX_SIZE:
        raise PuzzleError(f"its size is {n}: a KenKen is 1x1 to {MAX_SIZE}x{MAX_SIZE}")
    cages = []
    for k, item in enumerate(raw, start=1):
        if not _is_cage(item):
            raise PuzzleError(f"cage {k} is not an object with 'cells'")
        cells = next(item[key] for key in CELL_KEYS if key in item)
        if not isinstance(cells, list) or not cells:
            raise PuzzleError(f"cage {k}: its cells are not a non-empty list")
        word = next((item[key] for key in OP_KEYS if key in item), None)
        value = next((item[key] for key in TARGET_KEYS if key in item), None)
        if value is None:
            raise PuzzleError(f"cage {k} has no target ({'/'.join(TARGET_KEYS)})")
        cages.append(([_cell(cell, k) for cell in cells], word, value, k))
    n, cells_of = _place([cells for cells, *_ in cages], n)
    built = [cage(cells, word, value, f"cage {k}") for cells, (_, word, value, k) in zip(cells_of, cages)]
    puzzle = KenKen(n, tuple(built), name)
    return puzzle, _solution(meta, n)


def _whole(value, what: str) -> int:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**31:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"{what} is {str(value)[:20]!r}, not a whole number")
    return value


def _cell(cell, k: int):
    """("rc", row, col) or ("flat", index), as the file states it."""
    where = f"cage {k}: the cell {str(cell)[:30]}"
    if isinstance(cell, list) and len(cell) == 2:
        return "rc", _whole(cell[0], f"{where}: its row"), _whole(cell[1], f"{where}: its column")
    if isinstance(cell, dict):
        for row, col in (("y", "x"), ("row", "col"), ("r", "c"), ("row", "column")):
            if row in cell and col in cell:
                return "rc", _whole(cell[row], f"{where}: its {row}"), _whole(cell[col], f"{where}: its {col}")
        raise PuzzleError(f"{where} has no x and y (nor row and col)")
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        return "flat", _whole(cell, where)
    raise PuzzleError(f"{where} is not [row, column], {{\"x\": column, \"y\": row}} nor a flat index")


def _place(raw: list[list[tuple]], n: int | None) -> tuple[int, list[list[tuple[int, int]]]]:
    """The size and the 0-based (row, column) cells of every cage (the module docstring's rule)."""
    styles = {cell[0] for cells in raw for cell in cells}
    if len(styles) > 1:
        raise PuzzleError("its cells mix [row, column] pairs and flat indices")
    values = [v for cells in raw for cell in cells for v in cell[1:]]
    low, high = min(values), max(values)
    flat = styles == {"flat"}
    if low < 0:
        raise PuzzleError(f"a cell has the negative {'index' if flat else 'row or column'} {low}")
    if flat:
        if low == 0:
            base, area = 0, high + 1
        else:
            base, area = 1, high
        side = math.isqrt(area) if n is None else n
        if side * side != area or (n is not None and low != 0 and high != n * n):
            raise PuzzleError(f"its flat cell indices run {low}..{high}: that is neither 0-based (a 0 among them) "
                              f"nor 1-based (reaching N*N) cells of {'an N x N' if n is None else f'a {n}x{n}'} grid")
        if not 1 <= side <= MAX_SIZE:
            raise PuzzleError(f"its cells fill a {side}x{side} grid: a KenKen is 1x1 to {MAX_SIZE}x{MAX_SIZE}")
        return side, [[divmod(cell[1] - base, side) for cell in cells] for cells in raw]
    if low == 0:
        base = 0
    elif n is None or high == n:
        base = 1
    else:
        raise PuzzleError(f"its cells' rows and columns run {low}..{high}: neither 0-based (a 0 among them) nor "
                          f"1-based (reaching {n}) cells of its {n}x{n} grid")
    side = high + 1 - base
    if n is not None and side != n:
        raise PuzzleError(f"its {base}-based cells reach row or column {high}, beyond its {n}x{n} grid")
    if not 1 <= side <= MAX_SIZE:
        raise PuzzleError(f"its cells reach row or column {high}: a KenKen is 1x1 to {MAX_SIZE}x{MAX_SIZE}")
    return side, [[(cell[1] - base, cell[2] - base) for cell in cells] for cells in raw]


def _solution(meta: dict, n: int) -> np.ndarray | None:
    for key in SOLUTION_KEYS:
        found = meta.get(key)
        if found is None:
            continue
        if key == "values" and found == list(range(1, n + 1)) and n > 1:
            continue  # poisonmeatball's digits, not a solution
        rows = found
        if isinstance(found, list) and len(found) == n * n and not any(isinstance(v, list) for v in found):
            rows = [found[r * n:(r + 1) * n] for r in range(n)]
        if not (isinstance(rows, list) and len(rows) == n and all(isinstance(r, list) and len(r) == n for r in rows)):
            raise PuzzleError(f"its {key} is not {n} rows of {n} digits nor {n * n} digits")
        return np.array([[_whole(v, f"a digit of its {key}") for v in row] for row in rows], dtype=np.int64)
    return None


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The solution the file gives for ``puzzle``: that of the puzzle of the same name, or, in a file of
    one puzzle, its solution."""
    from .. import require_kind
    require_kind(puzzle, "kenken-json", PUZZLES, "solutions")
    entries = [e for e in read(text, "", None) if isinstance(e, Entry)]
    chosen = [e for e in entries if e.name == puzzle.name] or (entries if len(entries) == 1 else [])
    found = [(e.line or 1, e.solution) for e in chosen if e.solution is not None]
    for _, grid in found:
        if grid.shape != puzzle.shape:
            raise PuzzleError(f"the solution is {grid.shape[0]} x {grid.shape[1]}, the puzzle "
                              f"{puzzle.shape[0]} x {puzzle.shape[1]}")
    return found
