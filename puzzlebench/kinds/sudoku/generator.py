"""Sudoku of any box shape: a random solved grid, then cells blanked while the puzzle stays unique.

How its puzzles are made, written into a generated set's SOURCE.md: :data:`PROCEDURE`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import PuzzleError
from ...toolkit.generation import (
    BlankTarget,
    Generated,
    Oracle,
    blank_targets,
    dig,
    groups_of_cells,
    per_size,
    shortfall_note,
    target_words,
)
from ...toolkit.rules import default_box_shape
from .puzzle import Sudoku, sudoku_units
from .transforms import random_sudoku_transform, sudoku_symmetries

PROCEDURE = """Sudoku of any box shape: a random solved grid, then cells blanked while the puzzle stays unique.

Solved grid (:func:`solved_grid`): the pattern grid of the box shape,
``((r mod br)*bc + r div br + c) mod N + 1``, moved by a random symmetry of
:mod:`puzzlebench.transforms` (digit relabelling, rows within bands, columns
within stacks, bands, stacks, and the transposition for square boxes), then
mixed by N^2 random Kempe swaps.  A Kempe swap picks a cell holding a and a
digit b, follows the chain "the cell holding the other digit in each unit of
this cell" from it, and exchanges a and b on that chain; every unit then still
holds each digit once.  The symmetries alone only reach grids equivalent to
the pattern; the swaps leave that class.  Grids that must also satisfy
diagonals (Killer-X) come from :func:`random_fill`, a randomized backtracking
search, instead.

