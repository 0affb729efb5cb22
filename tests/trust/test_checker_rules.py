"""The independent checker's rejecting side: for every rule of every puzzle, a grid that breaks
only that rule and the exact messages it must give (issue 27).

Each grid is a valid solution with one planned fault, at the sizes where the rule's edge cases
live: Sudoku from 4x4 to 16x16 (the last row, column, box and the Killer-X anti-diagonal),
Takuzu from 8x8 (where a triple can sit in the last window of a line) to 12x12 and non-square,
Kakuro with black cells inside the grid.  Messages are 1-based and listed in the checker's order.
"""

from __future__ import annotations

import numpy as np
import pytest

from puzzlebench.checker import check
from puzzlebench.puzzles import Cage, Kakuro, KillerSudoku, Sudoku, Takuzu

BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4), 16: (4, 4)}
SIZES = list(BOXES)


def pattern(n: int) -> np.ndarray:
    """The valid N x N Sudoku (br x bc boxes) whose row r is 1..N shifted by bc*(r % br) + r // br."""
    br, bc = BOXES[n]
    r, c = np.indices((n, n))
    return (bc * (r % br) + r // br + c) % n + 1


def blank(n: int) -> Sudoku:
    return Sudoku(np.zeros((n, n), int), *BOXES[n])


def singles(grid: np.ndarray) -> list[Cage]:
    """One single-cell cage per cell, its total the digit ``grid`` holds there."""
    return [Cage(((r, c),), int(grid[r, c])) for r, c in np.ndindex(grid.shape)]


def swapped(grid: np.ndarray, a: tuple, b: tuple) -> np.ndarray:
    out = grid.copy()
    out[a], out[b] = grid[b], grid[a]
    return out


# --- Sudoku -----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", SIZES)
def test_valid_sudoku_passes_with_and_without_givens(n):
    grid = pattern(n)
    assert check(blank(n), grid) == []
    assert check(Sudoku(grid, *BOXES[n]), grid) == []


@pytest.mark.parametrize("n", SIZES)
def test_digit_above_n_is_named_and_breaks_no_unit(n):
    """``4 3 2 5`` in the last row of a 4x4 repeats nothing: only the digit rule catches it."""
    grid = pattern(n)
    grid[n - 1, n - 1] = n + 1
    assert check(blank(n), grid) == [f"cell ({n}, {n}) holds {n + 1}, not a digit 1..{n}"]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("digit", [0, -1])
def test_digit_below_one_is_named(n, digit):
    grid = pattern(n)
    grid[0, 0] = digit
    assert check(blank(n), grid) == [f"cell (1, 1) holds {digit}, not a digit 1..{n}"]


def test_issue_example_last_row_4_3_2_5():
    grid = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 5]])
    assert check(blank(4), grid) == ["cell (4, 4) holds 5, not a digit 1..4"]


@pytest.mark.parametrize("n", SIZES)
def test_changed_given_is_named_on_an_otherwise_valid_grid(n):
    """Digits 1 and 2 exchanged everywhere: still a valid Sudoku, but not the one whose
    last row gives a 1."""
    grid = pattern(n)
    col = int(np.flatnonzero(grid[n - 1] == 1)[0])
    givens = np.zeros((n, n), int)
    givens[n - 1, col] = 1
    relabelled = np.choose(grid - 1, [2, 1, *range(3, n + 1)])
    assert check(Sudoku(givens, *BOXES[n]), relabelled) == [f"cell ({n}, {col + 1}) is given as 1 but holds 2"]
    assert check(Sudoku(givens, *BOXES[n]), grid) == []


@pytest.mark.parametrize("n", SIZES)
def test_filled_puzzle_against_another_valid_grid_names_every_changed_given(n):
    """Every cell given: the relabelled grid is a valid Sudoku, but differs wherever a 1 or 2 is given."""
    grid = pattern(n)
    relabelled = np.choose(grid - 1, [2, 1, *range(3, n + 1)])
    assert check(Sudoku(grid, *BOXES[n]), relabelled) == [
        f"cell ({r + 1}, {c + 1}) is given as {grid[r, c]} but holds {3 - grid[r, c]}" for r, c in np.argwhere(grid <= 2)]


