"""Fair measurement: shuffled run order from a recorded seed, warm-up, repeats, and the A/A controls.

The A/A controls register, through the entry-point group ``puzzlebench.formulations`` (as an
installed package would), an exact copy of Sudoku ``binary``, a copy with its rows and columns
permuted and a copy with one row repeated (a different hash and fingerprint, the same feasible set:
the identity grouping does not catch it, so its claims are tested), run them beside ``binary``
through ``puzzlebench batch`` and check that no claim separates them and that the exact copy times
like ``binary``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from puzzlebench.analysis.claims import findings
from puzzlebench.analysis.outcomes import instance_times, prepare_runs
from test_entry_points import cli, installed_plugin

from puzzlebench.run.batch import order_seed, run_job, run_order
from puzzlebench.run.jobs import Job
from puzzlebench.store.results import read_store

CONTROLS = '''
import numpy as np
from puzzlebench.model import Model
from puzzlebench.registry import formulation, get_formulation


@formulation("sudoku", "binary-copy", description="An exact copy of binary (A/A control).")
def binary_copy(puzzle):
    """The binary model (formulations/sudoku.py), built by the same code."""
    return get_formulation("sudoku", "binary").build(puzzle)


@formulation("sudoku", "binary-permuted", description="binary with its rows and columns permuted (A/A control).")
def binary_permuted(puzzle):
    """The binary model with its rows and columns in a fixed random order."""
    model = get_formulation("sudoku", "binary").build(puzzle)
    rng = np.random.default_rng(7)
    rows, cols = rng.permutation(model.num_rows), rng.permutation(model.num_cols)

    def decode(x):
        original = np.empty_like(x)
        original[cols] = x
        return model.decode(original)

    return Model(model.A[rows][:, cols], model.row_lower[rows], model.row_upper[rows], model.col_lower[cols],
                 model.col_upper[cols], model.integrality[cols], model.objective[cols], decode, model.offset)


@formulation("sudoku", "binary-repeated-row", description="binary with its first row repeated (A/A control).")
def binary_repeated_row(puzzle):
    """The binary model with its first row once more at the end: the same feasible set, another model."""
    model = get_formulation("sudoku", "binary").build(puzzle)
    rows = np.r_[np.arange(model.num_rows), 0]
    return Model(model.A[rows], model.row_lower[rows], model.row_upper[rows], model.col_lower, model.col_upper,
                 model.integrality, model.objective, model.decode, model.offset)
'''
ALIKE = ("binary", "binary-copy", "binary-permuted")
REPEATED_ROW = "binary-repeated-row"


def test_each_formulation_is_first_for_an_instance_in_about_1_in_k_jobs():
    """The first run of each instance, over many jobs: binary leads in about 1/k of them."""
    formulations = ("binary", "binary-reduced", "integer", "propagated", "cp-natural")
    firsts = []
    for chunk in range(400):
        job = Job("sudoku/top95", formulations, "highs", chunk=chunk, chunks=400, repeats=2)
        order = run_order(job, list(range(5)), order_seed(job))
        firsts += [next(f for v, f, _ in order if v == variant) for variant in range(5)]
    share = pd.Series(firsts).value_counts(normalize=True)
    assert set(share.index) == set(formulations)
    assert share.between(1 / 5 - 0.03, 1 / 5 + 0.03).all(), share.to_dict()


def test_the_order_is_a_shuffle_of_every_run_drawn_from_the_job_and_recorded():
    job = Job("sudoku/seed", ("binary", "binary-reduced", "integer-linked"), "highs", repeats=3, time_limit=20)
    order = run_order(job, ["p", "q"], order_seed(job))
    assert sorted(order) == sorted((v, f, r) for v in "pq" for f in job.formulations for r in range(3))
    assert [v for v, _, _ in order] == ["p"] * 9 + ["q"] * 9          # instance by instance
    assert order == run_order(job, ["p", "q"], order_seed(job))       # the same job, the same order
    assert order_seed(job) != order_seed(replace(job, seed=1)) != order_seed(replace(job, chunk=1, chunks=2))
    rows = [r for r in run_job(job, progress=False) if r.get("role") == "run"]
    assert [r["job_position"] for r in rows] == list(range(18))
    assert {r["order_seed"] for r in rows} == {order_seed(job)}
    assert [(r["instance"], r["formulation"], r["repeat"]) for r in rows] != sorted(
        (r["instance"], r["formulation"], r["repeat"]) for r in rows)
    assert all(len(r["model_hash"]) == 64 and r["load_average"] is not None for r in rows)


@pytest.fixture(scope="module")
def aa_runs(tmp_path_factory):
    """binary, its exact, permuted and repeated-row copies, 3 repeats on 24 top95 puzzles, through `batch`."""
    folder = tmp_path_factory.mktemp("aa")
    env = installed_plugin(folder, CONTROLS)
    out = folder / "aa.jsonl"
    job = Job("sudoku/top95", (*ALIKE, REPEATED_ROW), "highs", max_instances=24, repeats=3, time_limit=20)
    done = cli(env, "batch", "--job", job.to_json(), "-o", str(out))
    assert done.returncode == 0, done.stderr
    return read_store([out])


@pytest.mark.slow
def test_no_claim_separates_binary_from_its_copies(aa_runs):
    runs = prepare_runs(aa_runs)
    assert runs["verified"].all() and len(runs) == 4 * 24 * 3
    per_instance = instance_times(runs)
    grouped = findings(runs, per_instance, "time", 0.01)
    pairs = [c for c in grouped.claims if c.kind == "pairwise"]
    assert len(pairs) == 6 and {c.verdict for c in pairs if REPEATED_ROW not in (c.a, c.b)} == {"identical"}
    group = grouped.identity[0]
    assert len(grouped.identity) == 1 and not group["exact"]   # the permuted one: fingerprint only
    assert group["formulations"] == list(ALIKE)                # named by its first registered member
    # the repeated row evades the fingerprint: its claims are tested, and none finds a difference
    repeated = [c for c in pairs if REPEATED_ROW in (c.a, c.b)]
    assert len(repeated) == 3 and all(c.p_value is not None and c.n == 24 for c in repeated)
    assert {c.verdict for c in repeated} <= {"equivalent", "inconclusive"}, [c.text for c in repeated]
    fingerprints = runs.groupby(["instance", "formulation"])["model_fingerprint"].first().unstack()
    assert (fingerprints["binary"] != fingerprints[REPEATED_ROW]).all()
    exact = runs.groupby(["instance", "formulation"])["model_hash"].first().unstack()
    assert (exact["binary"] == exact["binary-copy"]).all() and (exact["binary"] != exact["binary-permuted"]).all()
    ungrouped = findings(runs, per_instance, "time", 0.01, group_identical=False)
    assert all(c.verdict not in ("faster", "slower") for c in ungrouped.claims), [
        c.text for c in ungrouped.claims if c.verdict in ("faster", "slower")]


@pytest.mark.slow
def test_the_exact_copy_times_like_binary_wherever_it_runs(aa_runs):
    """Geometric means over the (instance, repeat) pairs of copy / binary: build time and total time."""
    runs = prepare_runs(aa_runs).assign(total=lambda r: r["solver_time"] + r["build_time"])
    wide = runs.set_index(["instance", "repeat", "formulation"])[["build_time", "total"]].unstack("formulation")
    for measure in ("build_time", "total"):
        ratio = float(np.exp(np.log(wide[measure]["binary-copy"] / wide[measure]["binary"]).mean()))
        assert 0.8 <= ratio <= 1.25, (measure, ratio)
    firsts = runs.sort_values("job_position").groupby("instance")["formulation"].first()
    assert 0 < (firsts == "binary").sum() < len(firsts)           # binary is not always first
