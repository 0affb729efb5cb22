"""What the kinds' generators share: the result type, the blank target, the dig-out loop, a random fill,
and what they ask of the uniqueness search (:class:`Oracle`, which
:class:`puzzlebench.generators.UniquenessOracle` answers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..errors import PuzzleError


class Oracle(Protocol):
    """What a generator asks of the uniqueness search."""

    def other_solution(self, puzzle, solution: np.ndarray, cells: np.ndarray | None = None) -> np.ndarray | None:
        """A solution of ``puzzle`` other than ``solution`` (differing from it in one of ``cells``, when
        given), or None when there is none."""


@dataclass(frozen=True)
class Certificate:
    """How a generated puzzle was certified unique."""

    solver: str
    solver_version: str
    formulation: str


@dataclass(frozen=True)
class Generated:
    """A generated puzzle, its unique solution, remarks on how it came out (a missed target,
    repairs) and, once certified, the certificate of its uniqueness."""

    puzzle: object
    solution: np.ndarray
    notes: tuple[str, ...] = ()
    certificate: Certificate | None = None


@dataclass(frozen=True)
class BlankTarget:
    """How far to dig: ``clues`` cells left given, or a ``blank_fraction`` of the cells blank.

    Exactly one is set; ``blank_fraction`` 1 means "as far as uniqueness allows"
    (a minimal puzzle).
    """

    clues: int | None = None
    blank_fraction: float | None = None

    def __post_init__(self):
        if (self.clues is None) == (self.blank_fraction is None):
            raise PuzzleError("give either a clue count or a blank fraction")
        if self.clues is not None and self.clues < 0:
            raise PuzzleError(f"--clues must be at least 0, got {self.clues}")
        if self.blank_fraction is not None and not 0 < self.blank_fraction <= 1:
            raise PuzzleError(f"--blank-fraction must be in (0, 1], got {self.blank_fraction:g}")

    def blanks(self, cells: int) -> int:
        """The number of blanks to aim at in a grid of ``cells`` cells."""
        if self.clues is not None:
            if self.clues > cells:
                raise PuzzleError(f"--clues {self.clues} is more than the {cells} cells of the grid")
            return cells - self.clues
        return round(self.blank_fraction * cells)

    def describe(self) -> str:
        return f"clues {self.clues}" if self.clues is not None else f"blank fraction {self.blank_fraction:g}"


def dig(solution: np.ndarray, blank: int, order: np.ndarray, target_blanks: int, *,
        make_puzzle: Callable[[np.ndarray], object], solved_by_logic: Callable[[np.ndarray], bool],
        forced: Callable[[np.ndarray, int, int], bool], oracle: Oracle | None) -> np.ndarray:
    """Blank cells of the full grid ``solution`` in ``order`` while the puzzle stays unique.

    Stops once ``target_blanks`` cells are blank.  Returns the givens grid,
    ``blank`` in the blank cells.  Two passes over ``order``:

    1. Logic: cells are blanked in batches along ``order``, a batch kept only if
       ``solved_by_logic(givens)`` (propagation alone fills the whole grid,
       hence the puzzle is unique).  A kept batch doubles the next batch's
       size, a refused one is retried at half its size, and a refused single
       cell stays given.  Only this pass runs when ``oracle`` is None.
    2. Uniqueness: the cells pass 1 left given, one by one in ``order``, each
       blank kept if the cell can hold no other value, which (the puzzle being
       unique before) is exactly when the puzzle stays unique.  Cheap logic,
       ``forced(givens, cell, value)``, may prove it; otherwise the oracle's
       search over that one cell decides.
    """
    givens = solution.copy()
    flat, values = givens.reshape(-1), solution.reshape(-1)
    order = order.tolist()
    blanks, start, size = 0, 0, 1
    still_given = []
    while start < len(order) and blanks < target_blanks:
        batch = order[start:start + min(size, target_blanks - blanks)]
        flat[batch] = blank
        if solved_by_logic(givens):
            blanks += len(batch)
            start += len(batch)
            size *= 2
        else:
            flat[batch] = values[batch]
            if len(batch) == 1:
                still_given.append(batch[0])
                start += 1
            size = max(1, len(batch) // 2)
    if oracle is None:
        return givens
    for cell in still_given:
        if blanks >= target_blanks:
            break
        flat[cell] = blank
        if (forced(givens, cell, int(values[cell]))
                or oracle.other_solution(make_puzzle(givens), solution, np.array([cell])) is None):
            blanks += 1
        else:
            flat[cell] = values[cell]
    return givens


def shortfall_note(blanks: int, target: int, cells: int, what: str) -> tuple[str, ...]:
    """A note when digging stopped at a minimal puzzle before reaching a target below all ``cells``."""
    if blanks >= target or target >= cells:
        return ()
    return (f"minimal at {blanks} blank {what}, short of the target {target}",)


def groups_of_cells(groups: list[list[int]], cells: int) -> list[list[int]]:
    """For each of ``cells`` cells, the numbers of the groups (lists of cells) holding it."""
    of_cell: list[list[int]] = [[] for _ in range(cells)]
    for g, members in enumerate(groups):
        for member in members:
            of_cell[member].append(g)
    return of_cell


def random_fill(groups: list[list[int]], cells: int, digits: int, rng: np.random.Generator,
                max_nodes: int = 100_000) -> np.ndarray:
    """Digits 1..``digits`` for ``cells`` cells, distinct within every group of ``groups``, at random.

    Randomized depth-first search: the cell with the fewest digits left first,
    its digits in random order.  A search that places more than ``max_nodes``
    digits restarts (with the same generator, so deterministically).  Returns
    the flat array of digits.
    """
    cell_groups = groups_of_cells(groups, cells)
    for _ in range(100):
        if (grid := _fill_search(cell_groups, len(groups), digits, rng, max_nodes)) is not None:
            return np.array(grid, np.int64)
    raise PuzzleError(f"found no fill of {cells} cells with distinct digits 1..{digits} per group "
                      "in 100 randomized searches")


def _fill_search(cell_groups: list[list[int]], groups: int, digits: int, rng: np.random.Generator,
                 max_nodes: int) -> list[int] | None:
    """One search of :func:`random_fill`: the digits, or None past ``max_nodes`` placements."""
    cells, full = len(cell_groups), (1 << digits) - 1
    grid, used, nodes = [0] * cells, [0] * groups, 0

    def set_digit(cell: int, digit: int) -> None:
        """Place ``digit`` in an empty cell, or (``digit`` 0) empty it."""
        for g in cell_groups[cell]:
            used[g] ^= 1 << ((grid[cell] or digit) - 1)
        grid[cell] = digit

    def most_constrained() -> tuple[int, int] | None:
        """The empty cell with the fewest digits left, and those digits as a bitmask; None when full."""
        best, best_mask, best_count = None, 0, digits + 1
        for c in range(cells):
            if grid[c]:
                continue
            mask = full
            for g in cell_groups[c]:
                mask &= ~used[g]
            count = mask.bit_count()
            if count < best_count:
                best, best_mask, best_count = c, mask, count
                if count <= 1:
                    break
        return None if best is None else (best, best_mask)

    stack: list[tuple[int, list[int]]] = []  # (cell, digits still to try there)
    while (found := most_constrained()) is not None:
        if nodes > max_nodes:
            return None
        cell, mask = found
        stack.append((cell, rng.permutation([d for d in range(1, digits + 1) if mask >> (d - 1) & 1]).tolist()))
        while stack:
            cell, left = stack[-1]
            if grid[cell]:
                set_digit(cell, 0)
            if left:
                set_digit(cell, left.pop(0))
                nodes += 1
                break
            stack.pop()
        else:
            raise PuzzleError(f"no fill of {cells} cells with distinct digits 1..{digits} per group exists")
    return grid


def per_size(values: list | None, sizes: int, option: str, default=None) -> list:
    """One value per size: ``values`` as given (one per size), repeated (one for all), or the default."""
    if values is None:
        return [default] * sizes
    if len(values) == 1:
        return values * sizes
    if len(values) != sizes:
        raise PuzzleError(f"--{option} takes one value or one per size ({sizes}), got {len(values)}")
    return values


def blank_targets(args, count: int, default_fraction: float) -> list[BlankTarget]:
    """``--clues`` or ``--blank-fraction`` (default ``default_fraction``), one per size (Sudoku and Takuzu)."""
    if args.clues is not None:
        return [BlankTarget(clues=k) for k in per_size(args.clues, count, "clues")]
    fractions = per_size(args.blank_fraction, count, "blank-fraction", default_fraction)
    return [BlankTarget(blank_fraction=f) for f in fractions]


def target_words(specs) -> list[str]:
    """``--clues``/``--blank-fraction`` and ``--difficulty`` of the canonical command (Sudoku and Takuzu)."""
    if specs[0].target.clues is not None:
        words = ["--clues", *(str(s.target.clues) for s in specs)]
    else:
        words = ["--blank-fraction", *(f"{s.target.blank_fraction:g}" for s in specs)]
    return words + ["--difficulty", "logic" if specs[0].logic_only else "unique"]


def neighbours(cell: int, n: int) -> list[int]:
    """The flat indices of the orthogonal neighbours of flat cell ``cell`` in an n x n grid."""
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def random_spanning_tree(cells: list[int], n: int, rng: np.random.Generator) -> tuple[list[int], dict[int, list[int]]]:
    """A random spanning tree of the connected flat cells ``cells`` (of an n x n grid), grown from a
    random root: the cells in the order the tree reached them (the root first) and each cell's subtree
    (itself and the cells below it); cutting the edge above cell c splits off ``subtree[c]``."""
    inside = set(cells)
    root = cells[int(rng.integers(len(cells)))]
    parent, order, frontier = {root: None}, [root], [root]
    while frontier:
        cell = frontier.pop(int(rng.integers(len(frontier))))
        for nb in neighbours(cell, n):
            if nb in inside and nb not in parent:
                parent[nb] = cell
                order.append(nb)
                frontier.append(nb)
    subtree = {c: [c] for c in cells}
    for cell in reversed(order[1:]):
        subtree[parent[cell]] += subtree[cell]
    return order, subtree