def test_empty_grid_is_rejected_cell_by_cell_and_unit_by_unit():
    """A grid of zeros (no digit filled in) fails every cell and repeats 0 in every unit."""
    assert check(blank(4), np.zeros((4, 4), int)) == (
        [f"cell ({r}, {c}) holds 0, not a digit 1..4" for r in range(1, 5) for c in range(1, 5)]
        + [f"{kind} {i} has 0 twice" for kind in ("row", "column", "box") for i in range(1, 5)])


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", ["row", "column"])
def test_rows_or_columns_break_alone_when_two_cells_of_a_line_and_box_swap(n, kind):
    """Two cells of the last box exchanged, in the last column (two rows break) or in the last
    row (two columns break): the other lines and every box keep their digits."""
    grid = pattern(n)
    a, b = ((n - 2, n - 1), (n - 1, n - 1)) if kind == "row" else ((n - 1, n - 2), (n - 1, n - 1))
    assert check(blank(n), swapped(grid, a, b)) == [f"{kind} {n - 1} has {grid[b]} twice",
                                                    f"{kind} {n} has {grid[a]} twice"]


# Rows 1 and br+1 exchanged (two bands): rows and columns keep their digits, the boxes of the
# first two bands each repeat one digit.  Box b of band 1 repeats ((b+1)*bc mod N) + 1, box b of
# band 2 repeats (b*bc mod N) + 1 (b = 0..br-1).
BOX_FAULTS = {
    4: ["box 1 has 3 twice", "box 2 has 1 twice", "box 3 has 1 twice", "box 4 has 3 twice"],
    6: ["box 1 has 4 twice", "box 2 has 1 twice", "box 3 has 1 twice", "box 4 has 4 twice"],
    9: ["box 1 has 4 twice", "box 2 has 7 twice", "box 3 has 1 twice",
        "box 4 has 1 twice", "box 5 has 4 twice", "box 6 has 7 twice"],
    12: ["box 1 has 5 twice", "box 2 has 9 twice", "box 3 has 1 twice",
         "box 4 has 1 twice", "box 5 has 5 twice", "box 6 has 9 twice"],
    16: ["box 1 has 5 twice", "box 2 has 9 twice", "box 3 has 13 twice", "box 4 has 1 twice",
         "box 5 has 1 twice", "box 6 has 5 twice", "box 7 has 9 twice", "box 8 has 13 twice"],
}


@pytest.mark.parametrize("n", SIZES)
def test_boxes_break_alone_in_a_latin_square(n):
    br = BOXES[n][0]
    bad = pattern(n)[[br, *range(1, br), 0, *range(br + 1, n)]]
    assert check(blank(n), bad) == BOX_FAULTS[n]


def test_last_box_breaks_alone():
    """Rows 4 and 7 (the first rows of bands 2 and 3) exchanged: the last box is among those that repeat."""
    bad = pattern(9)[[0, 1, 2, 6, 4, 5, 3, 7, 8]]
    assert check(blank(9), bad) == ["box 4 has 5 twice", "box 5 has 8 twice", "box 6 has 2 twice",
                                    "box 7 has 2 twice", "box 8 has 5 twice", "box 9 has 8 twice"]


def test_sudoku_with_every_fault_lists_them_in_order():
    """Out-of-range digits, then changed givens, then units (rows, columns, boxes)."""
    givens = np.zeros((4, 4), int)
    givens[0, 1] = 2
    grid = np.array([[1, 1, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 9]])
    assert check(Sudoku(givens), grid) == [
        "cell (4, 4) holds 9, not a digit 1..4", "cell (1, 2) is given as 2 but holds 1",
        "row 1 has 1 twice", "column 2 has 1 twice", "box 1 has 1 twice"]


def test_shape_mismatch_is_named():
    assert check(blank(4), np.ones((3, 4), int)) == ["the grid is 3 x 4, the puzzle 4 x 4"]
    assert check(blank(9), np.ones(9, int)) == ["the grid is 9 x 0, the puzzle 9 x 9"]
    assert check(blank(6), pattern(6).T[:, :4]) == ["the grid is 6 x 4, the puzzle 6 x 6"]
    assert check(Takuzu(-np.ones((6, 10), int)), np.zeros((10, 6), int)) == ["the grid is 10 x 6, the puzzle 6 x 10"]


