"""Takuzu (Binairo) of even sizes, with or without distinct lines: a random solution, then givens removed.

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
    shortfall_note,
    target_words,
)
from .puzzle import Takuzu

PROCEDURE = """Takuzu (Binairo) of even sizes, with or without distinct lines: a random solution, then givens removed.

Solution (:func:`random_solution`): a randomized depth-first search that
branches on a blank cell whose row and column hold the fewest blanks (ties
broken at random), trying 0 and 1 in random order, with the rules propagated
after every choice (:func:`propagate`).  The effort of such a search is
heavy-tailed, so it restarts (with the same generator) once it has visited
300 nodes, a budget that doubles after every 10 restarts.  One core finds a
20x20 solution in about a second, a 30x30 one in about 20 s.

Digging: as for Sudoku (:mod:`puzzlebench.generators.sudoku`), a logic pass
that keeps a blank only while propagation alone solves the whole puzzle, then
(unless ``--difficulty logic``) a uniqueness pass over the remaining givens,
each blank kept if propagation or the search solver shows the cell can hold
only its value.
"""

MAX_SIDE = 100


@dataclass(frozen=True)
class TakuzuSpec:
    """What to generate: an R x C Takuzu (``distinct``: no two equal rows or columns), dug to ``target``."""

    rows: int
    cols: int
    distinct: bool
    target: BlankTarget
    logic_only: bool = False

    def __post_init__(self):
        for side in (self.rows, self.cols):
            if side % 2 or not 2 <= side <= MAX_SIDE:
                raise PuzzleError(f"a Takuzu side must be even and in 2..{MAX_SIDE}, got {self.rows}x{self.cols}")
        self.target.blanks(self.rows * self.cols)  # a clue count larger than the grid fails here

    @property
    def key(self) -> tuple[int, ...]:
        return (self.rows, self.cols, int(self.distinct))

    @property
    def label(self) -> str:
        """The file-name stem of this kind of puzzle: ``takuzu-08x08``, ``takuzu-10x10-distinct``."""
        return f"takuzu-{self.rows:02d}x{self.cols:02d}" + ("-distinct" if self.distinct else "")

    @property
    def parameters(self) -> dict:
        return {"size": f"{self.rows}x{self.cols}", "distinct lines": self.distinct,
                "target": self.target.describe(), "difficulty": "logic" if self.logic_only else "unique"}


def _forced_values(grid: np.ndarray) -> np.ndarray | None:
    """Boolean (2, R, C): the values the rules force on blank cells in one round; None on a contradiction.

    A contradiction is three equal cells in a line, or a line with more than half of one value.
    """
    must = np.zeros((2, *grid.shape), bool)
    for lines, forced in ((grid, must), (grid.T, must.transpose(0, 2, 1))):
        a, b, c = lines[:, :-2], lines[:, 1:-1], lines[:, 2:]
        half = lines.shape[1] // 2
        for v in (0, 1):
            ab, bc, ac = (a == v) & (b == v), (b == v) & (c == v), (a == v) & (c == v)
            if (ab & (c == v)).any():
                return None
            forced[1 - v][:, 2:] |= ab
            forced[1 - v][:, :-2] |= bc
            forced[1 - v][:, 1:-1] |= ac
            count = (lines == v).sum(axis=1)
            if (count > half).any():
                return None
            forced[1 - v][count == half] = True
    return must & (grid < 0)


def _lines_repeat(grid: np.ndarray) -> bool:
    """Whether two complete rows, or two complete columns, are equal."""
    for lines in (grid, grid.T):
        full = lines[(lines >= 0).all(axis=1)]
        if len(full) > 1 and len(np.unique(full, axis=0)) < len(full):
            return True
    return False


def propagate(grid: np.ndarray, distinct: bool) -> np.ndarray | None:
    """``grid`` (-1 blank) with every value the rules force filled in, repeatedly; None on a contradiction.

    Rules: a blank next to, or between, two equal cells takes the other value;
    a line holding half its cells of one value takes the other in its blanks.
    With ``distinct``, two equal complete lines are a contradiction.
    """
    grid = grid.copy()
    while True:
        must = _forced_values(grid)
        if must is None or (must[0] & must[1]).any():
            return None
        if not must.any():
            return None if distinct and _lines_repeat(grid) else grid
        grid[must[0]] = 0
        grid[must[1]] = 1


def _most_constrained(blank: np.ndarray, rng: np.random.Generator) -> int:
    """A random blank cell (flat index) among those whose row and column hold the fewest blanks."""
    score = np.where(blank, blank.sum(axis=1)[:, None] + blank.sum(axis=0)[None, :], blank.size).ravel()
    best = np.flatnonzero(score == score.min())
    return int(best[rng.integers(len(best))])


def random_solution(rows: int, cols: int, distinct: bool, rng: np.random.Generator,
                    first_budget: int = 300) -> np.ndarray:
    """A random solved Takuzu grid (module docstring; ``first_budget`` is the first node budget)."""
    start = propagate(np.full((rows, cols), -1), distinct)
    for attempt in range(100):
        budget, nodes = first_budget * 2 ** (attempt // 10), 0
        stack: list[tuple[np.ndarray, int, list[int]]] = []  # (grid, the blank chosen, values left there)
        grid = start
        while nodes <= budget:
            blank = grid < 0
            if not blank.any():
                return grid
            stack.append((grid, _most_constrained(blank, rng), rng.permutation(2).tolist()))
            while stack:
                parent, cell, left = stack[-1]
                if not left:
                    stack.pop()
                    continue
                trial = parent.copy()
                trial.flat[cell] = left.pop(0)
                nodes += 1
                if (trial := propagate(trial, distinct)) is not None:
                    grid = trial
                    break
            else:
                raise PuzzleError(f"no {rows}x{cols} Takuzu{' with distinct lines' if distinct else ''} exists")
    raise PuzzleError(f"found no {rows}x{cols} Takuzu solution in 100 randomized searches")


def solved_by_logic(grid: np.ndarray, distinct: bool) -> bool:
    """Whether :func:`propagate` alone fills every blank of ``grid``."""
    filled = propagate(grid, distinct)
    return filled is not None and bool((filled >= 0).all())


def forced(grid: np.ndarray, cell: int, value: int, distinct: bool) -> bool:
    """Whether propagation proves that blank ``cell`` can only hold ``value``."""
    filled = propagate(grid, distinct)
    if filled is None or filled.flat[cell] == value:
        return filled is not None
    trial = filled.copy()
    trial.flat[cell] = 1 - value
    return propagate(trial, distinct) is None


def generate_takuzu(spec: TakuzuSpec, rng: np.random.Generator, oracle: Oracle) -> Generated:
    """A unique Takuzu for ``spec`` (module docstring); the certificate is the caller's."""
    rows, cols, distinct = spec.rows, spec.cols, spec.distinct
    solution = random_solution(rows, cols, distinct, rng)
    target = spec.target.blanks(rows * cols)
    givens = dig(solution, -1, rng.permutation(rows * cols), target,
                 make_puzzle=lambda g: Takuzu(g, distinct),
                 solved_by_logic=lambda g: solved_by_logic(g, distinct),
                 forced=lambda g, cell, value: forced(g, cell, value, distinct),
                 oracle=None if spec.logic_only else oracle)
    blanks = int((givens < 0).sum())
    return Generated(Takuzu(givens, distinct), solution, shortfall_note(blanks, target, rows * cols, "cells"))


DEFAULT_BLANK_FRACTION = 1.0


def takuzu_solution_columns(puzzle: Takuzu, solution: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x[i,j] at column i*C + j, its value the solution's."""
    return cells, solution.ravel()[cells]


def takuzu_specs(args, sizes: list[tuple[int, int]]) -> list[TakuzuSpec]:
    targets = blank_targets(args, len(sizes), DEFAULT_BLANK_FRACTION)
    return [TakuzuSpec(r, c, args.distinct, t, args.difficulty == "logic") for (r, c), t in zip(sizes, targets)]


def takuzu_command(args, specs) -> list[str]:
    return target_words(specs) + (["--distinct"] if args.distinct else [])
