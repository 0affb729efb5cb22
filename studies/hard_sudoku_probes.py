#!/usr/bin/env python3
"""Issue 16's one-off probes: the single solves behind studies/hard-sudoku-results.md's table
"One-off measurements" and the README's sentences on what did not help.

    python studies/hard_sudoku_probes.py --list            # the probes, one line each
    python studies/hard_sudoku_probes.py                   # every probe (about 20 minutes)
    python studies/hard_sudoku_probes.py norestart-frisch16-400s mrv-blank2

Each probe is one puzzle of a hard set (``index``: 0-based position in the set), a formulation,
SCIP options on top of ``base`` (a shipped configuration), a limit and a seed, plus two
experiments that are not shipped because they did not help:

- ``branching: smallest-row``: a PySCIPOpt branching rule that branches x = 1 / x = 0 on a free
  variable of the open set-partitioning row (all coefficients 1, both sides 1) with the fewest
  free variables: most-constrained-first on cells and on digit places alike;
- ``intersection_rows: true``: for every two units u, v sharing at least two cells and every
  digit k, the row sum_{u \\ v} x[c,k] - sum_{v \\ u} x[c,k] = 0 added to the model, so that
  row propagation does locked candidates at every node.

Each prints status, SCIP's solving time, nodes and, for the branching rule, its calls and seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

REPO = Path(__file__).resolve().parents[1]

from puzzlebench.checker import check
from puzzlebench.io.sets import get_set
from puzzlebench.model import rows_from_triplets
from puzzlebench.run.runner import build
from puzzlebench.solvers.configs import SHIPPED
from puzzlebench.solvers.scip import _apply_meta, _apply_params, _load_arrays

NO_RESTART = {"presolving/maxrestarts": 0, "propagating/vbounds/freq": -1}
PROBES = {  # name -> set, index, formulation, base, options, limit, seed, experiments
    "restarts-off-frisch6": ("sudoku/frisch25", 5, "propagated-subsets", "scip-cp", NO_RESTART, 60, 0, {}),
    "scip-cp-frisch6": ("sudoku/frisch25", 5, "propagated-subsets", "scip-cp", {}, 60, 0, {}),
    "no-conflicts-frisch6": ("sudoku/frisch25", 5, "propagated-subsets", "scip-cp",
                             {**NO_RESTART, "conflict/enable": False}, 60, 0, {}),
    "restart2000-frisch1": ("sudoku/frisch25", 0, "propagated-subsets", "scip-cp-norestart",
                            {"presolving/maxrestarts": 10, "conflict/restartnum": 2000}, 60, 0, {}),
    "up-first-frisch16": ("sudoku/frisch25", 15, "propagated-subsets", "scip-cp",
                          {**NO_RESTART, "nodeselection/childsel": "u"}, 60, 0, {}),
    "heuristics-frisch9": ("sudoku/frisch25", 8, "propagated-subsets", "scip-cp-norestart",
                           {"heuristics": "default"}, 60, 0, {}),
    "all-uips-frisch16": ("sudoku/frisch25", 15, "propagated-subsets", "scip-cp-norestart",
                          {"conflict/fuiplevels": -1}, 60, 0, {}),
    "short-conflicts-frisch16": ("sudoku/frisch25", 15, "propagated-subsets", "scip-cp-norestart",
                                 {"conflict/maxvarsfac": 0.05}, 60, 0, {}),
    "mrv-blank2": ("sudoku/blank65-36", 1, "propagated-subsets", "scip-cp-norestart", {}, 60, 0,
                   {"branching": "smallest-row"}),
    "mrv-blank3": ("sudoku/blank65-36", 2, "propagated-subsets", "scip-cp-norestart", {}, 60, 0,
                   {"branching": "smallest-row"}),
    "mrv-frisch16": ("sudoku/frisch25", 15, "propagated-subsets", "scip-cp-norestart", {}, 60, 0,
                     {"branching": "smallest-row"}),
    "intersections-blank3": ("sudoku/blank65-36", 2, "propagated-subsets", "scip-cp-norestart", {}, 60, 0,
                             {"intersection_rows": True}),
    "intersections-frisch16": ("sudoku/frisch25", 15, "propagated-subsets", "scip-cp-norestart", {}, 60, 0,
                               {"intersection_rows": True}),
    **{f"norestart-frisch16-seed{seed}": ("sudoku/frisch25", 15, "propagated-subsets", "scip-cp-norestart", {},
                                          60, seed, {}) for seed in (1, 2, 3)},
    **{f"norestart-blank2-seed{seed}": ("sudoku/blank65-36", 1, "propagated-subsets", "scip-cp-norestart", {},
                                        60, seed, {}) for seed in (1, 2, 3)},
    "norestart-frisch16-400s": ("sudoku/frisch25", 15, "propagated-subsets", "scip-cp-norestart", {}, 400, 0, {}),
}


def set_partitioning_rows(model) -> sp.csr_matrix:
    """The 0/1 incidence of the rows sum x = 1 whose coefficients are all 1."""
    A = model.A.tocsr()
    ones = np.add.reduceat(A.data == 1, A.indptr[:-1]) == np.diff(A.indptr)
    rows = np.flatnonzero((model.row_lower == 1) & (model.row_upper == 1) & ones & (np.diff(A.indptr) > 0))
    return sp.csr_matrix((A[rows] != 0).astype(float))


def intersection_rows(model, units: np.ndarray, cell_digit: np.ndarray):
    """The rows sum_{u \\ v} x[c,k] - sum_{v \\ u} x[c,k] = 0 for units sharing >= 2 cells
    (``cell_digit[j]`` = (cell, digit) of column j)."""
    ncells = int(units.max()) + 1
    digits = int(cell_digit[:, 1].max()) + 1
    x_index = np.full((ncells, digits), -1)
    x_index[cell_digit[:, 0], cell_digit[:, 1]] = np.arange(len(cell_digit))
    member = sp.csr_matrix((np.ones(units.size), (np.repeat(np.arange(len(units)), units.shape[1]), units.ravel())),
                           shape=(len(units), ncells))
    shared = sp.triu(member @ member.T, k=1).tocoo()
    row, col, val, nrows = [], [], [], 0
    for u, v in ((u, v) for u, v, common in zip(shared.row, shared.col, shared.data) if common >= 2):
        xu, xv = x_index[np.setdiff1d(units[u], units[v])], x_index[np.setdiff1d(units[v], units[u])]
        used = ((xu >= 0).any(axis=0) | (xv >= 0).any(axis=0)).nonzero()[0]
        rank = np.full(digits, -1)
        rank[used] = nrows + np.arange(len(used))
        for cols, sign in ((xu, 1.0), (xv, -1.0)):
            live = (cols >= 0) & (rank >= 0)[None, :]
            row.append(np.broadcast_to(rank, cols.shape)[live])
            col.append(cols[live])
            val.append(np.full(int(live.sum()), sign))
        nrows += len(used)
    return rows_from_triplets(np.concatenate(row), np.concatenate(col), np.concatenate(val), nrows,
                              model.num_cols, 0.0, 0.0)


def column_cells(model) -> np.ndarray:
    """(cell, digit) of every column of a candidate model, read back through its decoder."""
    pairs = []
    for j in range(model.num_cols):
        x = np.zeros(model.num_cols)
        x[j] = 1
        grid = np.asarray(model.decode(x)).ravel()
        cell = int(np.flatnonzero(grid)[0])
        pairs.append((cell, int(grid[cell]) - 1))
    return np.array(pairs)


def smallest_row_rule(rows: sp.csr_matrix, variables: list):
    import pyscipopt

    class SmallestRow(pyscipopt.Branchrule):
        """Branch on a free variable of the open set-partitioning row with the fewest free variables."""

        def __init__(self):
            self.index, self.calls, self.seconds = None, 0, 0.0

        def branchexecps(self, allowaddcons):
            start = time.perf_counter()
            scip = self.model
            if self.index is None:  # transformed variable index -> column
                self.index = {scip.getTransformedVar(v).getIndex(): j for j, v in enumerate(variables)}
            candidates, count, _ = scip.getPseudoBranchCands()
            ids = np.fromiter((self.index.get(v.getIndex(), -1) for v in candidates), np.int64, count)
            free = np.zeros(rows.shape[1])
            free[ids[ids >= 0]] = 1
            open_count = rows @ free
            open_count[open_count < 1.5] = np.inf
            best = int(np.argmin(open_count))
            self.seconds += time.perf_counter() - start
            if not np.isfinite(open_count[best]):
                return {"result": pyscipopt.SCIP_RESULT.DIDNOTRUN}
            cols = rows.indices[rows.indptr[best]:rows.indptr[best + 1]]
            var = candidates[int(np.flatnonzero(ids == next(int(c) for c in cols if free[c]))[0])]
            scip.chgVarLbNode(scip.createChild(1.0, 0.0), var, 1.0)
            scip.chgVarUbNode(scip.createChild(0.0, 0.0), var, 0.0)
            self.calls += 1
            return {"result": pyscipopt.SCIP_RESULT.BRANCHED}

        def branchexeclp(self, allowaddcons):
            return self.branchexecps(allowaddcons)

    return SmallestRow()


def run_probe(name: str, spec: tuple | None = None) -> dict:
    """Solve probe ``name`` (``spec``, in the shape of :data:`PROBES`' values, or ``PROBES[name]``)."""
    import pyscipopt
    set_name, index, formulation, base, options, limit, seed, experiments = spec or PROBES[name]
    puzzle = get_set(set_name).entries()[index].puzzle
    model = build(puzzle, formulation).model
    if experiments.get("intersection_rows"):
        model = model.with_rows(intersection_rows(model, puzzle.units(), column_cells(model)))
    scip = pyscipopt.Model()
    scip.hideOutput()
    settings = {**SHIPPED[base].options, **options, "limits/time": float(limit),
                "randomization/randomseedshift": seed, "randomization/permutationseed": seed}
    _apply_meta(scip, settings)
    _apply_params(scip, settings)
    variables = _load_arrays(scip, model)
    rule = None
    if experiments.get("branching") == "smallest-row":
        rule = smallest_row_rule(set_partitioning_rows(model), variables)
        scip.includeBranchrule(rule, "smallestrow", "fewest free variables first", priority=10**6, maxdepth=-1,
                               maxbounddist=1.0)
    scip.optimize()
    verified = None
    if scip.getNSols():
        solution = scip.getBestSol()
        x = np.round([solution[v] for v in variables])
        verified = not check(puzzle, np.asarray(model.decode(x)))
    return {"probe": name, "status": scip.getStatus(), "seconds": round(scip.getSolvingTime(), 2),
            "nodes": scip.getNTotalNodes(), "verified": verified, "rows": model.num_rows,
            "branch_calls": rule.calls if rule else None, "branch_seconds": round(rule.seconds, 2) if rule else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("probes", nargs="*", help="probe names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the probes and stop")
    args = parser.parse_args()
    if args.list:
        for name, (set_name, index, formulation, base, options, limit, seed, extra) in PROBES.items():
            print(f"{name}: {set_name}[{index}] {formulation} {base} {options or ''} {extra or ''} "
                  f"limit {limit} s seed {seed}")
        return
    unknown = [p for p in args.probes if p not in PROBES]
    if unknown:
        print(f"hard_sudoku_probes: unknown probe {unknown[0]!r} (see --list)", file=sys.stderr)
        sys.exit(2)
    for name in args.probes or PROBES:
        print(run_probe(name), flush=True)


if __name__ == "__main__":
    main()
