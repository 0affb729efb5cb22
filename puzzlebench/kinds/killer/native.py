"""The Killer Sudoku native layout (the header ``killer N [RxC] [diagonal]``; see :mod:`puzzlebench.io.native`)."""

from __future__ import annotations

import numpy as np

from ...errors import PuzzleError
from ...toolkit.regions import cage_labels, label_regions
from ...toolkit.text import as_uint, build_located, digits, grid_text, row_cells
from .. import names
from ..common import digit_sum_range
from ..sudoku.native import givens_rows
from .cages import cages_from_index, canonical_index
from .puzzle import KillerSudoku


def read_killer(cursor, header, rules, name, where):
    n = header.rows
    rows = cursor.take_rows(n, where)
    labels = [row_cells(row, n) for row in rows]
    for row, tokens in zip(rows, labels):
        reserved = [t for t in tokens if t in names() or t == "givens"]
        if reserved:
            raise PuzzleError(f"{reserved[0]!r} is a reserved word and cannot label a cage", line=row.number)
    index, order = build_located(lambda: label_regions(labels), [r.number for r in rows], header.line)
    sizes = np.bincount(index.ravel(), minlength=len(order))
    region_of = {label: k for k, label in enumerate(order)}
    totals: dict[int, int] = {}
    givens, given_rows = np.zeros((n, n), dtype=np.int64), rows
    while (line := cursor.peek()) is not None and line.text.split()[0] not in names():
        cursor.take()
        tokens = line.text.split()
        if tokens == ["givens"]:
            given_rows = cursor.take_rows(n, f"the givens of {where}")
            givens = givens_rows(given_rows, n)
            break
        _read_cage_sum(line, tokens, region_of, sizes, totals, n)
    for k, label in enumerate(order):
        if k not in totals:
            row = int(np.argwhere(index == k)[0][0])
            raise PuzzleError(f"cage {label} has no sum line ('{label} SUM')", line=rows[row].number)
    cages = cages_from_index(index, [totals[k] for k in range(len(order))])
    br, bc = rules.box_for(n)
    return build_located(lambda: KillerSudoku(givens, br, bc, name, cages=cages, diagonal=bool(rules.diagonal)),
                         [r.number for r in given_rows], header.line)


def _read_cage_sum(line, tokens, region_of, sizes, totals, n) -> None:
    if len(tokens) != 2 or as_uint(tokens[1]) is None:
        raise PuzzleError(f"expected a cage sum 'LABEL SUM', 'givens' or the next puzzle's header, "
                          f"got {line.text[:40]!r}", line=line.number)
    label, total = tokens[0], int(tokens[1])
    if label not in region_of:
        raise PuzzleError(f"sum for cage {label}, but no cell of the grid is labelled {label}", line=line.number)
    k = region_of[label]
    if k in totals:
        raise PuzzleError(f"cage {label} has a second sum", line=line.number)
    size = int(sizes[k])
    lo, hi = digit_sum_range(size, n)
    if size > n or not lo <= total <= hi:
        possible = f"possible: {lo}..{hi}" if size <= n else f"more cells than the {n} digits"
        raise PuzzleError(f"cage {label} has {size} cells and cannot sum to {total} ({possible})",
                          line=line.number)
    totals[k] = total


def format_killer(p: KillerSudoku) -> str:
    index = canonical_index(p)
    count = int(index.max()) + 1
    labels = cage_labels(count)
    totals = [0] * count
    for cage in p.cages:
        totals[index[cage.cells[0]]] = cage.total
    head = f"killer {p.n} {p.box_rows}x{p.box_cols}" + (" diagonal" if p.diagonal else "")
    text = head + "\n" + grid_text([[labels[k] for k in row] for row in index.tolist()])
    text += "".join(f"{labels[k]} {totals[k]}\n" for k in range(count))
    if p.num_givens:
        text += "givens\n" + grid_text(digits(p.givens))
    return text
