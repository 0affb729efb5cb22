"""KenKen (Calcudoku) as a validated, immutable data type.

An N x N grid (N = 1..9) is partitioned into cages; each cage has a target and an
operation.  Rules: every row and every column holds 1..N once each (a Latin square),
and the digits of each cage combine to its target under its operation:

* ``+``: they sum to the target; ``x``: their product is the target;
* ``-`` (two cells): the larger minus the smaller is the target;
* ``/`` (two cells): the larger divided by the smaller is the target;
* a one-cell cage has no operation: the cell holds the target.

Digits may repeat in a cage whose cells share no row or column.  Construction
checks what a user can get wrong and raises :class:`~puzzlebench.errors.PuzzleError`
naming the grid row concerned, so that a parser can point at the file line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar

import numpy as np

from ...errors import PuzzleError
from ...toolkit.regions import connected

MAX_SIZE = 9
"""The largest N: digits are single characters 1..9."""

OPERATIONS = ("+", "-", "x", "/")
"""The cage operations; a one-cell cage has the empty operation ``""``."""

TWO_CELL_OPERATIONS = ("-", "/")


@dataclass(frozen=True)
class KenKenCage:
    """A cage: its cells ``(row, col)``, its operation (one of :data:`OPERATIONS`, or ``""`` for a
    one-cell cage) and its target."""

    cells: tuple[tuple[int, int], ...]
    op: str
    target: int

    @property
    def label(self) -> str:
        """The clue as printed in the corner: ``12+``, ``3``."""
        return f"{self.target}{self.op}"


@cache
def is_product(target: int, cells: int, n: int) -> bool:
    """Whether ``target`` is a product of ``cells`` digits from 1..n (repeats allowed)."""
    if cells == 0:
        return target == 1
    return any(target % d == 0 and is_product(target // d, cells - 1, d) for d in range(min(n, target), 0, -1))


def combine(op: str, values) -> int | None:
    """The result of ``op`` on a cage's digits (None when ``-`` or ``/`` has no integer result, or
    the count of digits does not suit the operation)."""
    values = [int(v) for v in values]
    if op == "":
        return values[0] if len(values) == 1 else None
    if op == "+":
        return sum(values)
    if op == "x":
        return int(np.prod(values))
    if len(values) != 2:
        return None
    small, large = sorted(values)
    if op == "-":
        return large - small
    return large // small if small > 0 and large % small == 0 else None


def target_problem(op: str, size: int, target: int, n: int) -> str | None:
    """Why a cage of ``size`` cells with ``op`` cannot reach ``target`` in an n x n grid, or None
    (a necessary condition: the cells' row and column rules may still rule the target out)."""
    if op == "":
        return None if 1 <= target <= n else f"a one-cell cage holds a digit 1..{n}, not {target}"
    if op == "+":
        return None if size <= target <= size * n else f"{size} digits 1..{n} sum to {size}..{size * n}"
    if op == "x":
        return None if target >= 1 and is_product(target, size, n) else \
            f"{target} is no product of {size} digits 1..{n}"
    if op == "-":
        return None if 1 <= target <= n - 1 else f"two different digits 1..{n} differ by 1..{n - 1}"
    return None if 2 <= target <= n else f"of two different digits 1..{n} one is 2..{n} times the other"


@dataclass(frozen=True, eq=False)
class KenKen:
    """An N x N KenKen: ``cages`` partition the grid (see the module docstring for the rules).

    A cage may be given as a :class:`KenKenCage` or as a tuple ``(cells, op, target)``;
    cages are stored with their cells in row-major order.
    """

    n: int
    cages: tuple[KenKenCage, ...]
    name: str = ""
    puzzle: ClassVar[str] = "kenken"
    cage_index: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        n = self.n
        if not isinstance(n, (int, np.integer)) or not 1 <= n <= MAX_SIZE:
            raise PuzzleError(f"a KenKen is 1x1 to {MAX_SIZE}x{MAX_SIZE}, not {n}")
        cages = []
        for cage in self.cages:
            cells, op, target = (cage.cells, cage.op, cage.target) if isinstance(cage, KenKenCage) else cage
            cages.append(KenKenCage(tuple(sorted((int(r), int(c)) for r, c in cells)), str(op), int(target)))
        object.__setattr__(self, "cages", tuple(cages))
        owner = np.full((n, n), -1, dtype=np.int64)
        for k, cage in enumerate(self.cages):
            where = f"cage {k + 1} ({cage.label})"
            if not cage.cells:
                raise PuzzleError(f"{where} has no cells")
            for r, c in cage.cells:
                if not (0 <= r < n and 0 <= c < n):
                    raise PuzzleError(f"{where} has cell ({r + 1}, {c + 1}) outside the {n}x{n} grid")
                if owner[r, c] >= 0:
                    raise PuzzleError(f"cell ({r + 1}, {c + 1}) is in cage {owner[r, c] + 1} and in cage {k + 1}",
                                      row=r)
                owner[r, c] = k
            row, size = cage.cells[0][0], len(cage.cells)
            if not connected(cage.cells):
                raise PuzzleError(f"{where}: its cells are not orthogonally connected", row=row)
            if cage.op not in OPERATIONS + ("",):
                raise PuzzleError(f"{where}: operation {cage.op!r} is not one of {' '.join(OPERATIONS)}", row=row)
            if (size == 1) != (cage.op == ""):
                raise PuzzleError(f"{where}: a one-cell cage has a target and no operation, a larger cage "
                                  f"an operation; this one has {size} cell(s)", row=row)
            if cage.op in TWO_CELL_OPERATIONS and size != 2:
                raise PuzzleError(f"{where}: '{cage.op}' applies to two cells, not {size}", row=row)
            if problem := target_problem(cage.op, size, cage.target, n):
                raise PuzzleError(f"{where} cannot be met: {problem}", row=row)
        missing = np.argwhere(owner < 0)
        if len(missing):
            r, c = missing[0]
            raise PuzzleError(f"cell ({r + 1}, {c + 1}) is in no cage", row=int(r))
        owner.setflags(write=False)
        object.__setattr__(self, "cage_index", owner)

    @property
    def shape(self) -> tuple[int, int]:
        return self.n, self.n

    @property
    def num_givens(self) -> int:
        """One-cell cages: the cells the puzzle states outright."""
        return sum(1 for cage in self.cages if not cage.op)

    def units(self) -> np.ndarray:
        """Flat cell indices (row-major) of the rows, then the columns: shape (2N, N)."""
        idx = np.arange(self.n * self.n).reshape(self.n, self.n)
        return np.concatenate([idx, idx.T])

    def cage_cells(self) -> list[np.ndarray]:
        """The flat cell indices of each cage."""
        return [np.array([r * self.n + c for r, c in cage.cells], dtype=np.int64) for cage in self.cages]


def puzzle_key(puzzle: KenKen) -> tuple:
    """A hashable key equal for two KenKens exactly when they state the same puzzle (name and
    cage order ignored); :func:`puzzlebench.kinds.kind_key` puts the kind's name in front."""
    return (puzzle.n, frozenset((cage.cells, cage.op, cage.target) for cage in puzzle.cages))


def describe(puzzle: KenKen) -> str:
    """Size and cage figures of a puzzle, one line: ``6x6, 17 cages of 1..4 cells (+ 7, - 4, x 4, / 2)``."""
    sizes = [len(cage.cells) for cage in puzzle.cages]
    ops = ", ".join(f"{op} {sum(c.op == op for c in puzzle.cages)}" for op in OPERATIONS)
    return f"{puzzle.n}x{puzzle.n}, {len(sizes)} cages of {min(sizes)}..{max(sizes)} cells ({ops})"
