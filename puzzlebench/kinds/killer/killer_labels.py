"""Killer Sudoku as a grid of cage ids, the sum written once in each cage (``id:sum``).

N lines of N whitespace-separated tokens (tabs in the published files), one per
cell, row-major.  ``a:17`` puts the cell in cage ``a`` and gives that cage the
sum 17; a later ``a`` adds a cell to it; a bare number such as ``7`` is a cage
of that one cell with that sum (in effect a given).  Ids are letters and
digits that are not all digits (``a``, ``x1``); each cage has exactly one sum
and its cells are connected.  Boxes are the squarest shape, one puzzle a file,
no solutions (vtsukur/killer-sudoku-solver's text layout)::

    a:17	7	b:7	b	c:4	c	d:11	e:14	f:14
    a	a	g:7	g	h:23	h	d	e	f
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import PuzzleError
from ...toolkit.entry import Entry
from ...toolkit.layout import Layout
from ...toolkit.regions import label_regions
from ...toolkit.rules import MAX_SUDOKU, Rules
from ...toolkit.text import build_located, content_lines, read_only, split_lines
from .. import require_applicable
from ..common import digit_sum_range
from .cages import cages_from_index
from .puzzle import KillerSudoku

PUZZLES = ("killer",)
HINT = "a grid of Killer cage ids 'a:17 7 b:7 b ...'"
DETECT = "line"
"""Detection tests :func:`looks_like` on the file's first content line (:func:`puzzlebench.io.detect.candidates`)."""
PLACE = 10
"""The format's place in ``--format``'s list and among detection's tests (:data:`puzzlebench.io.PLACES`)."""
_TOKEN = re.compile(r"([A-Za-z0-9_]+?)(?::([0-9]{1,3}))?")
_DEFINES = re.compile(r"[A-Za-z0-9_]+:[0-9]{1,3}")


def looks_like(line: str) -> bool:
    """A row of at least four cage tokens, one of them ``id:sum``."""
    tokens = line.split()
    return (len(tokens) >= 4 and any(_DEFINES.fullmatch(t) for t in tokens)
            and all(_TOKEN.fullmatch(t) for t in tokens))


def read(text: str, path: str, puzzle: str | None, rules: Rules, layout: Layout = Layout()) -> list[Entry]:
    if puzzle not in (None, *PUZZLES):
        raise PuzzleError(f"the killer-labels format holds only killer puzzles, not {puzzle}")
    require_applicable(rules, PUZZLES[0])
    rows = content_lines(split_lines(text))
    n = len(rows)
    if not 4 <= n <= MAX_SUDOKU:
        raise PuzzleError(f"the file has {n} rows; a killer grid has 4..{MAX_SUDOKU}", line=rows[-1].number if rows else None)
    labels, sums = [], {}
    for r, row in enumerate(rows):
        tokens = row.text.split()
        if len(tokens) != n:
            raise PuzzleError(f"this row has {len(tokens)} cells, expected {n} (the file has {n} rows)",
                              line=row.number)
        found = []
        for c, token in enumerate(tokens):
            match = _TOKEN.fullmatch(token)
            if not match:
                raise PuzzleError(f"column {c + 1}: {token!r} is not a cage id, id:sum or a number", line=row.number)
            label, total = match[1], match[2]
            if label.isdecimal() and total is None:  # a bare number: a cage of one cell
                label, total = f"#{r},{c}", label
            if total is not None:
                if label in sums:
                    raise PuzzleError(f"cage {label} gets a second sum ({sums[label][0]} at line "
                                      f"{sums[label][1]})", line=row.number)
                sums[label] = (int(total), row.number)
            found.append(label)
        labels.append(found)
    index, order = build_located(lambda: label_regions(labels), [r.number for r in rows], rows[0].number)
    totals = []
    for k, label in enumerate(order):
        if label not in sums:
            r = int(np.argwhere(index == k)[0][0])
            raise PuzzleError(f"cage {label} has no sum: write {label}:SUM in one of its cells", line=rows[r].number)
        size = int((index == k).sum())
        lo, hi = digit_sum_range(size, n)
        total, line = sums[label]
        if size > n or not lo <= total <= hi:
            raise PuzzleError(f"cage {label} has {size} cells and cannot sum to {total}", line=line)
        totals.append(total)
    br, bc = rules.box_for(n)
    killer = build_located(lambda: KillerSudoku(np.zeros((n, n), np.int64), br, bc, "1",
                                                cages=cages_from_index(index, totals), diagonal=bool(rules.diagonal)),
                           [r.number for r in rows], rows[0].number)
    return [Entry(killer, "1", path, rows[0].number)]


unsupported_solutions, read_solutions, format_puzzle, format_solution = read_only(
    "killer-labels", "killer-labels files", "native or killer-csv")
