"""Record the solver logs of this folder: ``python tests/data/logs/record.py [solver ...]``.

Each log is ``SolverResult.log`` of one solve through the adapter (what the adapters
parse), written unchanged to ``<solver>/<name>.log``.  The models are the project's own
(README.md of this folder): the first ``sudoku/hardest`` puzzle whose propagated model
still needs search, binary formulation; the seed Killer Sudoku, binary; the 4x4 Sudoku of
``tests/infeasible_puzzles.py``, binary; for the commercial solvers also the first
``sudoku/janko16`` puzzle, binary (4,096 columns: over each free licence, a ``skipped`` run).
One thread, seed 0, 30 s limit.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))  # the repository, for tests.infeasible_puzzles

from puzzlebench import registry
from puzzlebench.io import read_puzzle
from puzzlebench.io.sets import get_set
from puzzlebench.run.runner import build
from puzzlebench.solvers.contract import SolveOptions
from tests.infeasible_puzzles import SEED_KILLER, infeasible_puzzles

SIZE_LIMITED = ("gurobi", "xpress", "cplex", "copt")


def models(solver: str) -> dict:
    """The models recorded for ``solver``, by log name."""
    searched = next(e.puzzle for e in get_set("sudoku/hardest").entries()
                    if not build(e.puzzle, "propagated").model.presolve_info["solved_in_preprocessing"])
    built = {"hardest-binary": build(searched, "binary").model,
             "killer-seed-binary": build(read_puzzle(SEED_KILLER).puzzle, "binary").model,
             "infeasible-sudoku-binary": build(infeasible_puzzles()["sudoku"], "binary").model}
    if solver in SIZE_LIMITED:
        built["janko16-binary"] = build(get_set("sudoku/janko16").entries()[0].puzzle, "binary").model
    return built


def main(names: list[str]) -> None:
    for name in names or [info.name for info in registry.solvers()]:
        folder = HERE / name
        folder.mkdir(exist_ok=True)
        for log_name, model in models(name).items():
            result = registry.get_solver(name).solve(model, SolveOptions(time_limit=30, threads=1, seed=0))
            with open(folder / f"{log_name}.log", "w", encoding="utf-8", newline="") as out:
                out.write(result.log)
            print(name, log_name, result.status, result.nodes, result.lp_iterations, result.presolved_rows,
                  result.presolved_cols, result.root_lp_time)


if __name__ == "__main__":
    main(sys.argv[1:])