Digging (:func:`puzzlebench.toolkit.generation.dig`): the cells in a random
order, first a *logic* pass that blanks them in growing batches while naked
and hidden singles (:class:`SinglesPropagator`) alone still solve the whole
puzzle, then (unless ``--difficulty logic``) a *uniqueness* pass over the
cells left given, each blank kept when the cell can hold no other digit:
propagation proves it, or the search solver finds no solution with another
digit there.  Both stop at the target blank count.  A puzzle of the logic pass
is solved by the propagation a MIP presolve does, so its certificate is
immediate; past that frontier, proofs get hard fast as the grid grows.
Measured (one core, a few seeds): the logic pass alone stops at about 71%
blank at 9x9 (the uniqueness pass adds almost nothing), 63% at 16x16 (65%
with the uniqueness pass), 57% at 25x25 and 53% at 36x36.  At 25x25 a puzzle 0.5% past the frontier took HiGHS 34 s and 551
nodes to certify, and a puzzle dug by uniqueness to 60% was not solved by
HiGHS, SCIP or CBC within 60 s (CP-SAT: 11 s); at 36x36 single-cell searches
just past the frontier took CP-SAT up to 172 s.  A unique 36x36 at 65% blank
is thus out of reach of a MIP certificate in minutes; the shipped ladder
stays on the logic side at 25x25 and 36x36.
"""

MAX_SIZE = 36


@dataclass(frozen=True)
class SudokuSpec:
    """What to generate: an N x N Sudoku with br x bc boxes, dug to ``target``."""

    n: int
    box: tuple[int, int]
    target: BlankTarget
    logic_only: bool = False

    @classmethod
    def make(cls, n: int, box: tuple[int, int] | None, target: BlankTarget,
             logic_only: bool = False) -> SudokuSpec:
        """Validate the size and box shape (the squarest one when ``box`` is None)."""
        if not 2 <= n <= MAX_SIZE:
            raise PuzzleError(f"Sudoku size {n} is outside 2..{MAX_SIZE}")
        box = box or default_box_shape(n)
        if box[0] * box[1] != n:
            raise PuzzleError(f"box shape {box[0]}x{box[1]} does not tile a {n}x{n} grid")
        target.blanks(n * n)  # a clue count larger than the grid fails here
        return cls(n, box, target, logic_only)

    @property
    def key(self) -> tuple[int, ...]:
        return (self.n, self.n, *self.box)

    @property
    def label(self) -> str:
        """The file-name stem of this kind of puzzle: ``sudoku-09x09``, ``sudoku-12x12-box4x3``."""
        box = "" if self.box == default_box_shape(self.n) else f"-box{self.box[0]}x{self.box[1]}"
        return f"sudoku-{self.n:02d}x{self.n:02d}{box}"

    @property
    def parameters(self) -> dict:
        return {"size": f"{self.n}x{self.n}", "box": f"{self.box[0]}x{self.box[1]}",
                "target": self.target.describe(), "difficulty": "logic" if self.logic_only else "unique"}


def pattern_grid(br: int, bc: int) -> np.ndarray:
    """The classic solved grid for br x bc boxes: row r is row 0 shifted by (r mod br)*bc + r div br."""
    n = br * bc
    r, c = np.indices((n, n))
    return ((r % br) * bc + r // br + c) % n + 1


def kempe_swap(grid: np.ndarray, units: np.ndarray, cell_units: list[list[int]], cell: int, other: int) -> None:
    """Exchange digit ``grid[cell]`` and ``other`` along their Kempe chain through ``cell`` (in place).

    ``cell_units`` lists the units of each cell.  The chain is closed under "the
    cell holding the other digit in a unit of this cell", so each unit gets its
    pair of cells swapped or neither.
    """
    flat = grid.reshape(-1)
    n = units.shape[1]
    a = int(flat[cell])
    where = np.zeros((len(units), n + 1), np.int64)
    where[np.repeat(np.arange(len(units)), n), flat[units].ravel()] = units.ravel()
    chain, stack = {cell}, [cell]
    while stack:
        x = stack.pop()
        partner = other if flat[x] == a else a
        for u in cell_units[x]:
            y = int(where[u, partner])
            if y not in chain:
                chain.add(y)
                stack.append(y)
    members = np.fromiter(chain, np.int64)
    flat[members] = np.where(flat[members] == a, other, a)


def solved_grid(n: int, br: int, bc: int, rng: np.random.Generator) -> np.ndarray:
    """A random solved N x N Sudoku grid with br x bc boxes (module docstring)."""
    pattern = pattern_grid(br, bc)
    solved = Sudoku(pattern, br, bc)
    use = set(sudoku_symmetries(solved))  # every symmetry of the solved pattern, as permute draws them
    transpose = "transpose" in use and bool(rng.random() < 0.5)
    grid = random_sudoku_transform(solved, rng, use, transpose).map_solution(pattern)
    units = sudoku_units(n, br, bc)
    cell_units = groups_of_cells(units.tolist(), n * n)
    cells = rng.integers(0, n * n, n * n)
    shifts = rng.integers(1, n, n * n)
    for cell, shift in zip(cells.tolist(), shifts.tolist()):
        kempe_swap(grid, units, cell_units, cell, (int(grid.flat[cell]) - 1 + shift) % n + 1)
    return grid


class SinglesPropagator:
    """Naked and hidden singles for the units of one grid shape, on candidate bitmasks.

    A candidate state is a uint64 array over the cells (flat, row-major): bit
    k-1 of ``cand[c]`` says cell c may still hold k (N <= 36 fits).
    """

    def __init__(self, units: np.ndarray, n: int):
        self.units = units
        self.n = n
        per_cell = groups_of_cells(units.tolist(), n * n)
        width = max(map(len, per_cell))
        self.cell_units = np.array([us + [len(units)] * (width - len(us)) for us in per_cell])
        """The units of each cell, padded with the index of an extra, always empty, unit."""
        self.full = np.uint64((1 << n) - 1)

    def table(self, givens: np.ndarray) -> np.ndarray:
        """The candidate state of ``givens`` before any propagation (0 = blank)."""
        flat = givens.ravel()
        bits = np.left_shift(np.uint64(1), (np.maximum(flat, 1) - 1).astype(np.uint64))
        return np.where(flat > 0, bits, self.full).astype(np.uint64)

    def _over_cell_units(self, per_unit: np.ndarray) -> np.ndarray:
        """For every cell, the OR of ``per_unit`` over the units of the cell."""
        return np.bitwise_or.reduce(np.append(per_unit, np.uint64(0))[self.cell_units], axis=1)

    def propagate(self, cand: np.ndarray) -> np.ndarray | None:
        """Apply naked and hidden singles until nothing changes; None on a contradiction."""
        units, zero = self.units, np.uint64(0)
        while True:
            counts = np.bitwise_count(cand)
            if (counts == 0).any():
                return None
            singles = np.where(counts == 1, cand, zero)[units]
            placed = np.bitwise_or.reduce(singles, axis=1)
            if (np.bitwise_count(singles).sum(axis=1) != np.bitwise_count(placed)).any():
                return None  # a unit holds one digit twice
            new = np.where(counts == 1, cand, cand & ~self._over_cell_units(placed))
            in_unit = new[units]
            once = np.zeros(len(units), np.uint64)
            twice = np.zeros(len(units), np.uint64)
            for position in range(in_unit.shape[1]):
                twice |= once & in_unit[:, position]
                once |= in_unit[:, position]
            if (once != self.full).any():
                return None  # a digit has no place left in a unit
            hidden = new & self._over_cell_units(once & ~twice)
            if (np.bitwise_count(hidden) > 1).any():
                return None  # one cell is the only place of two digits
            new = np.where(hidden != 0, hidden, new)
            if np.array_equal(new, cand):
                return cand
            cand = new

    def solves(self, givens: np.ndarray) -> bool:
        """Whether propagation alone fills every blank of ``givens``."""
        cand = self.propagate(self.table(givens))
        return cand is not None and bool((np.bitwise_count(cand) == 1).all())

    def forced(self, givens: np.ndarray, cell: int, digit: int) -> bool:
        """Whether propagation proves that blank ``cell`` of ``givens`` can hold no digit but ``digit``.

        Either the cell ends with ``digit`` as its only candidate, or each other
        candidate, placed in turn, propagates to a contradiction.
        """
        cand = self.propagate(self.table(givens))
        if cand is None:
            return False
        mask = int(cand[cell])
        for other in range(1, self.n + 1):
            if other != digit and mask >> (other - 1) & 1:
                trial = cand.copy()
                trial[cell] = np.uint64(1 << (other - 1))
                if self.propagate(trial) is not None:
                    return False
        return True


def generate_sudoku(spec: SudokuSpec, rng: np.random.Generator, oracle: Oracle) -> Generated:
    """A unique Sudoku for ``spec`` (module docstring); the certificate is the caller's."""
    n, (br, bc) = spec.n, spec.box
    solution = solved_grid(n, br, bc, rng)
    target = spec.target.blanks(n * n)
    propagator = SinglesPropagator(sudoku_units(n, br, bc), n)
    givens = dig(solution, 0, rng.permutation(n * n), target, make_puzzle=lambda g: Sudoku(g, br, bc),
                 solved_by_logic=propagator.solves, forced=propagator.forced,
                 oracle=None if spec.logic_only else oracle)
    blanks = int((givens == 0).sum())
    return Generated(Sudoku(givens, br, bc), solution, shortfall_note(blanks, target, n * n, "cells"))


DEFAULT_BLANK_FRACTION = 0.6


def boxes(args, count: int) -> list:
    """``--box`` shapes, one per size (None: the squarest), Sudoku and Killer."""
    from ...toolkit.rules import parse_box
    return [parse_box(b) if b else None for b in per_size(args.box, count, "box")]


def sudoku_specs(args, sizes: list[tuple[int, int]]) -> list[SudokuSpec]:
    targets = blank_targets(args, len(sizes), DEFAULT_BLANK_FRACTION)
    return [SudokuSpec.make(n, box, t, args.difficulty == "logic")
            for (n, _), box, t in zip(sizes, boxes(args, len(sizes)), targets)]


def sudoku_command(args, specs) -> list[str]:
    return ["--box", *(f"{s.box[0]}x{s.box[1]}" for s in specs), *target_words(specs)]
