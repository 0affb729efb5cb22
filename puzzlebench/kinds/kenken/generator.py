"""KenKen: a random Latin square, random cages and operations, clues repaired until unique.

How its puzzles are made, written into a generated set's SOURCE.md: :data:`PROCEDURE`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import PuzzleError
from ...toolkit.generation import (
    Generated,
    Oracle,
    neighbours,
    per_size,
    random_fill,
    random_spanning_tree,
)
from .puzzle import MAX_SIZE, KenKen, KenKenCage, combine

PROCEDURE = """KenKen: a random Latin square, random cages and operations, clues repaired until unique.

1. Latin square: the randomized backtracking of
   :func:`puzzlebench.toolkit.generation.random_fill` over the N rows and N columns.
2. Cages (:func:`random_cages`): the cells in random order; each cell not yet
   caged starts a cage of a random size 2..``max_cage`` that grows by random
   flood fill, adding a random uncaged orthogonal neighbour, until it has its
   size or cannot grow.  A cage stuck at one cell then stays a one-cell cage
   with probability 1/8, else joins a random neighbouring cage that has room, if
   there is one.  Digits may repeat in a cage (where no row or column forbids it).
3. Operations (:func:`random_operation`): a one-cell cage has none; a two-cell
   cage gets ``/`` with probability 1/2 when one digit divides the other, else
   ``-``, ``+`` or ``x`` with probabilities 2/5, 3/10, 3/10; a larger cage ``+``
   or ``x``, 1/2 each.  Targets come from the square.
4. Uniqueness (:func:`repair_until_unique`): while the search solver finds a
   second solution T, one cage on which T differs from the square is repaired:
   if some operation for its size that the cage has not carried yet gives T's
   digits a different result than the square's, it takes one of those
   operations at random; otherwise it is split in two along an edge of a random
   spanning tree of its cells (both sides connected, each with a random
   operation).  Either way T breaks a clue.  A cage carries each operation at
   most once and every split adds a cage, so the loop ends (one-cell cages act
   as givens: the all-singleton grid is unique).
