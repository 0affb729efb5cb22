"""KenKen: the data type's validation, the checker, the native format, the admissible tuples, the
generator, the drawing, the symmetries, and the five formulations solved on CBC, HiGHS, SCIP and CP-SAT."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from puzzlebench import registry
from puzzlebench.checker import check
from puzzlebench.cli import main
from puzzlebench.draw import draw
from puzzlebench.errors import PuzzleError
from puzzlebench.generators import generate_puzzle
from puzzlebench.toolkit.generation import random_fill
from puzzlebench.generators.uniqueness import UniquenessOracle
from puzzlebench.kinds import kind_key
from puzzlebench.kinds.kenken import generator
from puzzlebench.kinds.kenken.check import check_kenken
from puzzlebench.kinds.kenken.native import (
    format_kenken,
    format_kenken_solution,
    read_kenken,
    read_kenken_solutions,
)
from puzzlebench.kinds.kenken.puzzle import KenKen, KenKenCage, combine, puzzle_key
from puzzlebench.kinds.kenken.transforms import apply_kenken_transform
from puzzlebench.kinds.kenken.tuples import admissible_tuples
from puzzlebench.model import Product, Rows
from puzzlebench.solvers.cpsat import build_cp_model, natural_model
from puzzlebench.solvers.contract import SolveOptions
from puzzlebench.toolkit.symmetry import Transform
from puzzlebench.transforms import apply_transform, random_transform, supported_kinds, transform_count

SET = Path(__file__).resolve().parents[2] / "instances" / "kenken" / "generated"
FORMULATIONS = ["big-m", "binary", "cp-natural", "integer", "log-linear"]
SOLVERS = ["cbc", "highs", "scip", "cpsat"]
INTEGER_BLOCK = {"integer", "cp-natural"}  # y_c at column c; the others have x[c,k] at column N*c + k-1

EXAMPLE = (SET / "kenken-04x04-05.txt").read_text()  # the native module's example
EXAMPLE_SOLUTION = np.array([[4, 3, 1, 2], [3, 2, 4, 1], [2, 1, 3, 4], [1, 4, 2, 3]])


def example() -> KenKen:
    puzzle, = read_kenken(EXAMPLE, "example.txt")
    return puzzle


def bundled() -> list[tuple[str, KenKen, np.ndarray]]:
    out = []
    for path in sorted(SET.glob("kenken-*[0-9].txt")):
        puzzle, = read_kenken(path.read_text(), str(path))
        (_, solution), = read_kenken_solutions(path.with_suffix(".solution.txt").read_text(), puzzle)
        out.append((path.stem, puzzle, solution))
    return out


def latin_squares(n: int) -> list[np.ndarray]:
    """Every Latin square of order n (small n), row by row over the permutations."""
    rows = list(itertools.permutations(range(1, n + 1)))
    squares: list[list[tuple]] = [[]]
    for _ in range(n):
        squares = [s + [r] for s in squares for r in rows if all(a != b for prev in s for a, b in zip(r, prev))]
    return [np.array(s) for s in squares]


def cages(*specs) -> tuple[KenKenCage, ...]:
    """Cages from (cells, op, target) with 1-based cells."""
    return tuple(KenKenCage(tuple((r - 1, c - 1) for r, c in cells), op, target) for cells, op, target in specs)


def random_kenken(n: int, seed: int, max_cage: int = 3) -> tuple[KenKen, np.ndarray]:
    """A random, usually not unique, KenKen (the generator's steps 1-3 without the repair) and its square."""
    rng = np.random.default_rng(seed)
    idx = np.arange(n * n).reshape(n, n)
    square = random_fill(np.concatenate([idx, idx.T]).tolist(), n * n, n, rng).reshape(n, n)
    owner = generator.random_cages(n, max_cage, rng)
    ops = {k: generator.random_operation(square.ravel()[owner == k], rng) for k in range(int(owner.max()) + 1)}
    return generator.kenken_from_cages(owner, ops, square), square


def solve(name: str, formulation: str, puzzle: KenKen):
    model = registry.get_formulation("kenken", formulation).build(puzzle)
    result = registry.get_solver(name).solve(model, SolveOptions(time_limit=60))
    return model, result


# A 2x2 KenKen whose one solution is [[1, 2], [2, 1]].
TWO = [(((1, 1), (1, 2)), "+", 3), (((2, 1),), "", 2), (((2, 2),), "", 1)]


# ---------------------------------------------------------------- the data type

@pytest.mark.parametrize("specs, message", [
    ([(((1, 1), (1, 2)), "+", 3), (((2, 1),), "", 2)], "cell (2, 2) is in no cage"),
    ([(((1, 1), (1, 2)), "+", 3), (((1, 2), (2, 2)), "+", 3), (((2, 1),), "", 2)], "is in cage 1 and in cage 2"),
    ([(((1, 1), (1, 2), (1, 3)), "+", 3), (((2, 1), (2, 2)), "+", 3)], "outside the 2x2 grid"),
    ([(((1, 1), (2, 2)), "+", 3), (((1, 2),), "", 2), (((2, 1),), "", 2)], "not orthogonally connected"),
    ([(((1, 1), (1, 2)), "%", 3), (((2, 1),), "", 2), (((2, 2),), "", 1)], "operation '%' is not one of"),
    ([(((1, 1), (1, 2)), "", 3), (((2, 1),), "", 2), (((2, 2),), "", 1)], "a one-cell cage has a target"),
    ([(((1, 1),), "+", 1), (((1, 2),), "", 2), (((2, 1), (2, 2)), "+", 3)], "a one-cell cage has a target"),
    ([(((1, 1), (1, 2), (2, 2)), "-", 1), (((2, 1),), "", 2)], "'-' applies to two cells, not 3"),
    ([(((1, 1), (1, 2), (2, 2)), "/", 2), (((2, 1),), "", 2)], "'/' applies to two cells, not 3"),
    ([(((1, 1), (1, 2)), "+", 5), (((2, 1),), "", 2), (((2, 2),), "", 1)], "2 digits 1..2 sum to 2..4"),
    ([(((1, 1), (1, 2)), "x", 3), (((2, 1),), "", 2), (((2, 2),), "", 1)], "3 is no product of 2 digits"),
    ([(((1, 1), (1, 2)), "-", 2), (((2, 1),), "", 2), (((2, 2),), "", 1)], "differ by 1..1"),
    ([(((1, 1), (1, 2)), "/", 1), (((2, 1),), "", 2), (((2, 2),), "", 1)], "one is 2..2 times the other"),
    ([(((1, 1), (1, 2)), "+", 3), (((2, 1),), "", 3), (((2, 2),), "", 1)], "holds a digit 1..2, not 3"),
])
def test_validation_names_the_problem(specs, message):
    with pytest.raises(PuzzleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        KenKen(2, cages(*specs))


@pytest.mark.parametrize("n", [0, 10])
def test_size_outside_one_to_nine_is_refused(n):
    with pytest.raises(PuzzleError, match="1x1 to 9x9"):
        KenKen(n, ())


def test_validation_error_names_the_row_for_the_parser():
    with pytest.raises(PuzzleError) as caught:
        KenKen(2, cages((((1, 1), (1, 2)), "+", 3), (((2, 1), (2, 2)), "-", 3)))
    assert caught.value.row == 1


def test_cells_are_stored_row_major_and_the_key_ignores_cage_order_and_name():
    puzzle = KenKen(2, cages(*TWO))
    reordered = KenKen(2, (KenKenCage(((0, 1), (0, 0)), "+", 3), *cages(*TWO)[:0:-1]), name="other")
    assert reordered.cages[0].cells == ((0, 0), (0, 1))
    assert puzzle_key(puzzle) == puzzle_key(reordered)
    assert puzzle_key(puzzle) != puzzle_key(KenKen(2, cages((((1, 1), (1, 2)), "x", 2), *TWO[1:])))
    assert kind_key(puzzle) == ("kenken", *puzzle_key(puzzle))


@pytest.mark.parametrize("op, values, result", [("+", [3, 4, 3], 10), ("x", [2, 3, 2], 12), ("-", [2, 5], 3),
                                                ("-", [5, 2], 3), ("/", [2, 6], 3), ("/", [6, 4], None),
                                                ("", [4], 4), ("-", [1, 2, 3], None)])
def test_combine(op, values, result):
    assert combine(op, values) == result


# ---------------------------------------------------------------- the checker

def test_checker_accepts_the_solution_also_through_check():
    assert check_kenken(example(), EXAMPLE_SOLUTION) == []
    assert check(example(), EXAMPLE_SOLUTION) == []


def test_checker_catches_each_rule():
    puzzle = example()
    assert check(puzzle, np.ones((3, 3), int)) == ["the grid is 3 x 3, the puzzle 4 x 4"]
    grid = EXAMPLE_SOLUTION.copy()
    grid[3, 0] = 7
    assert "cell (4, 1) holds 7, not a digit 1..4" in check_kenken(puzzle, grid)
    grid = EXAMPLE_SOLUTION.copy()
    grid[0, 2] = 3
    messages = check_kenken(puzzle, grid)
    assert "row 1 has 3 twice" in messages and "column 3 has 3 twice" in messages
    for cell, value, message in [((0, 0), 3, "cage 1 (8+) makes 7 from 3, 3, 1, not 8"),
                                 ((0, 3), 4, "cage 2 (2/) makes 4 from 4, 1, not 2"),
                                 ((1, 0), 1, "cage 3 (6x) makes 2 from 1, 2, not 6"),
                                 ((2, 3), 3, "cage 6 (1-) makes 0 from 3, 3, not 1"),
                                 ((2, 1), 3, "cage 4 (2/) makes no whole number from 2, 3, not 2"),
                                 ((3, 0), 2, "cage 7 (1) makes 2 from 2, not 1")]:
        grid = EXAMPLE_SOLUTION.copy()
        grid[cell] = value
        assert message in check_kenken(puzzle, grid), (cell, value, check_kenken(puzzle, grid))


# ---------------------------------------------------------------- the native format

def test_the_example_has_one_solution_by_brute_force():
    solutions = [s for s in latin_squares(4) if not check_kenken(example(), s)]
    assert len(solutions) == 1 and np.array_equal(solutions[0], EXAMPLE_SOLUTION)


def test_native_round_trip_of_the_bundled_set():
    for stem, puzzle, solution in bundled():
        text = format_kenken(puzzle)
        again, = read_kenken(text, stem)
        assert puzzle_key(again) == puzzle_key(puzzle), stem
        assert format_kenken(again) == text == (SET / f"{stem}.txt").read_text()
        (_, grid), = read_kenken_solutions(format_kenken_solution(puzzle, solution), puzzle)
        assert np.array_equal(grid, solution)


def test_native_reads_several_puzzles_comments_star_and_one_word_rows():
    text = "# two puzzles\n" + EXAMPLE.replace("C 6x", "C 6*") + "\nkenken 2\nAA\nBC\nA 3+\nB 2\nC 1\n"
    first, second = read_kenken(text, "two.txt")
    assert puzzle_key(first) == puzzle_key(example()) and second.name == "2"
    assert puzzle_key(second) == puzzle_key(KenKen(2, cages(*TWO)))


def test_solution_file_with_two_grids():
    text = format_kenken_solution(example(), EXAMPLE_SOLUTION) + "\n" + format_kenken_solution(example(), EXAMPLE_SOLUTION)
    assert [line for line, _ in read_kenken_solutions(text, example())] == [1, 6]


@pytest.mark.parametrize("text, where, message", [
    ("kenken 10\n", 1, "bad header: expected 'kenken N' with sizes 1..9"),
    ("kenken\n", 1, "bad header"),
    ("sudoku 4\n", 1, "this is a sudoku puzzle, not kenken"),
    ("kenken 2\nA A\nB\n", 3, "this row has 1 cells, expected 2"),
    ("kenken 2\nA A\nB C\nA 3+\nB 2\nC 1\nD 4\n", 7, "no cell of the grid is labelled D"),
    ("kenken 2\nA A\nB C\nA 3+\nA 3+\nB 2\nC 1\n", 5, "cage A has a second clue"),
    ("kenken 2\nA A\nB C\nA 3%\n", 4, "expected a cage clue 'LABEL TARGET[+-x/]'"),
    ("kenken 2\nA A\nB C\nA 3+\nB 2\n", 3, "cage C has no clue line"),
    ("kenken 2\nA B\nB A\nA 3+\nB 3+\n", 3, "cage B covers two separate regions"),
    ("kenken 2\nA A\nB C\nA 5+\nB 2\nC 1\n", 2, "2 digits 1..2 sum to 2..4"),
    ("kenken 2\nA A\nB B\nA 3+\nB 3-\n", 3, "differ by 1..1"),
    ("kenken 2\nA A\n", 2, "the file ends after 1 of the 2 rows"),
])
def test_native_errors_name_file_and_line(text, where, message):
    with pytest.raises(PuzzleError) as caught:
        read_kenken(text, "bad.txt")
    assert str(caught.value).startswith(f"bad.txt:{where}: "), str(caught.value)
    assert message in str(caught.value)


def test_solution_errors_name_file_and_line():
    with pytest.raises(PuzzleError, match=r"^sol.txt:2: column 3: '5' is not a digit 1..4"):
        read_kenken_solutions("4 3 1 2\n3 2 5 1\n2 1 3 4\n1 4 2 3\n", example(), "sol.txt")


# ---------------------------------------------------------------- admissible tuples

@pytest.mark.parametrize("seed", range(6))
def test_admissible_tuples_are_the_brute_force_fillings(seed):
    puzzle, _ = random_kenken(5, seed, max_cage=4)
    for cage in puzzle.cages:
        size = len(cage.cells)
        expected = [t for t in itertools.product(range(1, 6), repeat=size)
                    if combine(cage.op, t) == cage.target
                    and all(t[i] != t[j] for i, j in itertools.combinations(range(size), 2)
                            if cage.cells[i][0] == cage.cells[j][0] or cage.cells[i][1] == cage.cells[j][1])]
        assert admissible_tuples(cage, 5).tolist() == [list(t) for t in expected], cage


# ---------------------------------------------------------------- the formulations

def test_every_formulation_is_registered_with_its_constraints_in_math():
    infos = registry.formulations("kenken")
    assert [f.name for f in infos] == FORMULATIONS
    assert all("minimize 0" in f.constraints or "model (" in f.constraints for f in infos)


def fixed(model, puzzle: KenKen, grid: np.ndarray, formulation: str):
    """``model`` with its cell columns fixed to ``grid``."""
    n = puzzle.n
    lower, upper = model.col_lower.copy(), model.col_upper.copy()
    if formulation in INTEGER_BLOCK:
        lower[:n * n] = upper[:n * n] = grid.ravel()
    else:
        one_hot = np.zeros(n ** 3)
        one_hot[np.arange(n * n) * n + grid.ravel() - 1] = 1
        lower[:n ** 3] = upper[:n ** 3] = one_hot
    return replace(model, col_lower=lower, col_upper=upper)


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_each_formulation_is_exact_on_every_latin_square_of_order_4(formulation):
    """A Latin square, fixed in the model, is feasible exactly when it keeps every cage's clue."""
    squares = latin_squares(4)
    for seed in range(3):
        puzzle, square = random_kenken(4, seed)
        model = registry.get_formulation("kenken", formulation).build(puzzle)
        highs = registry.get_solver("highs")
        for grid in squares[::8] + [square]:
            result = highs.solve(fixed(model, puzzle, grid, formulation), SolveOptions(time_limit=10))
            assert result.status == ("optimal" if not check_kenken(puzzle, grid) else "infeasible"), (seed, grid)


def test_cp_natural_declares_the_lines_and_marks_the_pairwise_rows():
    puzzle = example()
    model = registry.get_formulation("kenken", "cp-natural").build(puzzle)
    integer = registry.get_formulation("kenken", "integer").build(puzzle)
    assert len(model.all_different) == 8 and model.num_rows == integer.num_rows
    pairs = 4 * 4 * 3  # pairs of cells sharing a row or a column
    assert len(model.all_different_rows) == 2 * pairs + 8


def test_cp_natural_declares_each_product_cage_over_its_tuple_table_rows():
    puzzle = example()
    model = registry.get_formulation("kenken", "cp-natural").build(puzzle)
    times = [k for k, cage in enumerate(puzzle.cages) if cage.op == "x"]
    assert times and [(p.columns.tolist(), p.target) for p in model.products] == \
        [(puzzle.cage_cells()[k].tolist(), puzzle.cages[k].target) for k in times]
    # the rows the products stand for are exactly the rows over the tables' selection binaries z
    z = np.flatnonzero(np.asarray(model.A[model.product_rows].sum(axis=0)).ravel() == 0)
    table = model.A[model.product_rows]
    z_columns = np.unique(table.indices[table.indices >= puzzle.n ** 2])
    others = np.setdiff1d(np.arange(model.num_rows), model.product_rows)
    assert len(z) and not np.isin(model.A[others].indices, z_columns).any()


def test_cpsat_gets_a_multiplication_constraint_per_product_cage_and_no_tuple_table():
    puzzle = example()
    model = registry.get_formulation("kenken", "cp-natural").build(puzzle)
    natural, columns = natural_model(model)
    constraints = build_cp_model(natural).proto.constraints
    times = sum(cage.op == "x" for cage in puzzle.cages)
    assert sum(c.has_int_prod() for c in constraints) == times
    assert sum(c.has_all_diff() for c in constraints) == 2 * puzzle.n
    signs = sum(cage.op in ("-", "/") for cage in puzzle.cages)
    assert len(columns) == puzzle.n ** 2 + signs  # y and the sign binaries: no order or tuple binaries
    assert natural.num_rows == model.num_rows - len(model.all_different_rows) - len(model.product_rows)


def test_cpsat_enforces_the_product_declaration_mip_solvers_ignore_it():
    """A declared product no filling meets: CP-SAT (which reads it instead of the table rows) proves
    the model infeasible, HiGHS (which reads the rows) still solves it."""
    puzzle = example()
    model = registry.get_formulation("kenken", "cp-natural").build(puzzle)
    wrong = replace(model, products=[Product(p.columns, p.target + 1000) for p in model.products])
    options = SolveOptions(time_limit=20)
    assert registry.get_solver("cpsat").solve(model, options).status == "optimal"
    assert registry.get_solver("cpsat").solve(wrong, options).status == "infeasible"
    assert registry.get_solver("highs").solve(wrong, options).status == "optimal"


def test_product_declarations_count_in_the_identity_of_a_solver_that_reads_them():
    puzzle = example()
    model = registry.get_formulation("kenken", "cp-natural").build(puzzle)
    bare = replace(model, products=[], product_rows=np.zeros(0, np.int64))
    assert model.identity() == bare.identity()
    assert model.identity(("all_different",)) == bare.identity(("all_different",)) == bare.identity(True)
    assert model.identity(True) != bare.identity(True)
    other = replace(model, products=[Product(p.columns, p.target * 2) for p in model.products])
    assert other.identity(True).hash != model.identity(True).hash
    assert other.identity(True).fingerprint != model.identity(True).fingerprint
    assert registry.get_solver("cpsat").declarations == ("all_different", "products")
    assert registry.get_solver("scip-alldiff").declarations == ("all_different",)
    assert registry.get_solver("highs").declarations == ()
    with pytest.raises(ValueError, match="unknown declarations"):
        model.identity(("products", "sums"))


def test_a_product_declaration_must_name_integer_columns_of_the_model():
    model = registry.get_formulation("kenken", "cp-natural").build(example())
    with pytest.raises(ValueError, match="Model.products"):
        replace(model, products=[Product([model.num_cols], 6)])
    continuous = model.integrality.copy()
    continuous[0] = False
    with pytest.raises(ValueError, match="Model.products"):
        replace(model, integrality=continuous, products=[Product([0, 1], 6)])
    extra = Rows(sp.csr_matrix((1, model.num_cols)), np.zeros(1), np.zeros(1))
    assert model.with_rows(extra).products == model.products


def test_log_linear_refuses_product_cages_its_rounding_cannot_tell_apart():
    # 9x9, a six-cell product cage in row 1 (delta(9, 6) ~ 9.4e-7 is below the rounding, 3.5e-6), the rest singletons
    big = KenKen(9, cages((tuple((1, c) for c in range(1, 7)), "x", 720),
                          *[(((r, c),), "", 1 + (c + r) % 9) for r in range(1, 10) for c in range(1, 10)
                            if not (r == 1 and c <= 6)]))
    info = registry.get_formulation("kenken", "log-linear")
    assert info.not_applicable(big) is not None
    assert info.applies(example())


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_every_formulation_solves_the_example_on_every_solver(formulation, name):
    model, result = solve(name, formulation, example())
    assert result.status == "optimal"
    assert np.array_equal(model.decode(result.x), EXAMPLE_SOLUTION)


@pytest.mark.slow
@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_every_formulation_solves_the_bundled_set_on_every_solver(formulation, name):
    for stem, puzzle, solution in bundled():
        model, result = solve(name, formulation, puzzle)
        assert result.status == "optimal", (stem, result.message)
        grid = model.decode(result.x)
        assert check_kenken(puzzle, grid) == [], stem
        assert np.array_equal(grid, solution), stem


# ---------------------------------------------------------------- the generator and the bundled set

def test_bundled_set_is_twenty_valid_puzzles_with_their_provenance():
    entries = bundled()
    assert len(entries) == 20
    assert sorted({p.n for _, p, _ in entries}) == [4, 5, 6, 7]
    for stem, puzzle, solution in entries:
        assert check_kenken(puzzle, solution) == [], stem
    source = (SET / "SOURCE.md").read_text()
    assert "puzzlebench generate kenken" in source and "--seed 2026" in source and "Seed: 2026." in source and "formulation `binary`" in source
    assert "count: 20" in (SET / "set.yaml").read_text() and "puzzle: kenken" in (SET / "set.yaml").read_text()


def test_bundled_4x4_puzzles_are_unique_by_brute_force():
    squares = latin_squares(4)
    for stem, puzzle, solution in bundled():
        if puzzle.n == 4:
            solutions = [s for s in squares if not check_kenken(puzzle, s)]
            assert len(solutions) == 1 and np.array_equal(solutions[0], solution), stem


def test_generated_puzzles_are_certified_unique_and_deterministic():
    spec = generator.KenKenSpec.make(4, 4)
    with UniquenessOracle("highs", "cpsat", 60) as oracle:
        first = generate_puzzle(spec, 7, 0, oracle)
        again = generate_puzzle(spec, 7, 0, oracle)
    assert first.certificate.formulation == "binary"
    assert puzzle_key(first.puzzle) == puzzle_key(again.puzzle)
    solutions = [s for s in latin_squares(4) if not check_kenken(first.puzzle, s)]
    assert len(solutions) == 1 and np.array_equal(solutions[0], first.solution)


class OneRival:
    """An oracle that reports ``rival`` as a second solution once, then none."""

    def __init__(self, rival: np.ndarray):
        self.rival = rival

    def other_solution(self, puzzle, solution):
        rival, self.rival = self.rival, None
        return rival


def test_repair_changes_an_operation_the_rival_breaks_before_splitting():
    solution = np.array([[1, 2], [2, 1]])
    owner = np.array([0, 0, 1, 1])
    rival = np.array([[2, 1], [1, 2]])  # each row's digits swapped: every operation of each cage agrees
    puzzle, changes, splits = generator.repair_until_unique(owner, {0: "+", 1: "+"}, solution,
                                                            np.random.default_rng(0), OneRival(rival))
    assert (changes, splits) == (0, 1) and len(puzzle.cages) == 3
    square = np.array([[1, 2, 3], [2, 3, 1], [3, 1, 2]])
    owner = np.array([0, 0, 1, 2, 2, 3, 4, 5, 6])   # cage 0: cells (1,1), (1,2) holding 1, 2 (3+)
    rival = square.copy()
    rival[0, :2] = [3, 0]  # a made-up rival: cage 0 still sums to 3, but no other operation agrees
    puzzle, changes, splits = generator.repair_until_unique(
        owner, {0: "+", 1: "", 2: "+", 3: "", 4: "", 5: "", 6: ""}, square, np.random.default_rng(0),
        OneRival(rival))
    assert (changes, splits) == (1, 0) and puzzle.cages[0].op in ("x", "-", "/")


def test_generator_refuses_sizes_outside_four_to_nine():
    with pytest.raises(PuzzleError, match="outside 4..9"):
        generator.KenKenSpec.make(3, 2)
    with pytest.raises(PuzzleError, match="--max-cage must be in 2..5"):
        generator.KenKenSpec.make(5, 6)


@pytest.mark.slow
def test_the_bundled_set_regenerates_byte_for_byte(tmp_path):
    command = (SET / "SOURCE.md").read_text().split("\n\n    ", 1)[1].split("\n", 1)[0]
    argv = command.split()[1:]
    assert argv[:2] == ["generate", "kenken"]
    argv[argv.index("-o") + 1] = str(tmp_path)
    assert main(argv) == 0
    for path in SET.iterdir():
        expected = path.read_text()
        if path.name in ("SOURCE.md", "set.yaml"):
            expected = expected.replace("instances/kenken/generated", str(tmp_path))
        assert (tmp_path / path.name).read_text() == expected, path.name


# ---------------------------------------------------------------- drawing and symmetries

def test_drawing_outlines_the_cages_and_writes_the_clues():
    figure = draw(example(), EXAMPLE_SOLUTION)
    texts = [t.get_text() for t in figure.axes[0].texts]
    assert {"8+", "2÷", "6×", "1−", "4"} <= set(texts)
    assert texts.count("1") >= 4  # the clue 1 and the solution's four 1s
    with pytest.raises(PuzzleError, match="the solution is 3 x 3"):
        draw(example(), np.ones((3, 3)))


def test_the_square_has_eight_symmetries_and_no_digit_maps():
    assert supported_kinds(example()) == ("rows", "cols", "transpose")
    assert transform_count(example()) == 8


@pytest.mark.parametrize("seed", range(8))
def test_the_squares_symmetries_map_solutions_to_solutions(seed):
    for stem, puzzle, solution in bundled()[::5]:
        transform = replace(random_transform(puzzle, np.random.default_rng(seed)), copy_id=seed)
        moved = apply_transform(transform, puzzle)
        assert moved.name.endswith(f"~p{seed}") and puzzle_key(apply_kenken_transform(transform, puzzle, moved.name)) == puzzle_key(moved)
        assert check_kenken(moved, transform.map_solution(solution)) == [], stem
        assert np.array_equal(transform.unmap_solution(transform.map_solution(solution)), solution)


def test_a_general_row_permutation_or_a_digit_map_is_no_symmetry():
    n = 4
    with pytest.raises(PuzzleError, match="only row and column reversals"):
        apply_kenken_transform(Transform(np.array([1, 0, 2, 3]), np.arange(n)), example(), "x")
    with pytest.raises(PuzzleError, match="only row and column reversals"):
        apply_kenken_transform(Transform(np.arange(n), np.arange(n), digit_map=np.array([0, 4, 3, 2, 1])), example(), "x")
