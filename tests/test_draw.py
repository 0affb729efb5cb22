"""Pictures: every puzzle type draws into every format; killer cage outlines are closed and inset."""

from collections import Counter

import matplotlib.colors
import matplotlib.image
import numpy as np
import pytest

from puzzlebench.cli import main
from puzzlebench.draw import draw, save_drawing
from puzzlebench.toolkit.drawing import SOLUTION_COLOUR, cage_outlines, clear_corners
from puzzlebench.errors import PuzzleError
from puzzlebench.io import format_puzzle, format_solution
from puzzlebench.puzzles import Cage, Kakuro, KillerSudoku, Sudoku, Takuzu

# The fjmc 2026 blog Killer Sudoku (transcribed cages, no givens) and its unique solution.
FJMC_CAGE_MAP = ["AABCCCDEE", "FFBBGHDDI", "JBBGGHKKI", "JLMMNOOPI", "QLLMNORPP",
                 "QSSTUURVV", "WWWTTXYZZ", "aWbbXXYYc", "addeXfffc"]
FJMC_SUMS = {"A": 10, "B": 32, "C": 21, "D": 14, "E": 6, "F": 6, "G": 8, "H": 7, "I": 21, "J": 14, "K": 10,
             "L": 20, "M": 11, "N": 6, "O": 20, "P": 8, "Q": 5, "R": 12, "S": 11, "T": 19, "U": 10, "V": 10,
             "W": 15, "X": 20, "Y": 16, "Z": 13, "a": 12, "b": 9, "c": 13, "d": 10, "e": 5, "f": 11}
FJMC_SOLUTION = "915687342427913568683254197871345926349726851256891473132479685598162734764538219"
CLEVE = ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2."
CLEVE_SOLUTION = "925631847618574293374982561749826135852413976163795482287359614491267358536148729"
X_SOLUTION = "815247639923561748467389215371428596584936172692175483236814957158792364749653821"


def digits(text: str, n: int) -> np.ndarray:
    return np.array([0 if ch == "." else int(ch) for ch in text]).reshape(n, n)


def cages_from_map(rows: list[str], sums: dict[str, int]) -> list[Cage]:
    cells: dict[str, list] = {}
    for r, row in enumerate(rows):
        for c, label in enumerate(row):
            cells.setdefault(label, []).append((r, c))
    return [Cage(tuple(cells[label]), sums[label]) for label in cells]