"""

MIN_SIZE = 4
SINGLE_CELL_CHANCE = 1 / 8


@dataclass(frozen=True)
class KenKenSpec:
    """What to generate: an N x N KenKen (N = 4..9) with cages of at most ``max_cage`` cells."""

    n: int
    max_cage: int

    @classmethod
    def make(cls, n: int, max_cage: int) -> KenKenSpec:
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise PuzzleError(f"KenKen size {n} is outside {MIN_SIZE}..{MAX_SIZE}")
        if not 2 <= max_cage <= n:
            raise PuzzleError(f"--max-cage must be in 2..{n} for a {n}x{n} KenKen, got {max_cage}")
        return cls(n, max_cage)

    @property
    def key(self) -> tuple[int, ...]:
        return (self.n, self.n)

    @property
    def label(self) -> str:
        """The file-name stem of this kind of puzzle: ``kenken-06x06``."""
        return f"kenken-{self.n:02d}x{self.n:02d}"

    @property
    def parameters(self) -> dict:
        return {"size": f"{self.n}x{self.n}", "max cage": self.max_cage}


def random_cages(n: int, max_cage: int, rng: np.random.Generator) -> np.ndarray:
    """A random partition of the N x N grid into connected cages (module docstring, step 2):
    the cage number of every cell (flat, row-major)."""
    owner = np.full(n * n, -1)
    cages: list[list[int]] = []
    for start in rng.permutation(n * n).tolist():
        if owner[start] >= 0:
            continue
        size = int(rng.integers(2, max_cage + 1))
        cage = [start]
        owner[start] = len(cages)
        while len(cage) < size:
            frontier = sorted({nb for cell in cage for nb in neighbours(cell, n) if owner[nb] < 0})
            if not frontier:
                break
            cell = frontier[int(rng.integers(len(frontier)))]
            cage.append(cell)
            owner[cell] = len(cages)
        cages.append(cage)
    for k, cage in enumerate(cages):
        if len(cage) != 1 or rng.random() < SINGLE_CELL_CHANCE:
            continue
        hosts = sorted({int(owner[nb]) for nb in neighbours(cage[0], n) if len(cages[owner[nb]]) < max_cage})
        if hosts:
            host = hosts[int(rng.integers(len(hosts)))]
            cages[host].append(cage[0])
            owner[cage[0]] = host
            cages[k] = []
    renumber = np.cumsum([bool(c) for c in cages]) - 1
    return renumber[owner]


def operations_for(size: int, values) -> list[str]:
    """The operations a cage of ``size`` cells with these digits can carry (``/`` when one divides the other)."""
    if size == 1:
        return [""]
    if size == 2:
        return ["-", "+", "x"] + (["/"] if combine("/", values) is not None else [])
    return ["+", "x"]


def random_operation(values, rng: np.random.Generator) -> str:
    """An operation for a cage with these digits (module docstring, step 3)."""
    ops = operations_for(len(values), values)
    if len(values) == 2:
        if "/" in ops and rng.random() < 0.5:
            return "/"
        return ["-", "+", "x"][int(rng.choice(3, p=[0.4, 0.3, 0.3]))]
    return ops[int(rng.integers(len(ops)))]


def kenken_from_cages(owner: np.ndarray, ops: dict[int, str], solution: np.ndarray) -> KenKen:
    """The KenKen whose cages are the groups of equal ``owner`` numbers with operations ``ops``,
    targets computed from ``solution``."""
    n = solution.shape[0]
    flat = solution.ravel()
    cages = []
    for k in sorted(ops):
        cells = np.flatnonzero(owner == k)
        cages.append(KenKenCage(tuple((int(c) // n, int(c) % n) for c in cells), ops[k], combine(ops[k], flat[cells])))
    return KenKen(n, tuple(cages))


def split_cells(cells: list[int], n: int, rng: np.random.Generator) -> list[int]:
    """One side of a split of the connected cells ``cells`` along an edge of a random spanning tree."""
    order, subtree = random_spanning_tree(cells, n, rng)
    return subtree[order[1 + int(rng.integers(len(order) - 1))]]


def repair_until_unique(owner: np.ndarray, ops: dict[int, str], solution: np.ndarray, rng: np.random.Generator,
                        oracle: Oracle) -> tuple[KenKen, int, int]:
    """Repair clues until the KenKen is unique (module docstring, step 4): the puzzle, the number of
    operation changes and the number of splits."""
    n = solution.shape[0]
    owner, ops, flat = owner.copy(), dict(ops), solution.ravel()
    carried = {k: {op} for k, op in ops.items()}  # the operations each cage has had
    changes = splits = 0
    while True:
        puzzle = kenken_from_cages(owner, ops, solution)
        other = oracle.other_solution(puzzle, solution)
        if other is None:
            return puzzle, changes, splits
        differing = np.unique(owner[np.flatnonzero(other.ravel() != flat)])
        cage = int(differing[int(rng.integers(len(differing)))])
        cells = np.flatnonzero(owner == cage)
        mine, theirs = flat[cells], other.ravel()[cells]
        breaking = [op for op in operations_for(len(cells), mine)
                    if op not in carried[cage] and combine(op, theirs) != combine(op, mine)]
        if breaking:
            ops[cage] = breaking[int(rng.integers(len(breaking)))]
            carried[cage].add(ops[cage])
            changes += 1
            continue
        side = split_cells(cells.tolist(), n, rng)
        new = int(owner.max()) + 1
        owner[side] = new
        for k in (cage, new):
            ops[k] = random_operation(flat[owner == k], rng)
            carried[k] = {ops[k]}
        splits += 1


def generate_kenken(spec: KenKenSpec, rng: np.random.Generator, oracle: Oracle) -> Generated:
    """A unique KenKen for ``spec`` (module docstring); the certificate is the caller's."""
    n = spec.n
    idx = np.arange(n * n).reshape(n, n)
    solution = random_fill(np.concatenate([idx, idx.T]).tolist(), n * n, n, rng).reshape(n, n)
    owner = random_cages(n, spec.max_cage, rng)
    flat = solution.ravel()
    ops = {k: random_operation(flat[owner == k], rng) for k in range(int(owner.max()) + 1)}
    puzzle, changes, splits = repair_until_unique(owner, ops, solution, rng, oracle)
    notes = tuple(note for count, note in ((changes, f"{changes} operation change(s)"),
                                           (splits, f"{splits} cage split(s)")) if count)
    return Generated(puzzle, solution, notes)


DEFAULT_MAX_CAGE = 4
"""``generate kenken``'s largest cage when ``--max-cage`` is not given (at most N)."""


def kenken_specs(args, sizes: list[tuple[int, int]]) -> list[KenKenSpec]:
    cages = per_size(args.max_cage, len(sizes), "max-cage")
    return [KenKenSpec.make(n, min(DEFAULT_MAX_CAGE, n) if k is None else k) for (n, _), k in zip(sizes, cages)]


def kenken_command(args, specs) -> list[str]:
    return ["--max-cage", *(str(s.max_cage) for s in specs)]
