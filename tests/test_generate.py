"""Puzzle generators: unique puzzles, valid solutions, determinism, the CLI, and the shipped sets."""

from __future__ import annotations

import numpy as np
import pytest
import yaml
from scipy import ndimage

from puzzlebench.checker import check
from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError
from puzzlebench.generators import BlankTarget, UniquenessOracle, generate_puzzle
from puzzlebench.toolkit.generation import groups_of_cells, random_fill
from puzzlebench.generators.uniqueness import certifying_formulation
from puzzlebench.io import read_puzzles, read_solution
from puzzlebench.io.sets import discover_sets
from puzzlebench.kinds.kakuro.generator import KakuroSpec
from puzzlebench.kinds.killer.generator import KillerSpec
from puzzlebench.kinds.sudoku.generator import SudokuSpec
from puzzlebench.kinds.takuzu.generator import TakuzuSpec
from puzzlebench.kinds.kakuro.generator import can_blacken, random_pattern, run_cells
from puzzlebench.kinds.sudoku.generator import (
    SinglesPropagator,
    kempe_swap,
    pattern_grid,
    solved_grid,
)
from puzzlebench.kinds.takuzu.generator import propagate
from puzzlebench.puzzles import Sudoku, Takuzu, sudoku_units
from puzzlebench.run.runner import count_solutions
from puzzlebench.run.worker import SolverProcess
from puzzlebench.solvers.contract import SolveOptions

SPECS = {
    "sudoku 4x4": SudokuSpec.make(4, None, BlankTarget(blank_fraction=1.0)),
    "sudoku 6x6 3x2 boxes": SudokuSpec.make(6, (3, 2), BlankTarget(blank_fraction=0.6)),
    "sudoku 9x9 24 clues": SudokuSpec.make(9, None, BlankTarget(clues=24)),
    "sudoku 9x9 logic": SudokuSpec.make(9, None, BlankTarget(blank_fraction=0.6), logic_only=True),
    "killer 4x4": KillerSpec.make(4, None, 4, False),
    "killer 6x6 diagonal": KillerSpec.make(6, None, 4, True),
    "kakuro 6x6": KakuroSpec(6, 6, 0.3),
    "takuzu 6x6": TakuzuSpec(6, 6, False, BlankTarget(blank_fraction=1.0)),
    "takuzu 6x6 distinct": TakuzuSpec(6, 6, True, BlankTarget(blank_fraction=1.0)),
    "takuzu 8x8": TakuzuSpec(8, 8, False, BlankTarget(blank_fraction=1.0)),
    "takuzu 8x8 distinct": TakuzuSpec(8, 8, True, BlankTarget(blank_fraction=1.0)),
}


@pytest.fixture(scope="module")
def oracle():
    with UniquenessOracle() as shared:
        yield shared


@pytest.fixture(scope="module")
def process():
    with SolverProcess() as shared:
        yield shared


@pytest.mark.parametrize("name", SPECS)
def test_generated_puzzle_is_unique_and_its_solution_valid(name, oracle, process):
    generated = generate_puzzle(SPECS[name], seed=3, index=0, oracle=oracle)
    puzzle = generated.puzzle
    assert check(puzzle, generated.solution) == []
    assert generated.certificate is not None and generated.certificate.solver == "highs"
    # an independent count, on CP-SAT rather than the certificate's HiGHS
    count, grids, status = count_solutions(puzzle, certifying_formulation(puzzle), "cpsat", 2,
                                           SolveOptions(), process)
    assert (count, status) == (1, "optimal")
    assert np.array_equal(grids[0], generated.solution)


def test_digging_reaches_its_target():
    with UniquenessOracle() as shared:
        puzzle = generate_puzzle(SPECS["sudoku 9x9 24 clues"], 3, 0, shared).puzzle
        assert puzzle.num_givens == 24
        assert generate_puzzle(SPECS["sudoku 6x6 3x2 boxes"], 3, 0, shared).puzzle.num_givens == 36 - 22


