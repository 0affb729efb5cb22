"""Killer Sudoku (and Killer-X): a random solved grid, random cages, cages split until unique.

How its puzzles are made, written into a generated set's SOURCE.md: :data:`PROCEDURE`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import PuzzleError
from ...toolkit.generation import Generated, Oracle, neighbours, per_size, random_fill, random_spanning_tree
from ...toolkit.rules import default_box_shape
from ..sudoku.generator import MAX_SIZE, boxes, solved_grid
from ..sudoku.puzzle import sudoku_units
from .puzzle import Cage, KillerSudoku

PROCEDURE = """Killer Sudoku (and Killer-X): a random solved grid, random cages, cages split until unique.

1. Solved grid: :func:`puzzlebench.generators.sudoku.solved_grid`, or for
   Killer-X (both diagonals hold 1..N too) the randomized backtracking of
   :func:`puzzlebench.toolkit.generation.random_fill` over the units with diagonals.
2. Cages (:func:`random_cages`): the cells in random order; each cell not yet
   caged starts a cage of a random size 2..``max_cage`` that grows by random
   flood fill, adding a random uncaged orthogonal neighbour whose digit is not
   in the cage yet, until it has its size or cannot grow.  A cage stuck at one
   cell then joins a random neighbouring cage that has room and lacks its
   digit, if there is one.  Sums come from the grid.  There are no givens.
3. Uniqueness (:func:`split_until_unique`): while the search solver finds a
   second solution T, one cage on which T differs from the grid is split in
   two along an edge of a random spanning tree of its cells, chosen among the
   edges whose two sides have different sums in T than in the grid, so that T
   breaks a new sum.  Such an edge always exists (if every edge's side kept its
   sum, every cell would), both sides stay connected, and every split adds a
   cage, so the loop ends after at most N^2 splits (one-cell cages act as
   givens).