def pattern_sudoku(br: int, bc: int) -> np.ndarray:
    n = br * bc
    r, c = np.indices((n, n))
    return ((r % br) * bc + r // br + c) % n + 1


def fjmc_killer() -> KillerSudoku:
    return KillerSudoku(np.zeros((9, 9), int), cages=cages_from_map(FJMC_CAGE_MAP, FJMC_SUMS), name="fjmc")


def samples() -> dict[str, tuple[object, np.ndarray | None]]:
    blanks = np.random.default_rng(0)
    s6, s25 = pattern_sudoku(2, 3), pattern_sudoku(5, 5)
    xsol = digits(X_SOLUTION, 9)
    pairs = [Cage(((r, c), (r, c + 1)), int(xsol[r, c] + xsol[r, c + 1])) for r in range(9) for c in (0, 2, 4, 6)]
    pairs += [Cage(((r, 8),), int(xsol[r, 8])) for r in range(9)]
    kakuro = Kakuro(
        white=[[0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [0, 1, 1, 1, 1], [0, 1, 1, 1, 1], [0, 0, 1, 1, 0]],
        across=[[0, 0, 0, 0, 0], [14, 0, 0, 0, 0], [16, 0, 0, 0, 0], [14, 0, 0, 0, 0], [0, 8, 0, 0, 0]],
        down=[[0, 23, 16, 10, 0], [0, 0, 0, 0, 3], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
    kakuro_solution = np.array([[0, 0, 0, 0, 0], [0, 9, 1, 4, 0], [0, 6, 5, 3, 2], [0, 8, 3, 2, 1], [0, 0, 7, 1, 0]])
    takuzu_solution = np.array([[int(ch) for ch in row] for row in [
        "10100101", "01011010", "10010110", "00101101", "01101010", "10010101", "01101001", "11010010"]])
    return {
        "sudoku9": (Sudoku(digits(CLEVE, 9)), digits(CLEVE_SOLUTION, 9)),
        "sudoku6": (Sudoku(np.where(blanks.random((6, 6)) < 0.4, s6, 0), 2, 3), None),
        "sudoku25": (Sudoku(np.where(blanks.random((25, 25)) < 0.4, s25, 0)), s25),
        "killer": (fjmc_killer(), digits(FJMC_SOLUTION, 9)),
        "killer_x": (KillerSudoku(np.zeros((9, 9), int), cages=pairs, diagonal=True), xsol),
        "kakuro": (kakuro, kakuro_solution),
        "takuzu": (Takuzu(np.where(blanks.random((8, 8)) < 0.3, takuzu_solution, -1)), takuzu_solution),
    }


SAMPLES = samples()


@pytest.mark.parametrize("extension", ["png", "svg", "pdf"])
@pytest.mark.parametrize("key", SAMPLES)
def test_every_puzzle_draws_into_every_format(key, extension, tmp_path):
    puzzle, solution = SAMPLES[key]
    path = tmp_path / f"{key}.{extension}"
    save_drawing(puzzle, solution, path)
    assert path.exists() and path.stat().st_size > 1024
    if extension == "png":
        image = matplotlib.image.imread(path)
        assert image.ndim == 3 and min(image.shape[:2]) > 300
        assert (image != image[0, 0]).any(axis=-1).mean() > 0.01   # not a single colour
    elif extension == "pdf":
        assert path.read_bytes().startswith(b"%PDF") and b"Type3" not in path.read_bytes()
    else:
        assert "<svg" in path.read_text()


def solution_pixels(path) -> int:
    image = matplotlib.image.imread(path)[..., :3]
    target = np.array(matplotlib.colors.to_rgb(SOLUTION_COLOUR))
    return int((np.abs(image - target).max(axis=-1) < 0.08).sum())


@pytest.mark.parametrize("key", ["sudoku9", "killer", "kakuro", "takuzu"])
def test_the_solution_is_drawn_in_its_own_colour(key, tmp_path):
    puzzle, solution = SAMPLES[key]
    save_drawing(puzzle, None, tmp_path / "bare.png")
    save_drawing(puzzle, solution, tmp_path / "solved.png")
    assert solution_pixels(tmp_path / "bare.png") == 0
    assert solution_pixels(tmp_path / "solved.png") > 1000


def test_draw_into_given_axes_returns_its_figure():
    from matplotlib.figure import Figure
    figure = Figure()
    ax = figure.add_subplot(1, 2, 2)
    puzzle, solution = SAMPLES["sudoku9"]
    assert draw(puzzle, solution, ax=ax) is figure
    assert ax.get_xlim() == (0, 9) and ax.get_ylim() == (9, 0)
    assert sum(t.get_text().isdigit() for t in ax.texts) == 81


def test_text_scales_with_the_grid():
    for key, n in (("sudoku9", 9), ("sudoku25", 25)):
        figure = draw(*SAMPLES[key])
        cell_points = figure.axes[0].get_position().width * figure.get_figwidth() * 72 / n
        font = max(t.get_fontsize() for t in figure.axes[0].texts)
        assert 0.4 < font / cell_points < 0.7   # legible but inside its cell, whatever the grid size
        assert font >= 9


def test_bad_extension_and_shape_are_puzzle_errors(tmp_path):
    puzzle, solution = SAMPLES["sudoku9"]
    with pytest.raises(PuzzleError, match="must end in"):
        save_drawing(puzzle, solution, tmp_path / "x.gif")
    with pytest.raises(PuzzleError, match="the solution is 8 x 9"):
        draw(puzzle, solution[:8])


def test_single_region_outline_is_the_inset_square():
    segments = cage_outlines(np.zeros((2, 2), int))
    expected = {((0.1, 0.1), (1.9, 0.1)), ((0.1, 1.9), (1.9, 1.9)), ((0.1, 0.1), (0.1, 1.9)), ((1.9, 0.1), (1.9, 1.9))}
    assert {tuple(map(tuple, np.round(s, 6))) for s in segments} == expected


def test_concave_corner_outline_follows_the_l_shape():
    owner = np.array([[0, 1], [0, 0]])   # an L of three cells around a single cell
    segments = {tuple(map(tuple, np.round(s, 6))) for s in cage_outlines(owner)}
    assert ((0.1, 1.1), (0.9, 1.1)) not in segments          # no line between cells of the L
    assert ((0.9, 0.1), (0.9, 1.1)) in segments              # runs past the cell into the corner
    assert ((0.9, 1.1), (1.9, 1.1)) in segments
    assert ((1.1, 0.1), (1.9, 0.1)) in segments              # the single cell's own square


def test_killer_outlines_are_closed_and_stay_near_cell_borders():
    puzzle = fjmc_killer()
    segments = cage_outlines(puzzle.cage_index)
    ends = Counter(tuple(np.round(p, 6)) for p in segments.reshape(-1, 2))
    assert set(ends.values()) == {2}                          # every corner joins exactly two pieces
    fraction = np.round(np.concatenate([segments[:, 0, 1][np.isclose(segments[:, 0, 1], segments[:, 1, 1])],
                                        segments[:, 0, 0][np.isclose(segments[:, 0, 0], segments[:, 1, 0])]]) % 1, 6)
    assert set(fraction) <= {0.1, 0.9}                        # never through the digits in the middle


def test_clear_corners_leaves_room_for_the_sums():
    segments = cage_outlines(np.zeros((2, 2), int))
    trimmed = clear_corners(segments, np.array([[0, 0]]), np.array([0.5]), 0.4)
    starts = {tuple(np.round(s[0], 6)) for s in trimmed}
    assert (0.5, 0.1) in starts and (0.1, 0.4) in starts
    assert (0.1, 0.1) not in starts


def test_draw_command_writes_the_picture(tmp_path, capsys):
    puzzle, solution = SAMPLES["killer"]
    (tmp_path / "k.txt").write_text(format_puzzle(puzzle))
    (tmp_path / "k.solution.txt").write_text(format_solution(puzzle, solution))
    out = tmp_path / "k.png"
    assert main(["draw", str(tmp_path / "k.txt"), str(tmp_path / "k.solution.txt"), "-o", str(out)]) == 0
    assert solution_pixels(out) > 1000
    assert main(["draw", str(tmp_path / "k.txt"), "-o", str(tmp_path / "k.bmp")]) == 2
    assert "must end in" in capsys.readouterr().err
    assert main(["draw", str(tmp_path / "k.txt"), "--solved", "-o", str(out)]) == 2
    assert "holds no solution" in capsys.readouterr().err