def test_unknown_puzzle_type_is_a_type_error():
    class Nonogram:
        shape = (2, 2)

    with pytest.raises(TypeError, match="Nonogram is no puzzle kind"):
        check(Nonogram(), np.zeros((2, 2), int))


# --- Killer and Killer-X ---------------------------------------------------------------------

# Valid Sudokus (2x3 and 3x3 boxes) with one distinct diagonal; the other repeats one digit.
X6_ANTI = ["361542", "542136", "236415", "415263", "123654", "654321"]   # anti-diagonal: 2 twice
X6_MAIN = ["364152", "125634", "231465", "456321", "612543", "543216"]   # main diagonal: 3 twice
X9_ANTI = ["613245798", "479836152", "258179463", "762591834", "135428679", "894763215",
           "546312987", "321987546", "987654321"]                         # anti-diagonal: 2 twice
X9_MAIN = ["514329867", "639178524", "287456931", "361294758", "425817396", "798635142",
           "143982675", "952761483", "876543219"]                         # main diagonal: 5 twice


def digits(rows: list[str]) -> np.ndarray:
    return np.array([[int(ch) for ch in row] for row in rows])


@pytest.mark.parametrize("rows, fault", [(X6_ANTI, "anti-diagonal has 2 twice"), (X6_MAIN, "main diagonal has 3 twice"),
                                         (X9_ANTI, "anti-diagonal has 2 twice"), (X9_MAIN, "main diagonal has 5 twice")])
def test_killer_x_diagonal_fault_is_its_only_fault(rows, fault):
    """A grid whose only fault is one diagonal: the Sudoku fast path must check every unit,
    the anti-diagonal (the last one) included."""
    grid = digits(rows)
    n = len(rows)
    assert check(KillerSudoku(np.zeros((n, n), int), cages=singles(grid), diagonal=True), grid) == [fault]
    assert check(KillerSudoku(np.zeros((n, n), int), cages=singles(grid)), grid) == []


def test_killer_x_with_both_diagonals_distinct_passes():
    grid = digits(["1234", "3412", "4321", "2143"])
    assert check(KillerSudoku(np.zeros((4, 4), int), cages=singles(grid), diagonal=True), grid) == []


# Cages on pattern(4) = 1234 / 3412 / 2341 / 4123: pairs along rows 1-2, then single cells.
PAIRS = [((0, 0), (0, 1)), ((0, 2), (0, 3)), ((1, 0), (1, 1)), ((1, 2), (1, 3))]


def cages(grid: np.ndarray, groups) -> list[Cage]:
    used = {cell for group in groups for cell in group}
    return ([Cage(tuple(g), int(sum(grid[cell] for cell in g))) for g in groups]
            + [Cage((cell,), int(grid[cell])) for cell in np.ndindex(grid.shape) if cell not in used])


def test_valid_killer_passes():
    grid = pattern(4)
    assert check(KillerSudoku(np.zeros((4, 4), int), cages=cages(grid, PAIRS)), grid) == []


@pytest.mark.parametrize("index", [0, 3])
def test_wrong_cage_sum_is_its_only_fault(index):
    """A valid Sudoku, but one cage's stated total is one more than its digits make."""
    grid = pattern(4)
    stated = cages(grid, PAIRS)
    stated[index] = Cage(stated[index].cells, stated[index].total + 1)
    total = stated[index].total - 1
    assert check(KillerSudoku(np.zeros((4, 4), int), cages=stated), grid) == [
        f"cage {index + 1} sums to {total}, not {total + 1}"]


def test_wrong_last_cage_sum_is_named():
    grid = pattern(9)
    stated = singles(grid)
    stated[-1] = Cage(stated[-1].cells, 9 if grid[8, 8] != 9 else 8)
    assert check(KillerSudoku(np.zeros((9, 9), int), cages=stated), grid) == [
        f"cage 81 sums to {grid[8, 8]}, not {stated[-1].total}"]


