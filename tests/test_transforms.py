"""Symmetry transforms: every copy is a valid puzzle whose solution maps there and back."""

import numpy as np
import pytest

from puzzlebench.checker import check
from puzzlebench.errors import PuzzleError
from puzzlebench.puzzles import Cage, Kakuro, KillerSudoku, Sudoku, Takuzu
from puzzlebench.toolkit.symmetry import Transform
from puzzlebench.transforms import apply_transform, permuted_copies, random_transform, supported_kinds

CLEVE = ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2."
CLEVE_SOLUTION = "925631847618574293374982561749826135852413976163795482287359614491267358536148729"
# a Sudoku-X solution: both main diagonals also hold 1..9
X_SOLUTION = "815247639923561748467389215371428596584936172692175483236814957158792364749653821"
X6_SOLUTION = "615432423165234516561324142653356241"  # 6x6, 2x3 boxes, diagonals too


def digits(text: str, n: int) -> np.ndarray:
    return np.array([0 if ch == "." else int(ch) for ch in text]).reshape(n, n)


def pattern_sudoku(br: int, bc: int) -> np.ndarray:
    """The classic pattern solution for br x bc boxes."""
    n = br * bc
    r, c = np.indices((n, n))
    return ((r % br) * bc + r // br + c) % n + 1


def with_blanks(solution: np.ndarray, seed: int, keep: float = 0.4) -> np.ndarray:
    return np.where(np.random.default_rng(seed).random(solution.shape) < keep, solution, 0)


def domino_cages(solution: np.ndarray) -> list[Cage]:
    """Horizontal pairs (a single cell at the end of odd rows), summed from ``solution``."""
    n = solution.shape[0]
    cages = []
    for r in range(n):
        for c in range(0, n, 2):
            cells = tuple((r, cc) for cc in range(c, min(c + 2, n)))
            cages.append(Cage(cells, int(sum(solution[cell] for cell in cells))))
    return cages


def kakuro_seed() -> tuple[Kakuro, np.ndarray]:
    """The fjmc 2026 blog Kakuro (grid tokens ``#``, ``.``, ``D\\A``) and the pictured solution."""
    tokens = ["#  23\\ 16\\ 10\\ #", "\\14 . . . 3\\", "\\16 . . . .", "\\14 . . . .", "# \\8 . . #"]
    grid = [row.split() for row in tokens]
    white = np.array([[tok == "." for tok in row] for row in grid])
    down = np.array([[int(tok.split("\\")[0] or 0) if "\\" in tok else 0 for tok in row] for row in grid])
    across = np.array([[int(tok.split("\\")[1] or 0) if "\\" in tok else 0 for tok in row] for row in grid])
    solution = np.array([[int(ch) if ch != "#" else 0 for ch in row]
                         for row in ["#####", "#914#", "#6532", "#8321", "##71#"]])
    return Kakuro(white=white, across=across, down=down, name="kakuro5"), solution


TAKUZU_SOLUTION = ["10100101", "01011010", "10010110", "00101101",
                   "01101010", "10010101", "01101001", "11010010"]
TAKUZU_GIVENS = [".0.....1", "0.0.1...", ".....11.", "00..1...",
                 "0.1...10", "...1..0.", "....1.0.", "1..1...0"]


def binary(rows: list[str]) -> np.ndarray:
    return np.array([[-1 if ch == "." else int(ch) for ch in row] for row in rows])


def instances() -> dict[str, tuple[object, np.ndarray]]:
    cleve = digits(CLEVE_SOLUTION, 9)
    xsol = digits(X_SOLUTION, 9)
    x6sol = digits(X6_SOLUTION, 6)
    kakuro, kakuro_solution = kakuro_seed()
    rect = np.array([[0, 0, 1, 0, 1, 1], [0, 1, 0, 1, 0, 1], [1, 0, 1, 1, 0, 0], [1, 1, 0, 0, 1, 0]])
    rect_givens = np.where(np.random.default_rng(4).random(rect.shape) < 0.3, rect, -1)
    return {
        "sudoku9": (Sudoku(digits(CLEVE, 9), name="cleve"), cleve),
        "sudoku6": (Sudoku(with_blanks(pattern_sudoku(2, 3), 1), 2, 3, name="six"), pattern_sudoku(2, 3)),
        "sudoku6x3x2": (Sudoku(with_blanks(pattern_sudoku(3, 2), 2), 3, 2, name="six32"), pattern_sudoku(3, 2)),
        "sudoku4": (Sudoku(with_blanks(pattern_sudoku(2, 2), 3), name="four"), pattern_sudoku(2, 2)),
        "sudoku12": (Sudoku(with_blanks(pattern_sudoku(3, 4), 5), 3, 4, name="twelve"), pattern_sudoku(3, 4)),
        "killer": (KillerSudoku(with_blanks(cleve, 6, 0.1), cages=domino_cages(cleve), name="killer"), cleve),
        "killer_x": (KillerSudoku(with_blanks(xsol, 7, 0.1), cages=domino_cages(xsol), diagonal=True,
                                  name="killerx"), xsol),
        "killer_x6": (KillerSudoku(with_blanks(x6sol, 8, 0.1), 2, 3, cages=domino_cages(x6sol), diagonal=True,
                                   name="killerx6"), x6sol),
        "kakuro": (kakuro, kakuro_solution),
        "takuzu": (Takuzu(binary(TAKUZU_GIVENS), name="takuzu8"), binary(TAKUZU_SOLUTION)),
        "takuzu_rect": (Takuzu(rect_givens, distinct_lines=True, name="rect"), rect),
    }


INSTANCES = instances()


@pytest.mark.parametrize("key", INSTANCES)
def test_fixtures_are_solved(key):
    puzzle, solution = INSTANCES[key]
    assert check(puzzle, solution) == []


@pytest.mark.parametrize("key", INSTANCES)
def test_random_transforms_keep_the_solution_valid_and_invertible(key):
    puzzle, solution = INSTANCES[key]
    rng = np.random.default_rng(2024)
    changed = 0
    for _ in range(150):
        transform = random_transform(puzzle, rng)
        copy = apply_transform(transform, puzzle)
        assert type(copy) is type(puzzle)
        mapped = transform.map_solution(solution)
        assert check(copy, mapped) == []
        assert np.array_equal(transform.unmap_solution(mapped), solution)
        assert check(puzzle, transform.unmap_solution(mapped)) == []
        changed += not np.array_equal(mapped, solution)
    assert changed > 100


@pytest.mark.parametrize("key", INSTANCES)
def test_every_supported_kind_is_drawn(key):
    puzzle, solution = INSTANCES[key]
    rng = np.random.default_rng(7)
    transforms = [random_transform(puzzle, rng) for _ in range(60)]
    kinds = supported_kinds(puzzle)
    assert any(t.transpose for t in transforms) == ("transpose" in kinds)
    relabels = any(t.digit_map is not None or t.flip for t in transforms)
    assert relabels == ("digits" in kinds)
    moves_rows = any(not np.array_equal(t.row_perm, np.arange(len(t.row_perm))) for t in transforms)
    assert moves_rows == ("rows" in kinds or "bands" in kinds)


def test_non_square_boxes_are_never_transposed_and_bands_stay_whole():
    puzzle, _ = INSTANCES["sudoku6"]
    rng = np.random.default_rng(0)
    for _ in range(100):
        t = random_transform(puzzle, rng)
        assert not t.transpose
        assert (np.ptp((t.row_perm // 2).reshape(3, 2), axis=1) == 0).all()
        assert (np.ptp((t.col_perm // 3).reshape(2, 3), axis=1) == 0).all()
        assert (apply_transform(t, puzzle).box_rows, apply_transform(t, puzzle).box_cols) == (2, 3)


def test_killer_digit_reflection_maps_cage_sums():
    puzzle, solution = INSTANCES["killer"]
    reflect = Transform(np.arange(9), np.arange(9), digit_map=np.r_[0, 9:0:-1])
    copy = apply_transform(reflect, puzzle)
    for before, after in zip(puzzle.cages, copy.cages):
        assert after.total == 10 * len(before.cells) - before.total
    assert np.array_equal(reflect.map_solution(solution), 10 - solution)


def test_killer_refuses_sum_breaking_relabelling():
    puzzle, _ = INSTANCES["killer"]
    swap = Transform(np.arange(9), np.arange(9), digit_map=np.r_[0, 2, 1, 3:10])
    with pytest.raises(PuzzleError, match="maps sums to sums"):
        apply_transform(swap, puzzle)


def test_killer_x_only_gets_diagonal_preserving_moves():
    puzzle, solution = INSTANCES["killer_x"]
    rng = np.random.default_rng(3)
    for _ in range(50):
        t = random_transform(puzzle, rng)
        for perm in (t.row_perm, t.col_perm):
            assert np.array_equal(perm, np.arange(9)) or np.array_equal(perm, np.arange(9)[::-1])
    swap_rows = Transform(np.r_[1, 0, 2:9], np.arange(9))  # fine for Sudoku, not for the diagonals
    assert any("diagonal" in v for v in check(apply_transform(swap_rows, puzzle), swap_rows.map_solution(solution)))


def test_takuzu_row_swap_would_break_it_so_only_reversals_are_used():
    puzzle, solution = INSTANCES["takuzu"]
    swap = Transform(np.r_[1, 0, 2:8], np.arange(8))
    assert any("three" in v for v in check(Takuzu(np.full((8, 8), -1)), swap.map_solution(solution)))
    rng = np.random.default_rng(5)
    for _ in range(50):
        t = random_transform(puzzle, rng)
        assert np.array_equal(t.row_perm, np.arange(8)) or np.array_equal(t.row_perm, np.arange(8)[::-1])


def test_rectangular_takuzu_transposes_to_the_other_shape():
    puzzle, solution = INSTANCES["takuzu_rect"]
    t = Transform(np.arange(6), np.arange(4), transpose=True, flip=True)
    copy = apply_transform(t, puzzle)
    assert copy.shape == (6, 4) and copy.distinct_lines
    assert np.array_equal(t.map_solution(solution), 1 - solution.T)
    assert check(copy, t.map_solution(solution)) == []


def test_kakuro_transposition_swaps_across_and_down():
    puzzle, solution = INSTANCES["kakuro"]
    copy = apply_transform(Transform(np.arange(5), np.arange(5), transpose=True), puzzle)
    assert np.array_equal(copy.across, puzzle.down.T) and np.array_equal(copy.down, puzzle.across.T)
    reflected = apply_transform(Transform(np.arange(5), np.arange(5), digit_map=np.r_[0, 9:0:-1]), puzzle)
    assert sorted(r.total for r in reflected.runs) == sorted(10 * len(r.cells) - r.total for r in puzzle.runs)


def test_copy_names_carry_the_copy_id():
    puzzle, _ = INSTANCES["sudoku9"]
    copies = permuted_copies(puzzle, 4, seed=11)
    assert [i for i, _, _ in copies] == [1, 2, 3, 4]
    assert [c.name for _, _, c in copies] == [f"cleve~p{i}" for i in range(1, 5)]
    assert all(t.copy_id == i for i, t, _ in copies)


@pytest.mark.parametrize("key", ["sudoku9", "killer", "takuzu", "kakuro"])
def test_permuted_copies_are_deterministic_by_seed(key):
    puzzle, _ = INSTANCES[key]
    count = 3
    first, again, other = (permuted_copies(puzzle, count, seed=s) for s in (1, 1, 2))
    assert [t.signature for _, t, _ in first] == [t.signature for _, t, _ in again]
    assert all(np.array_equal(a.shape, b.shape) for (_, _, a), (_, _, b) in zip(first, again))
    assert len({t.signature for _, t, _ in first}) == count
    assert not any(t.is_identity for _, t, _ in first)
    if key != "kakuro":  # the Kakuro group has exactly three non-identity elements
        assert [t.signature for _, t, _ in first] != [t.signature for _, t, _ in other]


def test_different_seeds_give_different_sudoku_copies():
    puzzle, _ = INSTANCES["sudoku9"]
    a = permuted_copies(puzzle, 1, seed=1)[0][2]
    b = permuted_copies(puzzle, 1, seed=2)[0][2]
    assert not np.array_equal(a.givens, b.givens)


def test_asking_for_more_copies_than_symmetries_is_an_error():
    puzzle, _ = INSTANCES["kakuro"]
    with pytest.raises(PuzzleError, match="only 3 distinct"):
        permuted_copies(puzzle, 4, seed=0)


def test_bad_kinds_and_grids_are_puzzle_errors():
    puzzle, solution = INSTANCES["takuzu"]
    rng = np.random.default_rng(0)
    with pytest.raises(PuzzleError, match="unknown transform kind"):
        random_transform(puzzle, rng, kinds=("shuffle",))
    with pytest.raises(PuzzleError, match="admits"):
        random_transform(puzzle, rng, kinds=("bands", "stacks"))
    with pytest.raises(PuzzleError, match="expected 8 x 8"):
        random_transform(puzzle, rng).map_solution(solution[:6])
    with pytest.raises(PuzzleError, match="at least 1"):
        permuted_copies(puzzle, 0, seed=0)


@pytest.mark.parametrize("key", ["sudoku6", "killer_x", "kakuro", "takuzu_rect"])
def test_permute_command_writes_valid_copies_and_solutions(key, tmp_path, capsys):
    from puzzlebench.cli import main
    from puzzlebench.io import format_puzzle, format_solution, read_puzzle, read_solution
    puzzle, solution = INSTANCES[key]
    (tmp_path / "p.txt").write_text(format_puzzle(puzzle))
    (tmp_path / "p.solution.txt").write_text(format_solution(puzzle, solution))
    args = ["permute", str(tmp_path / "p.txt"), "--solution", str(tmp_path / "p.solution.txt"),
            "--count", "3", "--seed", "9"]
    assert main(args + ["-o", str(tmp_path / "a")]) == 0
    assert main(args + ["-o", str(tmp_path / "b")]) == 0
    assert "wrote 3 copies of p with their solutions" in capsys.readouterr().out
    written = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert written == [f"p~p{i}.{kind}txt" for i in (1, 2, 3) for kind in ("solution.", "")]
    for i in (1, 2, 3):
        copy = read_puzzle(tmp_path / "a" / f"p~p{i}.txt").puzzle
        assert type(copy) is type(puzzle)
        assert check(copy, read_solution(tmp_path / "a" / f"p~p{i}.solution.txt", copy)) == []
        assert (tmp_path / "a" / f"p~p{i}.txt").read_text() == (tmp_path / "b" / f"p~p{i}.txt").read_text()


def test_permute_command_rejects_a_wrong_reference_solution(tmp_path, capsys):
    from puzzlebench.cli import main
    from puzzlebench.io import format_puzzle, format_solution
    puzzle, solution = INSTANCES["sudoku9"]
    (tmp_path / "p.txt").write_text(format_puzzle(puzzle))
    (tmp_path / "bad.txt").write_text(format_solution(puzzle, solution[::-1]))
    code = main(["permute", str(tmp_path / "p.txt"), "--solution", str(tmp_path / "bad.txt"),
                 "--count", "2", "--seed", "1", "-o", str(tmp_path / "out")])
    assert code == 2 and "reference solution is wrong" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
