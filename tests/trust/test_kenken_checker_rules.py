"""The independent checker's rejecting side for KenKen, through ``puzzlebench.checker.check``: for every
rule a grid that breaks only that rule, and the exact messages it must give (1-based, in the checker's order).

The grids are the cyclic N x N Latin square L[r, c] = (r + c) % N + 1 at N = 4 and 9 (the last row and
column, two-digit products), with cages cut from its rows so that each rule can fail alone.
"""

from __future__ import annotations

import numpy as np
import pytest

from puzzlebench.checker import check
from puzzlebench.kinds.kenken.puzzle import KenKen, KenKenCage, combine


def square(n: int) -> np.ndarray:
    r, c = np.indices((n, n))
    return (r + c) % n + 1


def dominoes(n: int, ops: str) -> KenKen:
    """Each row cut into horizontal two-cell cages (a last single cell when N is odd), the k-th two-cell
    cage taking operation ``ops[k % len(ops)]`` where it can, targets from :func:`square`."""
    grid = square(n)
    cages, k = [], 0
    for r in range(n):
        for c in range(0, n - 1, 2):
            values = grid[r, c:c + 2]
            op = ops[k % len(ops)]
            op = op if combine(op, values) is not None else "+"
            cages.append(KenKenCage(((r, c), (r, c + 1)), op, combine(op, values)))
            k += 1
        if n % 2:
            cages.append(KenKenCage(((r, n - 1),), "", int(grid[r, n - 1])))
    return KenKen(n, tuple(cages))


@pytest.mark.parametrize("n", [4, 9])
@pytest.mark.parametrize("ops", ["+", "-", "x", "/", "+-x/"])
def test_the_square_passes(n, ops):
    assert check(dominoes(n, ops), square(n)) == []


@pytest.mark.parametrize("n", [4, 9])
def test_a_wrong_shape_is_one_message(n):
    assert check(dominoes(n, "+"), np.ones((n - 1, n), int)) == [f"the grid is {n - 1} x {n}, the puzzle {n} x {n}"]


@pytest.mark.parametrize("n", [4, 9])
def test_swapping_two_rows_breaks_only_cages(n):
    puzzle, grid = dominoes(n, "+"), square(n)
    grid[[0, n - 1]] = grid[[n - 1, 0]]
    messages = check(puzzle, grid)
    assert messages and all(m.startswith("cage ") for m in messages)


@pytest.mark.parametrize("n", [4, 9])
def test_a_digit_out_of_range_breaks_its_one_cell_cage(n):
    puzzle = KenKen(n, tuple(KenKenCage(((r, c),), "", int(v)) for (r, c), v in np.ndenumerate(square(n))))
    grid = square(n)
    grid[n - 1, n - 1] = 0  # the square holds n - 1 there
    assert check(puzzle, grid) == [f"cell ({n}, {n}) holds 0, not a digit 1..{n}",
                                   f"cage {n * n} ({n - 1}) makes 0 from 0, not {n - 1}"]


def test_row_and_column_repeats_come_first_then_the_cages():
    grid = square(4)
    puzzle = KenKen(4, (KenKenCage(tuple((r, c) for r in range(4) for c in range(4) if (r, c) != (3, 3)), "+", 37),
                        KenKenCage(((3, 3),), "", 3)))
    assert check(puzzle, grid) == []
    grid[0, 0] = 2  # row 1 and column 1 now hold 2 twice; the big cage sums to 38
    values = ", ".join(str(v) for v in grid.ravel()[:-1].tolist())
    assert check(puzzle, grid) == ["row 1 has 2 twice", "column 1 has 2 twice",
                                   f"cage 1 (37+) makes 38 from {values}, not 37"]


@pytest.mark.parametrize("op, values, made", [("+", (2, 2), "4"), ("x", (3, 1), "3"), ("-", (4, 4), "0"),
                                              ("/", (3, 2), "no whole number")])
def test_each_operation_rejects_a_pair_that_misses_its_target(op, values, made):
    puzzle = dominoes(4, op)  # cage 1 is cells (1, 1), (1, 2), holding 1, 2 in the square
    grid = square(4)
    grid[0, :2] = values
    cage = puzzle.cages[0]
    assert cage.op == op
    assert (f"cage 1 ({cage.label}) makes {made} from {values[0]}, {values[1]}, not {cage.target}"
            in check(puzzle, grid))