def test_minimal_puzzle_loses_uniqueness_without_any_given(oracle):
    """Blank fraction 1 digs to a minimal puzzle: blanking any remaining given admits a second solution."""
    generated = generate_puzzle(SPECS["takuzu 6x6"], 5, 0, oracle)
    givens = generated.puzzle.givens
    for cell in np.flatnonzero(givens.ravel() >= 0):
        fewer = givens.copy()
        fewer.flat[cell] = -1
        assert oracle.other_solution(Takuzu(fewer), generated.solution) is not None


def test_other_solution_restricted_to_cells(oracle):
    solution = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]])
    puzzle = Sudoku(np.zeros((4, 4), int))
    other = oracle.other_solution(puzzle, solution)
    assert other is not None and check(puzzle, other) == [] and not np.array_equal(other, solution)
    for cell in (0, 5, 15):
        assert oracle.other_solution(puzzle, solution, np.array([cell])).flat[cell] != solution.flat[cell]
    assert oracle.other_solution(Sudoku(solution), solution) is None
    one_blank = solution.copy()
    one_blank[2, 2] = 0
    assert oracle.other_solution(Sudoku(one_blank), solution, np.array([10])) is None


def test_certificate_needs_a_mip_solver():
    with pytest.raises(PuzzleError, match="MIP solver"):
        UniquenessOracle(certify_solver="cpsat")


# ---------------------------------------------------------------- building blocks

@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)])
def test_solved_grid_is_a_valid_sudoku(box):
    n = box[0] * box[1]
    grid = solved_grid(n, *box, np.random.default_rng(0))
    assert check(Sudoku(grid, *box), grid) == []
    assert not np.array_equal(grid, pattern_grid(*box))


def test_kempe_swap_keeps_the_grid_valid_and_changes_it():
    grid = pattern_grid(3, 3)
    units = sudoku_units(9, 3, 3)
    cell_units = groups_of_cells(units.tolist(), 81)
    changed = False
    for cell, other in [(0, 2), (5, 7), (40, 1), (80, 4)]:
        before = grid.copy()
        kempe_swap(grid, units, cell_units, cell, other)
        assert check(Sudoku(grid), grid) == []
        changed |= not np.array_equal(before, grid)
    assert changed


def test_random_fill_respects_every_group():
    n = 6
    diagonals = np.stack([np.arange(n) * (n + 1), np.arange(n) * (n - 1) + (n - 1)])
    units = np.concatenate([sudoku_units(n, 2, 3), diagonals])
    grid = random_fill(units.tolist(), n * n, n, np.random.default_rng(1)).reshape(n, n)
    for unit in units:
        assert sorted(grid.ravel()[unit]) == list(range(1, n + 1))


def test_singles_propagation_solves_and_detects_contradictions():
    solution = solved_grid(9, 3, 3, np.random.default_rng(2))
    propagator = SinglesPropagator(sudoku_units(9, 3, 3), 9)
    one_blank = solution.copy()
    one_blank[4, 4] = 0
    assert propagator.solves(one_blank)
    assert propagator.forced(one_blank, 40, int(solution[4, 4]))
    wrong = solution.copy()
    wrong[0, 0], wrong[0, 1] = 0, 0
    state = propagator.table(wrong)
    state[0] = np.uint64(1 << (int(solution[0, 1]) - 1))  # put the neighbour's digit in cell 0
    assert propagator.propagate(state) is None
    assert not propagator.solves(np.zeros((9, 9), int))


def test_takuzu_propagation_rules():
    grid = np.full((4, 4), -1)
    grid[0, :2] = 1  # pair -> the next cell is 0
    grid[1, 0], grid[1, 2] = 0, 0  # sandwich -> the middle is 1
    filled = propagate(grid, distinct=False)
    assert filled[0, 2] == 0 and filled[1, 1] == 1
    assert filled[0, 3] == 0  # row 0 then holds its two 1s: balance fills the rest
    three = np.full((4, 4), -1)
    three[0, :3] = 1
    assert propagate(three, distinct=False) is None


