"""Uniqueness questions the generators ask, answered by solvers in one reusable process.

The questions and the certificate, written into a generated set's SOURCE.md: :data:`CERTIFICATE`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..checker import check
from ..errors import PuzzleError
from ..kinds import kind_of
from ..model import Model, Rows, rows_from_triplets
from ..run.runner import FOUND, build, configured, count_solutions
from ..run.worker import SolverProcess
from ..solvers.configs import resolve
from ..solvers.contract import SolveOptions
from ..toolkit.generation import Certificate

CERTIFICATE = """Uniqueness questions the generators ask, answered by solvers in one reusable process.

Two kinds of question, both about a puzzle whose solution ``S`` is known:

* *search* (many times, inside the generation loops): is there a solution that
  differs from ``S`` in at least one of some cells?  The certifying formulation
  of the puzzle gets one extra row saying so (:func:`differs_row`) and goes to
  the search solver (CP-SAT by default); infeasible means no.  Asking about the
  single cell just blanked, when the puzzle was unique before, is the cheapest
  exact test that the blank keeps it unique.
* *certificate* (once per written puzzle): ``runner.count_solutions`` with a MIP
  solver and no-good cuts, limit 2; exactly one solution, equal to ``S``, with
  status "optimal" certifies the puzzle.

Both use the puzzle's *certifying formulation*, one whose integer columns are
all binary and determined by the grid, so that a no-good over all of them cuts
off exactly one grid: ``binary`` for Sudoku; ``combinations`` for Killer and
Kakuro (a digit-set binary per cage or run: on a 9x9 Killer without givens it
solves about a hundred times faster than ``binary`` on both CP-SAT and HiGHS);
``xor-distinct`` for Takuzu, whose line-difference variables are the exact XOR
(``binary`` bounds them from one side only, so with distinct lines the same grid
comes back with other z and counts twice).  :func:`differs_row` relies on the
column layout these formulations document: x[c,k] at column N*c + k-1 (Sudoku,
Killer), x[w,k] at 9*w + k-1 for the w-th white cell in row-major order
(Kakuro), x[i,j] at i*C + j (Takuzu), each block first.
"""


def certifying_formulation(puzzle) -> str:
    """The certifying formulation of ``puzzle``'s kind (module docstring)."""
    kind = kind_of(puzzle)
    if kind.certifying_formulation is None:
        raise PuzzleError(f"puzzle kind {kind.name} has no generator, so no certifying formulation")
    return kind.certifying_formulation


def solution_columns(puzzle, solution: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For flat cell indices ``cells``, the model column that reads "cell c as in ``solution``" and the
    value (0 or 1) that column takes at ``solution`` (the kind's ``solution_columns``)."""
    certifying_formulation(puzzle)  # a kind without a generator: that error
    return kind_of(puzzle).solution_columns(puzzle, np.asarray(solution, dtype=np.int64), cells)


def open_cells(puzzle) -> np.ndarray:
    """Flat indices of the cells a solution fills: every cell, or the white cells of a Kakuro."""
    return kind_of(puzzle).open_cells(puzzle)


def differs_row(puzzle, model: Model, solution: np.ndarray, cells: np.ndarray | None = None) -> Rows:
    """The row "at least one of ``cells`` (flat indices; default all open cells) differs from ``solution``":

        sum_{j : s_j = 1} x_j - sum_{j : s_j = 0} x_j <= |{j : s_j = 1}| - 1

    over the columns j that read each cell's solution value (:func:`solution_columns`), s_j
    their value at ``solution``: the no-good cut of ``runner.no_good_cut`` restricted to them.
    """
    cells = open_cells(puzzle) if cells is None else np.asarray(cells, dtype=np.int64)
    columns, values = solution_columns(puzzle, solution, cells)
    coef = np.where(values == 1, 1.0, -1.0)
    return rows_from_triplets(np.zeros(len(columns), np.int64), columns, coef, 1, model.num_cols,
                              -np.inf, float(values.sum() - 1))


@dataclass
class UniquenessOracle:
    """Answers the generators' uniqueness questions (module docstring) in one solver process.

    Every solve runs single-threaded with seed 0, so the solution a search
    returns, and with it the generated puzzle, depends only on the inputs.  A
    search or certificate that ends without an answer (time limit, solver
    error) is a PuzzleError: guessing would make the output depend on the machine.
    """

    certify_solver: str = "highs"
    search_solver: str = "cpsat"
    time_limit: float = 120.0
    process: SolverProcess = field(default_factory=SolverProcess)

    def __post_init__(self):
        if resolve(self.certify_solver).kind != "mip":
            raise PuzzleError(f"the certificate needs a MIP solver; {self.certify_solver!r} is not one "
                              f"(try highs, cbc or scip)")
        resolve(self.search_solver)

    @property
    def options(self) -> SolveOptions:
        return SolveOptions(threads=1, seed=0, time_limit=self.time_limit)

    def other_solution(self, puzzle, solution: np.ndarray, cells: np.ndarray | None = None) -> np.ndarray | None:
        """A solution of ``puzzle`` differing from ``solution`` in one of ``cells`` (default: anywhere),
        or None when there is none."""
        formulation = certifying_formulation(puzzle)
        model = build(puzzle, formulation).model
        model = model.with_rows(differs_row(puzzle, model, solution, cells))
        config, options = configured(self.search_solver, self.options)
        result = self.process.solve(config.adapter, model, options)
        if result.status == "infeasible":
            return None
        if result.status not in FOUND or result.x is None:
            raise PuzzleError(f"a uniqueness search on {self.search_solver} ended with status {result.status} "
                              f"({result.message or 'no message'}); raise --time-limit")
        grid = np.asarray(model.decode(result.x), dtype=np.int64)
        if violations := check(puzzle, grid):
            raise RuntimeError(f"{self.search_solver} returned an invalid grid: {violations[0]}")
        return grid

    def certify(self, puzzle, solution: np.ndarray) -> Certificate:
        """Prove with the MIP solver and no-good cuts that ``solution`` is the puzzle's only solution."""
        formulation = certifying_formulation(puzzle)
        count, grids, status = count_solutions(puzzle, formulation, self.certify_solver, 2, self.options,
                                               self.process)
        if status != "optimal":
            raise PuzzleError(f"the uniqueness certificate on {self.certify_solver} ended with status "
                              f"{status}; raise --time-limit")
        if count != 1 or not np.array_equal(grids[0], solution):
            raise RuntimeError(f"{self.certify_solver} found {count} solution(s) of a generated puzzle "
                               "the search solver had found unique")
        config = resolve(self.certify_solver)
        return Certificate(config.name, config.info.version(), formulation)

    def close(self) -> None:
        self.process.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