"""


@dataclass(frozen=True)
class KillerSpec:
    """What to generate: an N x N Killer with br x bc boxes and cages of at most ``max_cage`` cells."""

    n: int
    box: tuple[int, int]
    max_cage: int
    diagonal: bool

    @classmethod
    def make(cls, n: int, box: tuple[int, int] | None, max_cage: int, diagonal: bool) -> KillerSpec:
        """Validate the size, box shape (the squarest one when ``box`` is None) and cage size."""
        if not 4 <= n <= MAX_SIZE:
            raise PuzzleError(f"Killer size {n} is outside 4..{MAX_SIZE}")
        box = box or default_box_shape(n)
        if box[0] * box[1] != n:
            raise PuzzleError(f"box shape {box[0]}x{box[1]} does not tile a {n}x{n} grid")
        if not 1 <= max_cage <= n:
            raise PuzzleError(f"--max-cage must be in 1..{n} for a {n}x{n} Killer, got {max_cage}")
        return cls(n, box, max_cage, diagonal)

    @property
    def key(self) -> tuple[int, ...]:
        return (self.n, self.n, *self.box, int(self.diagonal))

    @property
    def label(self) -> str:
        """The file-name stem of this kind of puzzle: ``killer-09x09``, ``killer-06x06-box3x2-diagonal``."""
        box = "" if self.box == default_box_shape(self.n) else f"-box{self.box[0]}x{self.box[1]}"
        return f"killer-{self.n:02d}x{self.n:02d}{box}" + ("-diagonal" if self.diagonal else "")

    @property
    def parameters(self) -> dict:
        return {"size": f"{self.n}x{self.n}", "box": f"{self.box[0]}x{self.box[1]}",
                "max cage": self.max_cage, "diagonal": self.diagonal}


def random_cages(solution: np.ndarray, max_cage: int, rng: np.random.Generator) -> np.ndarray:
    """A random partition of the grid into cages with distinct digits (module docstring, step 2).

    Returns the cage number of every cell (flat, row-major).
    """
    n = solution.shape[0]
    digits = solution.ravel()
    owner = np.full(n * n, -1)
    cages: list[list[int]] = []
    for start in rng.permutation(n * n).tolist():
        if owner[start] >= 0:
            continue
        size = int(rng.integers(2, max_cage + 1)) if max_cage >= 2 else 1
        cage, used = [start], {int(digits[start])}
        owner[start] = len(cages)
        while len(cage) < size:
            frontier = sorted({nb for cell in cage for nb in neighbours(cell, n)
                               if owner[nb] < 0 and int(digits[nb]) not in used})
            if not frontier:
                break
            cell = frontier[int(rng.integers(len(frontier)))]
            cage.append(cell)
            used.add(int(digits[cell]))
            owner[cell] = len(cages)
        cages.append(cage)
    for k, cage in enumerate(cages):
        if len(cage) != 1:
            continue
        cell = cage[0]
        hosts = sorted({int(owner[nb]) for nb in neighbours(cell, n)
                        if len(cages[owner[nb]]) < max_cage
                        and int(digits[cell]) not in digits[cages[owner[nb]]]})
        if hosts:
            host = hosts[int(rng.integers(len(hosts)))]
            cages[host].append(cell)
            cages[k] = []
            owner[cell] = host
    renumber = np.cumsum([bool(c) for c in cages]) - 1
    return renumber[owner]


def killer_from_cages(owner: np.ndarray, solution: np.ndarray, box: tuple[int, int], diagonal: bool) -> KillerSudoku:
    """The Killer whose cages are the groups of equal ``owner`` numbers, summed from ``solution``."""
    n = solution.shape[0]
    cages = []
    for k in range(int(owner.max()) + 1):
        cells = np.flatnonzero(owner == k)
        cages.append(Cage(tuple((int(c) // n, int(c) % n) for c in cells), int(solution.ravel()[cells].sum())))
    return KillerSudoku(np.zeros((n, n), np.int64), box[0], box[1], cages=tuple(cages), diagonal=diagonal)


def split_cage(cells: list[int], solution: np.ndarray, other: np.ndarray, n: int,
               rng: np.random.Generator) -> list[int]:
    """One side of a split of the cage ``cells`` that ``other`` cannot satisfy (module docstring, step 3).

    Grows a random spanning tree of the cage, then picks at random a tree edge
    whose far side sums differently in ``other`` than in ``solution``.
    """
    delta = {c: int(other.ravel()[c]) - int(solution.ravel()[c]) for c in cells}
    order, subtree = random_spanning_tree(cells, n, rng)
    cuts = [c for c in order[1:] if sum(delta[x] for x in subtree[c]) != 0]
    return subtree[cuts[int(rng.integers(len(cuts)))]]


def split_until_unique(owner: np.ndarray, solution: np.ndarray, spec: KillerSpec, rng: np.random.Generator,
                       oracle: Oracle) -> tuple[KillerSudoku, int]:
    """Split cages until the Killer is unique (module docstring, step 3); returns it and the number of splits."""
    owner = owner.copy()
    splits = 0
    while True:
        puzzle = killer_from_cages(owner, solution, spec.box, spec.diagonal)
        other = oracle.other_solution(puzzle, solution)
        if other is None:
            return puzzle, splits
        differing = np.unique(owner[np.flatnonzero(other.ravel() != solution.ravel())])
        cage = int(differing[int(rng.integers(len(differing)))])
        side = split_cage(np.flatnonzero(owner == cage).tolist(), solution, other, spec.n, rng)
        owner[side] = owner.max() + 1
        splits += 1


def generate_killer(spec: KillerSpec, rng: np.random.Generator, oracle: Oracle) -> Generated:
    """A unique Killer for ``spec`` (module docstring); the certificate is the caller's."""
    n, (br, bc) = spec.n, spec.box
    if spec.diagonal:
        units = sudoku_units(n, br, bc)
        diagonals = np.stack([np.arange(n) * (n + 1), np.arange(n) * (n - 1) + (n - 1)])
        solution = random_fill(np.concatenate([units, diagonals]).tolist(), n * n, n, rng).reshape(n, n)
    else:
        solution = solved_grid(n, br, bc, rng)
    owner = random_cages(solution, spec.max_cage, rng)
    puzzle, splits = split_until_unique(owner, solution, spec, rng, oracle)
    notes = (f"{splits} cage split(s) made it unique",) if splits else ()
    return Generated(puzzle, solution, notes)


DEFAULT_MAX_CAGE = 5


def describe_killer(puzzle: KillerSudoku) -> str:
    """``9x9, 30 cages of 1..5 cells``."""
    sizes = [len(cage.cells) for cage in puzzle.cages]
    return f"{puzzle.n}x{puzzle.n}, {len(sizes)} cages of {min(sizes)}..{max(sizes)} cells"


def killer_specs(args, sizes: list[tuple[int, int]]) -> list[KillerSpec]:
    cages = per_size(args.max_cage, len(sizes), "max-cage")
    return [KillerSpec.make(n, box, min(DEFAULT_MAX_CAGE, n) if k is None else k, args.diagonal)
            for (n, _), box, k in zip(sizes, boxes(args, len(sizes)), cages)]


def killer_command(args, specs) -> list[str]:
    return ["--box", *(f"{s.box[0]}x{s.box[1]}" for s in specs), "--max-cage", *(str(s.max_cage) for s in specs)] \
        + (["--diagonal"] if args.diagonal else [])
