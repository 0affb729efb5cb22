"""Kakuro of a given size and black-cell density: a random pattern and fill, repaired until unique.

How its puzzles are made, written into a generated set's SOURCE.md: :data:`PROCEDURE`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
from scipy import ndimage

from ...errors import PuzzleError
from ...toolkit.generation import Generated, Oracle, per_size, random_fill
from .puzzle import DEFAULT_DENSITY, Kakuro

PROCEDURE = """Kakuro of a given size and black-cell density: a random pattern and fill, repaired until unique.

1. Pattern (:func:`random_pattern`): row 0 and column 0 are black (they hold
   the clues), every other cell starts white.  First every run longer than 9
   cells is split at a random cell whose blackening keeps the pattern valid:
   no white run of one cell, and the white cells orthogonally connected
   (:func:`can_blacken`); if no cell of the run is valid, at the cell (two or
   more from either end) that keeps the most white cells once
   :func:`repair_pattern` has blackened the one-cell runs and kept the
   largest connected white region.  Then cells, in random order, turn black
   while the share of black cells outside row 0 and column 0 is below
   ``density``, each only if the pattern stays valid.  Blackening never
   lengthens a run, so every run keeps 2..9 cells.
2. Fill: random digits 1..9, distinct within every run
   (:func:`puzzlebench.toolkit.generation.random_fill`), then *tightened*
   (:func:`tighten`): random one-cell digit changes that keep runs distinct
   are kept when they do not increase sum_runs log(number of digit sets of
   the run's length and sum), which moves run sums towards those with few
   digit sets (3 or 17 in two cells: one set each).  The clues are the run sums.
3. Uniqueness (:func:`make_unique`): while the search solver finds a second
   solution T, let D be the cells where T differs from the fill.  If a cell of
   D can turn black keeping the pattern valid, a random one does: T then
   breaks a new run sum, since its two parts of the run summed to the old
   total with another digit in between.  Otherwise a random cell of D gets
   the smallest or largest digit its runs allow (at random) and the cells of
   D are tightened again.  After ``4 |W|`` rounds (|W| white cells) the
   attempt is abandoned and the next one draws a new pattern and fill; after
   ``MAX_ATTEMPTS`` the generator gives up.  Blackening raises the density:
   the density reached is reported with each puzzle.
"""

MAX_SIDE = 100
MAX_RUN = Kakuro.max_digit
MAX_ATTEMPTS = 20


def _digit_set_counts() -> np.ndarray:
    """``counts[length, total]``: the number of sets of ``length`` distinct digits 1..9 summing to ``total``."""
    counts = np.zeros((MAX_RUN + 1, MAX_RUN * (MAX_RUN + 1) // 2 + 1), np.int64)
    for length in range(1, MAX_RUN + 1):
        for digits in combinations(range(1, MAX_RUN + 1), length):
            counts[length, sum(digits)] += 1
    return counts


LOG_DIGIT_SETS = np.log(np.maximum(_digit_set_counts(), 1))
"""log of the number of digit sets per (run length, sum); 0 where there is none or one."""


@dataclass(frozen=True)
class KakuroSpec:
    """What to generate: an R x C Kakuro (clue row and column included) with black-cell ``density``.

    The density counts the black cells outside row 0 and column 0.
    """

    rows: int
    cols: int
    density: float

    def __post_init__(self):
        if not (3 <= self.rows <= MAX_SIDE and 3 <= self.cols <= MAX_SIDE):
            raise PuzzleError(f"a Kakuro must be 3x3 to {MAX_SIDE}x{MAX_SIDE}, got {self.rows}x{self.cols}")
        if not 0 <= self.density < 1:
            raise PuzzleError(f"--density must be in [0, 1), got {self.density:g}")

    @property
    def key(self) -> tuple[int, ...]:
        return (self.rows, self.cols)

    @property
    def label(self) -> str:
        """The file-name stem of this kind of puzzle: ``kakuro-10x12``."""
        return f"kakuro-{self.rows:02d}x{self.cols:02d}"

    @property
    def parameters(self) -> dict:
        return {"size": f"{self.rows}x{self.cols}", "density": self.density}


def _runs(line: np.ndarray) -> list[tuple[int, int]]:
    """(start, length) of every run of True in a 1-D boolean array."""
    padded = np.concatenate([[False], line, [False]])
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    return [(int(s), int(e - s)) for s, e in zip(edges[::2], edges[1::2])]


def run_cells(white: np.ndarray) -> tuple[list[list[int]], list[list[int]]]:
    """The flat cell indices of every across run and of every down run."""
    rows, cols = white.shape
    index = np.arange(rows * cols).reshape(rows, cols)
    return ([index[r, s:s + n].tolist() for r in range(rows) for s, n in _runs(white[r])],
            [index[s:s + n, c].tolist() for c in range(cols) for s, n in _runs(white[:, c])])


def _white_neighbours(white: np.ndarray, r: int, c: int, dr: int, dc: int) -> int:
    """How many white cells follow (r, c) in direction (dr, dc) before a black cell or the edge."""
    count, rr, cc = 0, r + dr, c + dc
    while 0 <= rr < white.shape[0] and 0 <= cc < white.shape[1] and white[rr, cc]:
        count, rr, cc = count + 1, rr + dr, cc + dc
    return count


def can_blacken(white: np.ndarray, cell: int) -> bool:
    """Whether white ``cell`` (flat index) can turn black leaving no one-cell run and one white region."""
    r, c = divmod(cell, white.shape[1])
    for dr, dc in ((0, 1), (1, 0)):
        if 1 in (_white_neighbours(white, r, c, -dr, -dc), _white_neighbours(white, r, c, dr, dc)):
            return False
    trial = white.copy()
    trial[r, c] = False
    return ndimage.label(trial)[1] <= 1


def repair_pattern(white: np.ndarray) -> np.ndarray:
    """``white`` with one-cell runs blackened and only its largest connected region kept, repeatedly."""
    white = white.copy()
    while True:
        before = white.copy()
        for lines in (white, white.T):
            for line in lines:
                for start, length in _runs(line):
                    if length == 1:
                        line[start] = False
        labels, count = ndimage.label(white)
        if count > 1:
            white = labels == 1 + int(np.argmax(np.bincount(labels.ravel())[1:]))
        if np.array_equal(white, before):
            return white


def _split_long_runs(white: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``white`` with every run longer than 9 split (module docstring, step 1)."""
    while True:
        across, down = run_cells(white)
        long = [cells for cells in across + down if len(cells) > MAX_RUN]
        if not long:
            return white
        inner = rng.permutation(long[0][2:-2]).tolist()
        valid = [cell for cell in inner if can_blacken(white, cell)]
        if valid:
            white = white.copy()
            white.flat[valid[0]] = False
            continue
        repaired = []
        for cell in inner:
            trial = white.copy()
            trial.flat[cell] = False
            repaired.append(repair_pattern(trial))
        white = max(repaired, key=lambda pattern: int(pattern.sum()))


def random_pattern(spec: KakuroSpec, rng: np.random.Generator) -> np.ndarray:
    """A random valid white-cell pattern for ``spec`` (module docstring, step 1)."""
    white = np.zeros((spec.rows, spec.cols), bool)
    white[1:, 1:] = True
    white = _split_long_runs(white, rng)
    inner = (spec.rows - 1) * (spec.cols - 1)
    black, target = inner - int(white.sum()), round(spec.density * inner)
    for cell in rng.permutation(np.flatnonzero(white.ravel())).tolist():
        if black >= target:
            break
        if can_blacken(white, cell):
            white.flat[cell] = False
            black += 1
    return white


def kakuro_from_fill(white: np.ndarray, fill: np.ndarray) -> Kakuro:
    """The Kakuro on ``white`` whose clues are the run sums of ``fill`` (a full grid; black cells ignored)."""
    rows, cols = white.shape
    across, down = np.zeros((rows, cols), np.int64), np.zeros((rows, cols), np.int64)
    flat = fill.ravel()
    across_runs, down_runs = run_cells(white)
    for cells in across_runs:
        r, c = divmod(cells[0], cols)
        across[r, c - 1] = flat[cells].sum()
    for cells in down_runs:
        r, c = divmod(cells[0], cols)
        down[r - 1, c] = flat[cells].sum()
    return Kakuro(white, across, down)


class FillRuns:
    """The runs of one pattern, for changing single digits of a fill (flat, 0 on black cells)."""

    def __init__(self, white: np.ndarray):
        across, down = run_cells(white)
        self.runs = across + down
        self.of: dict[int, list[int]] = {}
        for k, cells in enumerate(self.runs):
            for cell in cells:
                self.of.setdefault(cell, []).append(k)

    def free_digits(self, fill: np.ndarray, cell: int) -> list[int]:
        """The digits ``cell`` could take instead of its own, keeping its runs distinct."""
        used = {int(v) for k in self.of[cell] for v in fill[self.runs[k]]}
        return [d for d in range(1, MAX_RUN + 1) if d not in used]

    def tighten(self, fill: np.ndarray, cells: np.ndarray, steps: int, rng: np.random.Generator) -> None:
        """Random digit changes on ``cells`` kept when sum_runs log(digit sets) does not grow (in place)."""
        sums = {k: int(fill[self.runs[k]].sum()) for cell in cells.tolist() for k in self.of[cell]}
        picks = rng.integers(len(cells), size=steps)
        for cell in cells[picks].tolist():
            free = self.free_digits(fill, cell)
            if not free:
                continue
            digit = free[int(rng.integers(len(free)))]
            change = digit - int(fill[cell])
            delta = sum(LOG_DIGIT_SETS[len(self.runs[k]), sums[k] + change] - LOG_DIGIT_SETS[len(self.runs[k]), sums[k]]
                        for k in self.of[cell])
            if delta <= 0:
                fill[cell] = digit
                for k in self.of[cell]:
                    sums[k] += change


def random_digits(white: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random tightened fill of ``white`` (module docstring, step 2): flat, 0 on black cells."""
    number = np.full(white.size, -1)
    cells = np.flatnonzero(white.ravel())
    number[cells] = np.arange(len(cells))
    runs = FillRuns(white)
    fill = np.zeros(white.size, np.int64)
    fill[cells] = random_fill([number[run].tolist() for run in runs.runs], len(cells), MAX_RUN, rng)
    runs.tighten(fill, cells, 30 * len(cells), rng)
    return fill


def make_unique(white: np.ndarray, fill: np.ndarray, rng: np.random.Generator,
                oracle: Oracle) -> tuple[Kakuro, np.ndarray, int, int] | None:
    """Blacken cells and change digits until the Kakuro is unique (module docstring, step 3).

    Returns the puzzle, its solution and the numbers of cells blackened and of
    digits changed, or None when the rounds run out.
    """
    fill = fill.copy()
    blackened = changed = 0
    for _ in range(4 * int(white.sum())):
        solution = np.where(white.ravel(), fill, 0).reshape(white.shape)
        puzzle = kakuro_from_fill(white, solution)
        other = oracle.other_solution(puzzle, solution)
        if other is None:
            return puzzle, solution, blackened, changed
        differing = np.flatnonzero(other.ravel() != solution.ravel())
        safe = [cell for cell in differing.tolist() if can_blacken(white, cell)]
        if safe:
            white = white.copy()
            white.flat[safe[int(rng.integers(len(safe)))]] = False
            blackened += 1
            continue
        runs = FillRuns(white)
        cell = int(differing[int(rng.integers(len(differing)))])
        free = runs.free_digits(fill, cell)
        if free:
            fill[cell] = free[0] if rng.random() < 0.5 else free[-1]
            changed += 1
        runs.tighten(fill, differing, 5 * len(differing), rng)
    return None


def generate_kakuro(spec: KakuroSpec, rng: np.random.Generator, oracle: Oracle) -> Generated:
    """A unique Kakuro for ``spec`` (module docstring); the certificate is the caller's."""
    for attempt in range(1, MAX_ATTEMPTS + 1):
        white = random_pattern(spec, rng)
        if white.sum() < 2:
            continue
        if (found := make_unique(white, random_digits(white, rng), rng, oracle)) is not None:
            puzzle, solution, blackened, changed = found
            notes = (f"attempt {attempt}: {blackened} cell(s) blackened and {changed} digit(s) changed for uniqueness",)
            return Generated(puzzle, solution, notes)
    raise PuzzleError(f"no unique {spec.rows}x{spec.cols} Kakuro with density {spec.density:g} "
                      f"in {MAX_ATTEMPTS} attempts")



def kakuro_solution_columns(puzzle: Kakuro, solution: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x[w,k] at column 9*w + k-1 for the w-th white cell in row-major order, each 1 at the solution."""
    white_number = np.cumsum(puzzle.white.ravel()) - 1
    if not puzzle.white.ravel()[cells].all():
        raise ValueError("a Kakuro cell asked about is not white")
    return Kakuro.max_digit * white_number[cells] + solution.ravel()[cells] - 1, np.ones(len(cells), np.int64)


def kakuro_open_cells(puzzle: Kakuro) -> np.ndarray:
    """The white cells, flat."""
    return np.flatnonzero(puzzle.white.ravel())


def describe_kakuro(puzzle: Kakuro) -> str:
    """``8x8, 30 white cells, 12 runs, black density 0.39``."""
    rows, cols = puzzle.shape
    inner = (rows - 1) * (cols - 1)
    white = int(np.sum(puzzle.white))
    return f"{rows}x{cols}, {white} white cells, {len(puzzle.runs)} runs, black density {1 - white / inner:.2f}"


def kakuro_specs(args, sizes: list[tuple[int, int]]) -> list[KakuroSpec]:
    return [KakuroSpec(r, c, d) for (r, c), d in zip(sizes, per_size(args.density, len(sizes), "density",
                                                                     DEFAULT_DENSITY))]


def kakuro_command(args, specs) -> list[str]:
    return ["--density", *(f"{s.density:g}" for s in specs)]