def test_cage_repeat_is_its_only_fault():
    """(1, 2) and (3, 1) both hold 2 in different rows, columns and boxes; a cage of the two
    sums right (4) but repeats a digit."""
    grid = pattern(4)
    stated = cages(grid, [((0, 1), (2, 0)), ((0, 2), (0, 3))])
    assert check(KillerSudoku(np.zeros((4, 4), int), cages=stated), grid) == ["cage 1 has 2 twice"]


def test_killer_sudoku_faults_come_before_cage_faults():
    grid = pattern(4)
    bad = swapped(grid, (2, 3), (3, 3))
    stated = cages(grid, PAIRS)
    assert check(KillerSudoku(np.zeros((4, 4), int), cages=stated), bad) == [
        "row 3 has 3 twice", "row 4 has 1 twice", "cage 8 sums to 3, not 1", "cage 12 sums to 1, not 3"]


def test_killer_with_a_changed_given():
    grid = pattern(4)
    givens = np.zeros((4, 4), int)
    givens[3, 0] = 4
    relabelled = 5 - grid
    assert check(KillerSudoku(givens, cages=singles(relabelled)), relabelled) == [
        "cell (4, 1) is given as 4 but holds 1"]


# --- Kakuro ----------------------------------------------------------------------------------

# '#' is a black cell, a digit a white cell.  (4, 2), (4, 5), (4, 6) and (5, 6) (1-based) are
# black cells inside the grid: two of them carry clues of the runs that start after them.
KAKURO = ["######",
          "#31#12",
          "#12345",
          "##31##",
          "#1423#",
          "#35#12"]


def kakuro(rows: list[str], override=None) -> tuple[Kakuro, np.ndarray]:
    """The Kakuro whose clues are the sums of the digits in ``rows`` (a white cell's digit may be
    written as a letter: a = 0, b = 10), with clue cells in ``override`` replaced
    ({(direction, row, col): total}, 0-based); and that grid (0 in black cells)."""
    values = {"#": 0, "a": 0, "b": 10}
    grid = np.array([[values[ch] if ch in values else int(ch) for ch in row] for row in rows])
    white = np.array([[ch != "#" for ch in row] for row in rows])
    across, down = np.zeros(grid.shape, int), np.zeros(grid.shape, int)
    for layer, g, w in ((across, grid, white), (down.T, grid.T, white.T)):
        for r, c in np.ndindex(g.shape):
            if not w[r, c] and c + 1 < g.shape[1] and w[r, c + 1]:
                end = c + 1
                while end < g.shape[1] and w[r, end]:
                    end += 1
                layer[r, c] = g[r, c + 1:end].sum()
    for (direction, r, c), total in (override or {}).items():
        (across if direction == "across" else down)[r, c] = total
    return Kakuro(white, across, down), grid


def test_valid_kakuro_with_inner_black_cells_passes():
    puzzle, grid = kakuro(KAKURO)
    assert puzzle.white[3, 1] == puzzle.white[3, 4] == False  # noqa: E712 (numpy bools)
    assert check(puzzle, grid) == []


@pytest.mark.parametrize("row5, cell, digit", [("#35#a9", (6, 5), 0), ("#35#b2", (6, 5), 10)])
def test_white_digit_outside_1_to_9_is_its_only_fault(row5, cell, digit):
    """The clues are the sums the grid makes, so the digit rule is the only one broken."""
    puzzle, grid = kakuro(KAKURO[:5] + [row5])
    assert check(puzzle, grid) == [f"white cell ({cell[0]}, {cell[1]}) holds {digit}, not a digit 1..9"]


@pytest.mark.parametrize("cell", [(3, 1), (3, 5), (0, 0), (5, 3)])
def test_digit_in_a_black_cell_is_its_only_fault(cell):
    puzzle, grid = kakuro(KAKURO)
    grid[cell] = 7
    assert check(puzzle, grid) == [f"cell ({cell[0] + 1}, {cell[1] + 1}) is not white but holds 7"]