def test_takuzu_propagation_refuses_equal_lines_when_distinct():
    grid = np.array([[0, 1, 0, 1], [0, 1, 0, 1], [-1] * 4, [-1] * 4])
    assert propagate(grid, distinct=True) is None
    assert propagate(grid, distinct=False) is not None


@pytest.mark.parametrize("seed", range(4))
def test_kakuro_pattern_is_valid(seed):
    white = random_pattern(KakuroSpec(12, 12, 0.3), np.random.default_rng(seed))
    assert not white[0].any() and not white[:, 0].any()
    across, down = run_cells(white)
    assert all(2 <= len(run) <= 9 for run in across + down)
    assert ndimage.label(white)[1] == 1
    assert 0.2 <= 1 - white[1:, 1:].mean() <= 0.5


def test_can_blacken_refuses_a_one_cell_run():
    white = np.zeros((3, 5), bool)
    white[1:, 1:] = True
    assert not can_blacken(white, 1 * 5 + 2)  # would leave (1, 1) alone in its row
    assert not can_blacken(white, 1 * 5 + 1)  # would leave (2, 1) alone in its column
    block = np.zeros((6, 6), bool)
    block[1:, 1:] = True
    assert can_blacken(block, 3 * 6 + 3)  # two white cells left on every side


# ---------------------------------------------------------------- the command line

