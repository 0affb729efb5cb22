"""The ``Board`` / ``Constraints`` YAML of Nickleaton's sudoku solver: Sudoku and its variants.

One puzzle a file::

    Board:
      Board: 9x9
      Boxes: 3x3
    Constraints:
    - Knowns:
      - .........          # N strings of N cells: a digit is a given, '.' a blank
    - Columns:
    - Rows:
    - Boxes:
    - Killer: 23=23, 32, 33  # SUM=CELLS, each cell two digits: row then column, 1-based

``Board`` gives the grid size, ``Boxes`` the box shape (rows x columns).  The
``Columns``, ``Rows`` and ``Boxes`` constraints are the Sudoku rules and must
all be there.  The other constraints are the kinds' (the ``sudoku-yaml`` parts of
:attr:`puzzlebench.kinds.PuzzleKind.layouts`: the killer kind's reads ``Killer``, a cage each);
the puzzle is of the kind whose part reads exactly the constraints the file has (none: a plain
Sudoku).  Any other constraint (a rule puzzlebench does not model) refuses the file naming it and
its line.  No solutions.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import PuzzleError
from ..kinds import layout_parts
from ..toolkit.entry import Entry
from ..toolkit.layout import Layout
from ..toolkit.rules import MAX_SUDOKU, Rules
from ..toolkit.text import listing, read_only
from .parts import layout_holds

_SHAPE = re.compile(r"\s*([0-9]{1,2})\s*x\s*([0-9]{1,2})\s*")
_RULES = ("Columns", "Rows", "Boxes")


def __getattr__(name: str):
    if name == "PUZZLES":  # computed on use, as the kinds load on first use
        return layout_holds("sudoku-yaml")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def looks_like(text: str) -> bool:
    head = text.lstrip()
    return head.startswith("Board:") and re.search(r"^Constraints:", text, re.M) is not None


def _node_map(node) -> dict:
    """key -> (value node, line) of a YAML mapping node; a key that is not a plain value is refused at its line."""
    import yaml  # on use: detection asks looks_like of every text, and PyYAML costs a start 10 ms
    if not isinstance(node, yaml.MappingNode):
        return {}
    for key, _ in node.value:
        if not isinstance(key, yaml.ScalarNode):
            raise PuzzleError("a mapping key must be a plain name, not a list or a mapping", line=key.start_mark.line + 1)
    return {k.value: (v, k.start_mark.line + 1) for k, v in node.value}


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list[Entry]:
    import yaml
    parts = layout_parts("sudoku-yaml")
    if puzzle not in (None, *parts):
        raise PuzzleError(f"the sudoku-yaml format holds only {listing(parts)} puzzles, not {puzzle}")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        problem = getattr(err, "problem", None) or " ".join(str(err).split())
        raise PuzzleError(f"malformed YAML: {problem}", line=mark.line + 1 if mark else None) from None
    top = _node_map(root)
    if "Board" not in top or "Constraints" not in top:
        raise PuzzleError("expected the mappings Board: and Constraints:")
    board = _node_map(top["Board"][0])
    n, box = _board(board, top["Board"][1], rules)
    givens = np.zeros((n, n), np.int64)
    readers = {name: part for part in parts.values() for name in part.CONSTRAINTS}
    found, seen = [], set()
    constraints = top["Constraints"][0]
    if not isinstance(constraints, yaml.SequenceNode):
        raise PuzzleError("Constraints must be a list", line=top["Constraints"][1])
    for item in constraints.value:
        for kind, (value, line) in _node_map(item).items():
            seen.add(kind)
            if kind in _RULES:
                continue
            if kind == "Knowns":
                givens = _knowns(value, line, n)
            elif kind in readers:
                found.append(readers[kind].constraint(value, line, n))
            else:
                raise PuzzleError(f"the constraint {kind!r} is a rule puzzlebench does not model "
                                  f"(it reads {listing(['Knowns', 'Rows', 'Columns', 'Boxes', *readers])})",
                                  line=line)
    missing = [rule for rule in _RULES if rule not in seen]
    if missing:
        raise PuzzleError(f"the constraints lack {missing[0]}: without it the grid is no sudoku",
                          line=top["Constraints"][1])
    stated = seen & set(readers)
    part = next((part for part in parts.values() if set(part.CONSTRAINTS) == stated), None)
    if part is None:
        raise PuzzleError(f"the constraints {listing(sorted(stated))} are no one puzzle's",
                          line=top["Constraints"][1])
    p = part.build(givens, box, found, rules)
    if puzzle is not None and p.puzzle != puzzle:
        raise PuzzleError(f"this file holds a {p.puzzle}, not {puzzle}")
    return [Entry(p, "1", path, 1)]


def _board(board: dict, line: int, rules: Rules) -> tuple[int, tuple[int, int]]:
    import yaml
    size = _SHAPE.fullmatch(str(board.get("Board", (yaml.ScalarNode("", ""), 0))[0].value or ""))
    if not size or size[1] != size[2] or not 4 <= int(size[1]) <= MAX_SUDOKU:
        raise PuzzleError(f"Board: expected a square size such as 9x9 (4..{MAX_SUDOKU})", line=line)
    n = int(size[1])
    if "Boxes" not in board:
        return n, rules.box_for(n)
    boxes = _SHAPE.fullmatch(str(board["Boxes"][0].value or ""))
    if not boxes:
        raise PuzzleError("Boxes: expected a box shape such as 3x3", line=board["Boxes"][1])
    return n, (int(boxes[1]), int(boxes[2]))


def _knowns(node, line: int, n: int) -> np.ndarray:
    import yaml
    rows = [item.value for item in node.value] if isinstance(node, yaml.SequenceNode) else []
    if len(rows) != n or any(len(str(row)) != n for row in rows):
        raise PuzzleError(f"Knowns: expected {n} strings of {n} cells", line=line)
    values = [[0 if ch == "." else (int(ch) if ch.isdigit() and 1 <= int(ch) <= n else -1) for ch in str(row)]
              for row in rows]
    if any(v < 0 for row in values for v in row):
        raise PuzzleError(f"Knowns: a cell is not '.' or a digit 1..{n}", line=line)
    return np.array(values, dtype=np.int64)


unsupported_solutions, read_solutions, format_puzzle, format_solution = read_only(
    "sudoku-yaml", "sudoku-yaml files", "native or killer-json")