@pytest.mark.parametrize("clue, fault", [
    (("across", 2, 0, 16), "across run at (3, 1) sums to 15, not 16"),
    (("across", 5, 3, 4), "across run at (6, 4) sums to 3, not 4"),
    (("down", 0, 2, 17), "down run at (1, 3) sums to 15, not 17"),
    (("down", 4, 5, 3), "down run at (5, 6) sums to 2, not 3"),
    (("down", 3, 1, 5), "down run at (4, 2) sums to 4, not 5"),
])
def test_wrong_run_sum_is_its_only_fault(clue, fault):
    direction, r, c, total = clue
    puzzle, grid = kakuro(KAKURO, {(direction, r, c): total})
    assert check(puzzle, grid) == [fault]


@pytest.mark.parametrize("row4, row5, fault", [
    ("#1423#", "#35#22", "across run at (6, 4) has 2 twice"),
    ("#1423#", "#35#32", "down run at (4, 5) has 3 twice"),
])
def test_repeat_in_a_run_is_its_only_fault(row4, row5, fault):
    puzzle, grid = kakuro(KAKURO[:4] + [row4, row5])
    assert check(puzzle, grid) == [fault]


def test_kakuro_faults_in_order_range_black_runs():
    puzzle, grid = kakuro(KAKURO)
    grid[1, 1], grid[3, 4] = 12, 5
    assert check(puzzle, grid) == ["white cell (2, 2) holds 12, not a digit 1..9",
                                   "cell (4, 5) is not white but holds 5",
                                   "across run at (2, 1) sums to 13, not 4",
                                   "down run at (1, 2) sums to 13, not 4"]


def test_kakuro_shape_mismatch():
    puzzle, grid = kakuro(KAKURO)
    assert check(puzzle, grid[:5]) == ["the grid is 5 x 6, the puzzle 6 x 6"]


# --- Takuzu ----------------------------------------------------------------------------------

VALID_8 = ["10010110", "01101001", "10010011", "01101100", "00110011", "11010100", "10101100", "01001011"]
VALID_6X10 = ["0110010110", "1010011001", "1001100110", "0110100101", "1001011001", "0101101010"]
# Valid but for one triple: in the last window of row 3 (11011000, the issue's example), in the
# first window of row 1, and in the last window of row 5 of a 12x12.
TRIPLE_LAST_8 = ["11001010", "00110101", "11011000", "01100110", "00110011", "11001001", "10010110", "00101101"]
TRIPLE_FIRST_8 = ["11100100", "01001011", "10110010", "10010101", "01101010", "10011010", "01010101", "00101101"]
TRIPLE_LAST_12 = ["110110010010", "101001101010", "010011001101", "001100110011", "110110101000", "101001010110",
                  "001011010101", "010110101010", "101001010101", "011011001010", "100100110101", "010100101101"]
# Row 8 is 1101011000: transposed, column 8 ends in a triple.
TRIPLE_LAST_10 = ["1011001010", "0100110110", "1011001001", "1010010110", "0101100101", "0100101011",
                  "1011010100", "1101011000", "0010101011", "0100110101"]
# Valid but for two equal rows (2 and 7), or two equal columns (3 and 6).
EQUAL_ROWS_8 = ["01001011", "11010100", "00101101", "11010010", "10101100", "00110011", "11010100", "00101011"]
EQUAL_COLUMNS_8 = ["01100110", "10011001", "10110100", "01001011", "01101100", "10010011", "01010011", "10101100"]


def binary(rows: list[str]) -> np.ndarray:
    return np.array([[int(ch) for ch in row] for row in rows])


def takuzu(grid: np.ndarray, distinct: bool = True, givens=None) -> Takuzu:
    return Takuzu(-np.ones(grid.shape, int) if givens is None else givens, distinct_lines=distinct)


@pytest.mark.parametrize("rows", [VALID_8, VALID_6X10])
@pytest.mark.parametrize("distinct", [True, False])
def test_valid_takuzu_passes(rows, distinct):
    grid = binary(rows)
    assert check(takuzu(grid, distinct), grid) == []
    assert check(takuzu(grid, distinct, givens=grid), grid) == []


@pytest.mark.parametrize("value", [2, -1, 3])
def test_value_other_than_0_or_1_is_its_only_fault(value):
    """(8, 8) holds 0: written as another value, the count of ones is unchanged."""
    grid = binary(VALID_8)
    assert grid[7, 7] == 1 and grid[7, 5] == 0
    grid[7, 5] = value
    assert check(takuzu(grid), grid) == [f"cell (8, 6) holds {value}, not 0 or 1"]