def generate(tmp_path, capsys, *args) -> tuple[int, str, str]:
    code = main(["generate", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def folder_bytes(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_cli_writes_a_valid_set(tmp_path, capsys):
    out_dir = tmp_path / "takuzu" / "made"
    code, _, err = generate(tmp_path, capsys, "takuzu", "--size", "6", "8x6", "--count", "2", "--seed", "11",
                            "--distinct", "-o", out_dir)
    assert (code, err) == (0, "")
    names = {p.name for p in out_dir.iterdir()}
    assert {"set.yaml", "SOURCE.md", "takuzu-06x06-distinct-01.txt", "takuzu-08x06-distinct-02.solution.txt"} <= names
    meta = yaml.safe_load((out_dir / "set.yaml").read_text())
    assert meta["puzzle"] == "takuzu" and meta["format"] == "native" and meta["count"] == 4
    assert meta["options"] == {"distinct_lines": True} and meta["licence"].startswith("MIT")
    assert "puzzlebench generate takuzu --size 6 8x6 --count 2 --seed 11" in meta["source"]
    source = (out_dir / "SOURCE.md").read_text()
    assert "--distinct" in source and "xor-distinct" in source
    [made] = [s for s in discover_sets(tmp_path)]
    assert made.name == "takuzu/made" and made.count() == 4
    for entry in made.entries():
        assert entry.puzzle.distinct_lines and check(entry.puzzle, entry.solution) == []


def test_cli_same_seed_same_bytes_other_seed_other_puzzles(tmp_path, capsys):
    args = ["sudoku", "--size", "6", "--count", "2", "--blank-fraction", "0.6"]
    first, again, other = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    assert generate(tmp_path, capsys, *args, "--seed", "5", "-o", first)[0] == 0
    assert generate(tmp_path, capsys, *args, "--seed", "5", "-o", again)[0] == 0
    assert generate(tmp_path, capsys, *args, "--seed", "6", "-o", other)[0] == 0
    a, b, c = folder_bytes(first), folder_bytes(again), folder_bytes(other)
    puzzle_files = [name for name in a if name.endswith(".txt")]
    assert len(puzzle_files) == 4
    assert all(a[name] == b[name] for name in puzzle_files)
    for name in ("set.yaml", "SOURCE.md"):  # they differ only in the -o folder of the command
        assert a[name].replace(str(first).encode(), str(again).encode()) == b[name]
    assert all(a[name] != c[name] for name in puzzle_files if not name.endswith("solution.txt"))


def test_cli_puzzle_does_not_depend_on_count(tmp_path, capsys):
    args = ["kakuro", "--size", "6", "--seed", "9"]
    assert generate(tmp_path, capsys, *args, "--count", "1", "-o", tmp_path / "one")[0] == 0
    assert generate(tmp_path, capsys, *args, "--count", "2", "-o", tmp_path / "two")[0] == 0
    name = "kakuro-06x06-01.txt"
    assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_cli_killer_with_givens_free_cages_reads_back(tmp_path, capsys):
    out_dir = tmp_path / "k"
    assert generate(tmp_path, capsys, "killer", "--size", "4", "--count", "1", "--seed", "2", "--max-cage", "3",
                    "-o", out_dir)[0] == 0
    [entry] = read_puzzles(out_dir / "killer-04x04-01.txt")
    solution = read_solution(out_dir / "killer-04x04-01.solution.txt", entry.puzzle)
    assert entry.puzzle.num_givens == 0 and check(entry.puzzle, solution) == []
    assert max(len(cage.cells) for cage in entry.puzzle.cages) <= 3


@pytest.mark.parametrize("args, message", [
    (["takuzu", "--size", "7"], "even"),
    (["sudoku", "--size", "6", "--box", "2x2"], "does not tile"),
    (["sudoku", "--size", "9", "--density", "0.3"], "--density does not apply to sudoku"),
    (["killer", "--size", "4", "--max-cage", "5"], "--max-cage must be in 1..4"),
    (["sudoku", "--size", "4", "9", "--blank-fraction", "0.5", "0.6", "0.7"], "one value or one per size"),
    (["sudoku", "--size", "9", "--blank-fraction", "1.5"], "(0, 1]"),
    (["takuzu", "--size", "4", "--clues", "17"], "more than the 16 cells"),
    (["kakuro", "--size", "5x"], "not N or RxC"),
    (["sudoku", "--size", "9", "--solver", "cpsat"], "MIP solver"),
])
def test_cli_bad_arguments_exit_2_with_one_line(tmp_path, capsys, args, message):
    code, out, err = generate(tmp_path, capsys, *args, "--count", "1", "--seed", "1", "-o", tmp_path / "x")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "x").exists()


def test_cli_refuses_a_folder_with_other_files(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    code, _, err = generate(tmp_path, capsys, "sudoku", "--size", "4", "--count", "1", "--seed", "1",
                            "-o", tmp_path)
    assert code == 2 and "notes.txt" in err and err.count("\n") == 1


# ---------------------------------------------------------------- the shipped generated sets

GENERATED_SETS = [s for s in discover_sets() if "generated" in s.tags]


def test_generated_sets_are_shipped():
    names = {s.name for s in GENERATED_SETS}
    assert {"sudoku/ladder", "takuzu/ladder", "takuzu/ladder-distinct", "kakuro/ladder", "killer/generated"} <= names


@pytest.mark.parametrize("instance_set", GENERATED_SETS, ids=lambda s: s.name)
def test_generated_set_parses_and_its_solutions_are_valid(instance_set):
    entries = instance_set.entries()
    assert len(entries) == instance_set.meta["count"]
    for entry in entries:
        assert entry.solution is not None, entry.name
        assert check(entry.puzzle, entry.solution) == [], entry.name
    assert "puzzlebench generate" in (instance_set.path / "SOURCE.md").read_text()


def test_each_knob_s_help_names_the_kinds_that_take_it(capsys):
    # issue 24: --max-cage's help said "Killer" only, though KenKen takes it too
    from puzzlebench.cli import main
    from puzzlebench.commands.generate import knobs
    assert main(["generate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    taking = knobs()
    assert "kenken" in taking["max_cage"] and "killer" in taking["max_cage"]
    for knob, puzzles in taking.items():
        assert f"--{knob.replace('_', '-')}" in text
        assert "/".join(puzzles) + ":" in text, knob
