"""Sudoku variants in JSON, one puzzle a file: cage lists, and f-puzzles objects.

Two layouts:

* A cage list (ConstraintSolver.jl's test data): a JSON list, ``[{"result": 3, "indices": [[1, 1],
  [1, 2]]}, ...]``: read by the killer kind's part (``kinds/killer/killer_json.py``).
* f-puzzles JSON (the f-puzzles.com editor's export, decompressed): an object
  with ``size``, ``grid`` (``size`` rows of cell objects, ``{"value": 5,
  "given": true}`` a given), optionally ``diagonal+`` and ``diagonal-`` (both: an X rule) and
  ``solution`` (the size*size digits row-major); also wrapped as ``{"data":
  {...}}``.  The keys that state more (``killercage``: a Killer's cages) are the kinds' parts'
  (:attr:`puzzlebench.kinds.PuzzleKind.layouts`, ``killer-json``); without them it is a plain Sudoku
  (``kinds/sudoku/killer_json.py``).  A file with any other rule (``thermometer``, ``arrow``, a jigsaw
  ``region`` ...) is refused: those rules are not modelled.

The kinds' parts are asked in the kinds' order, except that a kind whose puzzles extend another
kind's comes before it (a Killer is a Sudoku with cages): the first whose part claims the file
reads it.

JSON that a puzzle kind's own format claims -- cages that carry an operation (``op``,
``operation``), KenKen's -- is refused naming that format (``--puzzle kenken``), never read as a
Killer whose sums are the targets.

Written: f-puzzles JSON (size, grid with the givens, the part's keys, the solution).
"""

from __future__ import annotations

import json
import re

import numpy as np

from ..errors import PuzzleError
from ..kinds import get_kind, layout_parts, require_kind
from ..toolkit.entry import Entry
from ..toolkit.layout import Layout
from ..toolkit.rules import Rules
from ..toolkit.text import listing
from .format_registry import claiming_formats
from .parts import layout_holds

_DETECT = re.compile(r'"(killercage|indices|grid)"\s*:')


def __getattr__(name: str):
    if name == "PUZZLES":  # computed on use, as the kinds load on first use
        return _kinds()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _kinds() -> tuple[str, ...]:
    """The kinds with a part, in the order they are asked: the kinds' order, a kind whose puzzles extend
    another's (its type a subclass of the other's) before it."""
    types = {kind: get_kind(kind).type for kind in layout_holds("killer-json")}
    return tuple(sorted(types, key=lambda kind: -sum(issubclass(types[kind], t) for t in types.values())))


def _parts() -> dict:
    """The kinds' parts, in the order they are asked (:func:`_kinds`)."""
    parts = layout_parts("killer-json")
    return {kind: parts[kind] for kind in _kinds()}


def looks_like(text: str) -> bool:
    """A JSON list, or a JSON object with f-puzzles' keys."""
    return text.lstrip().startswith("[") or bool(_DETECT.search(text[:20000]))


def _load(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise PuzzleError(f"not valid JSON: {err.msg}", line=err.lineno) from None
    except RecursionError:
        raise PuzzleError("not valid JSON: nested too deeply") from None


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list:
    parts = _parts()
    if puzzle not in (None, *parts):
        raise PuzzleError(f"the killer-json format holds only {listing(parts)} puzzles, not {puzzle}")
    claimed = claiming_formats(text)
    if claimed:  # cages with an operation each: KenKen's, never a Killer's
        fmt, kind = claimed[0]
        raise PuzzleError(f"the file holds {kind} cages (an operation on each), not killer cages: read it with "
                          f"--puzzle {kind} or --format {fmt}")
    data = _load(text)
    if isinstance(data, dict) and isinstance(data.get("data"), dict):
        data = data["data"]
    part = next((part for part in parts.values() if part.claims(data)), None)
    if part is None:
        raise PuzzleError("expected a JSON list of cages or an f-puzzles object")
    p, solution = part.read(data, rules)
    if puzzle is not None and p.puzzle != puzzle:
        raise PuzzleError(f"this file holds a {p.puzzle}, not {puzzle}")
    return [Entry(p, "1", path, 1, solution)]


def read_solutions(text: str, puzzle) -> list[tuple[int, np.ndarray]]:
    """The ``solution`` of an f-puzzles file (a cage list holds none)."""
    require_kind(puzzle, "killer-json", _kinds(), "solutions")
    entries = read(text, "", None, Rules(box=(puzzle.box_rows, puzzle.box_cols)))
    found = [(1, e.solution) for e in entries if e.solution is not None]
    for _, grid in found:
        if grid.shape != puzzle.shape:
            raise PuzzleError(f"the solution is {grid.shape[0]} x {grid.shape[1]}, the puzzle "
                              f"{puzzle.shape[0]} x {puzzle.shape[1]}")
    return found


def _document(puzzle, solution=None) -> str:
    part = _parts()[require_kind(puzzle, "killer-json", _kinds())]
    if (puzzle.box_rows, puzzle.box_cols) != Rules().box_for(puzzle.n):
        raise PuzzleError(f"the killer-json format cannot state the box shape {puzzle.box_rows}x{puzzle.box_cols}; "
                          "use the native format")
    data = {"size": puzzle.n,
            "grid": [[{"value": int(v), "given": True} if v else {} for v in row] for row in puzzle.givens.tolist()],
            **part.document(puzzle)}
    if solution is not None:
        data["solution"] = [int(v) for v in np.asarray(solution).ravel()]
    return json.dumps(data, indent=1) + "\n"


def format_puzzle(puzzle) -> str:
    return _document(puzzle)


def format_solution(puzzle, grid: np.ndarray) -> str:
    return _document(puzzle, grid)