@pytest.mark.parametrize("given", [0, 1])
def test_changed_given_is_named_on_the_complement_grid(given):
    """Every 0 made 1 and every 1 made 0: still valid, but not where a cell is given."""
    grid = binary(VALID_8)
    r, c = map(int, np.argwhere(grid == given)[-1])
    givens = -np.ones(grid.shape, int)
    givens[r, c] = given
    assert check(takuzu(grid, givens=givens), 1 - grid) == [
        f"cell ({r + 1}, {c + 1}) is given as {given} but holds {1 - given}"]


@pytest.mark.parametrize("rows, cell, faults", [
    (VALID_8, (0, 6), ["row 1 has 3 ones and 5 zeros, not 4 of each", "column 7 has 3 ones and 5 zeros, not 4 of each"]),
    (VALID_8, (7, 3), ["row 8 has 5 ones and 3 zeros, not 4 of each", "column 4 has 5 ones and 3 zeros, not 4 of each"]),
    (VALID_6X10, (5, 4), ["row 6 has 4 ones and 6 zeros, not 5 of each",
                          "column 5 has 2 ones and 4 zeros, not 3 of each"]),
    (VALID_6X10, (5, 0), ["row 6 has 6 ones and 4 zeros, not 5 of each",
                          "column 1 has 4 ones and 2 zeros, not 3 of each"]),
])
def test_unbalanced_line_is_its_only_fault(rows, cell, faults):
    """One cell flipped, too few ones or too many, with no triple and no equal lines made."""
    grid = binary(rows)
    grid[cell] = 1 - grid[cell]
    assert check(takuzu(grid), grid) == faults


@pytest.mark.parametrize("rows, transpose, fault", [
    (TRIPLE_LAST_8, False, "row 3 has three 0s in a row at positions 6-8"),
    (TRIPLE_LAST_8, True, "column 3 has three 0s in a row at positions 6-8"),
    (TRIPLE_FIRST_8, False, "row 1 has three 1s in a row at positions 1-3"),
    (TRIPLE_FIRST_8, True, "column 1 has three 1s in a row at positions 1-3"),
    (TRIPLE_LAST_12, False, "row 5 has three 0s in a row at positions 10-12"),
    (TRIPLE_LAST_10, True, "column 8 has three 0s in a row at positions 8-10"),
])
def test_three_in_a_row_is_its_only_fault(rows, transpose, fault):
    grid = binary(rows).T if transpose else binary(rows)
    assert check(takuzu(grid), grid) == [fault]
    assert check(takuzu(grid, distinct=False), grid) == [fault]


@pytest.mark.parametrize("rows, fault", [(EQUAL_ROWS_8, "rows 2 and 7 are equal"),
                                         (EQUAL_COLUMNS_8, "columns 3 and 6 are equal")])
def test_equal_lines_are_the_only_fault_with_distinct_lines(rows, fault):
    grid = binary(rows)
    assert check(takuzu(grid), grid) == [fault]
    assert check(takuzu(grid, distinct=False), grid) == []


def test_takuzu_faults_in_order():
    """Values, givens, then per direction (rows, then columns): balance and triples line by line,
    then equal lines."""
    grid = binary(EQUAL_ROWS_8)
    givens = -np.ones(grid.shape, int)
    givens[0, 0] = 1
    grid[2, 0], grid[0, 1] = 2, 0
    assert check(takuzu(grid, givens=givens), grid) == [
        "cell (3, 1) holds 2, not 0 or 1", "cell (1, 1) is given as 1 but holds 0",
        "row 1 has 3 ones and 5 zeros, not 4 of each", "row 1 has three 0s in a row at positions 1-3",
        "row 1 has three 0s in a row at positions 2-4", "rows 2 and 7 are equal",
        "column 2 has 3 ones and 5 zeros, not 4 of each"]


def test_takuzu_shape_mismatch():
    grid = binary(VALID_8)
    assert check(takuzu(grid), grid[:, :6]) == ["the grid is 8 x 6, the puzzle 8 x 8"]
