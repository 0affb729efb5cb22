"""The scip-alldiff configuration: its all-different propagation (puzzlebench/solvers/scip_alldiff.py)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.io.sets import get_set
from puzzlebench.model import Model, rows_from_triplets
from puzzlebench.run.runner import build, run
from puzzlebench.run.worker import SolverProcess
from puzzlebench.solvers.scip_alldiff import ValueGraph
from puzzlebench.solvers.contract import SolveOptions

ROOT = Path(__file__).resolve().parents[1]


def one_hot_model(domains: np.ndarray) -> Model:
    """y_i = sum_v (v+1) b_iv with b_iv fixed to 0 outside ``domains[i]``, the y declared all-different."""
    items, values = domains.shape
    nb = items * values
    item, value = np.divmod(np.arange(nb), values)
    rows = rows_from_triplets(np.concatenate([item, np.arange(items)]), np.concatenate([np.arange(nb), nb + np.arange(items)]),
                              np.concatenate([-(value + 1.0), np.ones(items)]), items, nb + items, 0.0, 0.0)
    upper = np.concatenate([domains.ravel().astype(float), np.full(items, values)])
    return Model.from_rows([rows], col_lower=np.concatenate([np.zeros(nb), np.ones(items)]), col_upper=upper,
                           integrality=np.ones(nb + items, bool), decode=lambda x: x,
                           all_different=[nb + np.arange(items)])


@pytest.mark.parametrize("seed", range(25))
def test_matching_keeps_exactly_the_edges_of_some_assignment(seed):
    rng = np.random.default_rng(seed)
    items, values = int(rng.integers(2, 6)), int(rng.integers(2, 7))
    domains = rng.random((items, values)) < 0.5
    graph = ValueGraph(one_hot_model(domains))
    alive = domains[graph.left, (graph.value - 1).astype(int)]
    used = np.zeros_like(domains)
    for choice in itertools.permutations(range(values), items) if items <= values else []:
        if domains[np.arange(items), choice].all():
            used[np.arange(items), choice] = True
    keep = graph.supported(alive)
    if not used.any():
        assert keep is None
        return
    assert (keep == used[graph.left, (graph.value - 1).astype(int)]).all()


def test_handler_prunes_and_saves_nodes_on_a_hard_9x9():
    puzzle = next(e.puzzle for e in get_set("sudoku/hardest").entries()
                  if not build(e.puzzle, "propagated-alldiff").model.presolve_info["solved_in_preprocessing"])
    options = SolveOptions(time_limit=30, seed=0)
    with SolverProcess() as process:
        plain = run(puzzle, "propagated-alldiff", "scip-cp", options, process=process)
        handled = run(puzzle, "propagated-alldiff", "scip-alldiff", options, process=process)
    assert handled.status == "optimal" and handled.verified
    assert int(re.search(r"(\d+) values removed", handled.message)[1]) > 0
    assert handled.nodes <= plain.nodes
