"""Model identity: the structural hash and the permutation-invariant fingerprint of what a solver reads."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from puzzlebench.io import read_puzzle
from puzzlebench.io.sets import get_set
from puzzlebench.model import Model
from puzzlebench.run.runner import build, run
from puzzlebench.solvers.contract import SolveOptions

ROOT = Path(__file__).resolve().parents[1]
SEED_SUDOKU = ROOT / "instances/sudoku/seed/matlab_cleve.txt"


def permuted(model: Model, seed: int = 1) -> Model:
    """``model`` with its rows and columns in a random order (the same MILP)."""
    rng = np.random.default_rng(seed)
    rows, cols = rng.permutation(model.num_rows), rng.permutation(model.num_cols)
    return Model(model.A[rows][:, cols], model.row_lower[rows], model.row_upper[rows], model.col_lower[cols],
                 model.col_upper[cols], model.integrality[cols], model.objective[cols], model.decode, model.offset)


@pytest.fixture(scope="module")
def binary():
    return build(read_puzzle(SEED_SUDOKU).puzzle, "binary").model


def test_the_same_model_built_twice_has_one_hash_and_fingerprint(binary):
    again = build(read_puzzle(SEED_SUDOKU).puzzle, "binary").model
    assert binary.identity() == again.identity()
    assert len(binary.identity().hash) == len(binary.identity().fingerprint) == 64


def test_the_hash_reads_the_canonical_arrays(binary):
    coo = binary.A.tocoo()
    # the same matrix with an explicit zero, a coefficient split in two and the entries reordered
    rows = np.concatenate([coo.row[::-1], [0, 0]])
    cols = np.concatenate([coo.col[::-1], [coo.col[0], 5]])
    data = np.concatenate([coo.data[::-1], [0.0, 0.0]])
    data[len(coo.data) - 1] = 0.5
    rows, cols, data = np.append(rows, coo.row[0]), np.append(cols, coo.col[0]), np.append(data, 0.5)
    messy = replace(binary, A=sp.csr_matrix((data, (rows, cols)), shape=binary.A.shape))
    assert messy.identity() == binary.identity()
    assert replace(binary, row_lower=binary.row_lower - 0.0 * -1).identity() == binary.identity()  # -0.0 is 0.0


@pytest.mark.parametrize("change", ["coefficient", "row bound", "column bound", "integrality", "objective",
                                    "offset"])
def test_every_array_a_solver_reads_is_in_the_hash_and_the_fingerprint(binary, change):
    A = binary.A.copy()
    if change == "coefficient":
        A.data[0] = 2.0
    edits = {"coefficient": {"A": A},
             "row bound": {"row_lower": np.where(np.arange(binary.num_rows) == 0, 0.0, binary.row_lower)},
             "column bound": {"col_upper": np.where(np.arange(binary.num_cols) == 3, 0.0, binary.col_upper)},
             "integrality": {"integrality": np.arange(binary.num_cols) != 7},
             "objective": {"objective": np.arange(binary.num_cols) == 2},
             "offset": {"offset": 1.0}}[change]
    other = replace(binary, **edits).identity()
    assert other.hash != binary.identity().hash
    assert other.fingerprint != binary.identity().fingerprint


def test_the_fingerprint_ignores_the_order_of_rows_and_columns_and_the_hash_does_not(binary):
    for seed in (1, 2, 3):
        shuffled = permuted(binary, seed).identity()
        assert shuffled.fingerprint == binary.identity().fingerprint
        assert shuffled.hash != binary.identity().hash


def test_different_formulations_have_different_fingerprints():
    puzzle = read_puzzle(SEED_SUDOKU).puzzle
    names = ["binary", "binary-reduced", "binary-symbreak", "integer", "integer-linked", "propagated"]
    fingerprints = {build(puzzle, name).model.identity().fingerprint for name in names}
    assert len(fingerprints) == len(names)


def test_the_all_different_declarations_count_only_for_a_solver_that_reads_them():
    puzzle = read_puzzle(SEED_SUDOKU).puzzle
    integer, natural = (build(puzzle, name).model for name in ("integer", "cp-natural"))
    assert integer.identity() == natural.identity()              # MIP solvers read the same rows
    assert integer.identity(True) != natural.identity(True)      # CP-SAT gets AddAllDifferent instead
    options = SolveOptions(time_limit=1)  # the identity is recorded whatever the solve's outcome
    records = {(f, s): run(puzzle, f, s, options) for f in ("integer", "cp-natural") for s in ("highs", "cpsat")}
    assert records["integer", "highs"].model_hash == records["cp-natural", "highs"].model_hash
    assert records["integer", "cpsat"].model_hash != records["cp-natural", "cpsat"].model_hash
    assert all(len(r.model_fingerprint) == 64 for r in records.values())


def test_takuzu_janko_formulations_without_distinct_lines_are_one_model_on_every_puzzle():
    """The issue's case: on takuzu/janko these five formulations build the same arrays."""
    same = ["binary", "xor-distinct", "cp-natural", "integer-encoding", "lazy-distinct"]
    for entry in get_set("takuzu/janko").entries():
        hashes = {build(entry.puzzle, name).model.identity(True).hash for name in same}
        assert len(hashes) == 1, entry.name
        assert build(entry.puzzle, "propagated").model.identity(True).hash not in hashes


def test_a_skipped_run_has_no_model_identity():
    kakuro = read_puzzle(ROOT / "instances/kakuro/seed/fjmc_blog2026.txt").puzzle
    from puzzlebench.run.runner import skipped_record
    record = skipped_record(kakuro, "binary", "highs", SolveOptions(), None, "not made")
    assert (record.model_hash, record.model_fingerprint) == ("", "")
