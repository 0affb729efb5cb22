"""puzzlebench.analysis: statistics against hand-computed values, and every output from synthetic stores."""

from __future__ import annotations

import json
import math

import matplotlib
import numpy as np
import pandas as pd
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest
from puzzlebench.analysis import run_analysis
from puzzlebench.analysis.claims import wilcoxon_table
from puzzlebench.analysis.figures import FIGURE_KINDS
from puzzlebench.analysis.formatting import markdown_table
from puzzlebench.analysis.latex import Column, TableSpec, latex_document_table
from puzzlebench.analysis.outcomes import instance_times, prepare_runs
from puzzlebench.analysis.report import by_set_section
from puzzlebench.analysis.stats import (
    holm,
    performance_profile,
    performance_ratios,
    power_law_fit,
    shifted_geometric_mean,
    virtual_best,
)
from puzzlebench.analysis.tables import (
    best_vs_reference_by_set,
    best_vs_reference_hardest,
    best_vs_reference_table,
    configuration_table,
    hardest_instances,
    ratio_table,
    scaling_omissions,
    scaling_runs,
    scaling_table,
    set_configuration_table,
)
from scipy.stats import wilcoxon

from puzzlebench.cli import main
from puzzlebench.store.results import frame_from_rows, table_from_rows

matplotlib.use("Agg")

PROVENANCE = {"puzzlebench_version": "0.1.0", "git_commit": "abc123", "python_version": "3.11.9",
              "cpu_model": "Test CPU @ 3.0GHz", "cpu_count": 8, "hostname": "testhost", "platform": "Linux-x86_64",
              "solver_versions": json.dumps({"highs": "1.7.2", "cpsat": "9.10"})}
TIME_LIMIT = 10.0


def run_row(**fields) -> dict:
    """One run with every column of the results store; ``fields`` override the defaults."""
    row = {"instance": "p0", "puzzle": "sudoku", "formulation": "binary", "solver": "highs",
           "solver_version": "1.7.2", "seed": 0, "threads": 1, "time_limit": TIME_LIMIT, "status": "optimal",
           "message": "", "wall_time": 1.0, "solver_time": 0.9, "build_time": 0.1, "nodes": 0,
           "lp_iterations": 10, "primal_bound": 0.0, "dual_bound": 0.0, "rows": 100, "cols": 200,
           "nonzeros": 800, "presolved_rows": 50, "presolved_cols": 80, "root_solved": True,
           "solution": [[1]], "verified": True, "violations": [], "rounds": 1,
           "instance_set": "sudoku/ladder", "date": "2024-05-01T10:00:00+00:00", "size": "9x9", "givens": 30,
           "permutation": 0, "reference_match": True, **PROVENANCE}
    row.update(fields)
    return row


def store_of(rows: list[dict]) -> pd.DataFrame:
    """The results store of ``rows``, as the analysis reads it (outcomes decided)."""
    return frame_from_rows(rows)


def write_store(rows: list[dict], path) -> None:
    pq.write_table(table_from_rows(rows), path)


def timed(time: float, **fields) -> dict:
    """A run whose solver_time + build_time is ``time`` (build 0.1 s when time allows)."""
    build = min(0.1, time / 2)
    return run_row(solver_time=time - build, build_time=build, **fields)


def synthetic_runs() -> list[dict]:
    """2 puzzles x 2 formulations x 2 solvers x 3 sizes x 2 permutations x 2 seeds = 96 runs.

    Time grows as n^3 (highs) or n^2 (cpsat) with seeded noise; integer/highs hits
    the time limit on the largest sudoku, and one binary/highs sudoku run is wrong.
    """
    rng = np.random.default_rng(7)
    base = {("binary", "highs"): 0.02, ("integer", "highs"): 0.05, ("binary", "cpsat"): 0.01,
            ("integer", "cpsat"): 0.015}
    rows = []
    for puzzle, sizes in {"sudoku": ["4x4", "9x9", "16x16"], "takuzu": ["6x6", "8x8", "10x10"]}.items():
        for (formulation, solver), scale in base.items():
            for index, size in enumerate(sizes):
                n = int(size.split("x")[0])
                for permutation in (0, 1):
                    for seed in (0, 1):
                        total = scale * n ** (3.0 if solver == "highs" else 2.0) / 16 * rng.lognormal(0, 0.2)
                        timed_out = total >= TIME_LIMIT
                        nodes = int(n ** 2 * rng.integers(1, 4))
                        rows.append(run_row(
                            instance=f"{size}.txt#{index}", puzzle=puzzle, formulation=formulation, solver=solver,
                            solver_version="1.7.2" if solver == "highs" else "9.10", seed=seed,
                            status="time_limit" if timed_out else "optimal", wall_time=min(total, TIME_LIMIT),
                            solver_time=min(total * 0.9, TIME_LIMIT), build_time=total * 0.1, nodes=nodes,
                            lp_iterations=nodes * 20, rows=4 * n ** 3, cols=n ** 3, nonzeros=16 * n ** 3,
                            presolved_rows=n ** 3 if solver == "highs" else None,
                            presolved_cols=n ** 2 if solver == "highs" else None,
                            root_solved=nodes < 100 and not timed_out, verified=None if timed_out else True,
                            solution=None if timed_out else [[1]], instance_set=f"{puzzle}/ladder",
                            size=size, permutation=permutation, date=f"2024-05-0{1 + seed}T10:00:00+00:00"))
    wrong = next(r for r in rows if (r["puzzle"], r["formulation"], r["solver"]) == ("sudoku", "binary", "highs"))
    wrong.update(verified=False, violations=["row 1 repeats 3"])
    return rows


# --- statistics ---------------------------------------------------------------------------------

def test_sgm_of_1_2_4():
    assert shifted_geometric_mean([1, 2, 4], 0) == pytest.approx(2.0)
    # shift 1: (2 * 3 * 5) ** (1/3) - 1
    assert shifted_geometric_mean([1, 2, 4], 1) == pytest.approx(30 ** (1 / 3) - 1)
    assert shifted_geometric_mean([1, 2, 4], 10) == pytest.approx((11 * 12 * 14) ** (1 / 3) - 10)
    assert shifted_geometric_mean([1, np.nan, 4], 0) == pytest.approx(2.0)
    assert np.isnan(shifted_geometric_mean([], 1))


def test_unsolved_and_wrong_runs_count_at_the_time_limit():
    runs = prepare_runs(store_of([
        timed(1.0, instance="a"),
        timed(2.0, instance="b"),
        timed(8.3, instance="c", status="time_limit", verified=None, time_limit=8.0),
        timed(0.5, instance="d", verified=False, time_limit=8.0),        # wrong grid: unsolved
        timed(9.0, instance="e", time_limit=8.0),                        # solved just over: capped
        timed(0.25, instance="f", status="infeasible", verified=None),   # an infeasible verdict is solved
    ]))
    assert runs["solved"].tolist() == [True, True, False, False, True, True]
    assert runs["wrong"].tolist() == [False, False, False, True, False, False]
    assert runs["time"].tolist() == pytest.approx([1.0, 2.0, 8.0, 8.0, 8.0, 0.25])
    table = configuration_table(runs, shifts=(0, 1))
    row = table.iloc[0]
    assert (row["runs"], row["solved"], row["time_limit"], row["wrong"], row["error"]) == (6, 4, 1, 1, 0)
    assert row["time_sgm_s0"] == pytest.approx((1 * 2 * 8 * 8 * 8 * 0.25) ** (1 / 6))
    assert row["time_sgm_s1"] == pytest.approx((2 * 3 * 9 * 9 * 9 * 1.25) ** (1 / 6) - 1)


def test_wall_measure_adds_build_time_to_wall_time():
    runs = prepare_runs(store_of([run_row(wall_time=2.0, solver_time=1.5, build_time=0.5)]), "wall")
    assert runs["time"].iloc[0] == pytest.approx(2.5)
    assert prepare_runs(store_of([run_row(solver_time=None, wall_time=3.0, build_time=0.5)]))[
        "time"].iloc[0] == pytest.approx(3.5)


def test_csv_flags_read_like_parquet(tmp_path):
    pa_csv.write_csv(table_from_rows(synthetic_runs()), tmp_path / "runs.csv")
    from puzzlebench.analysis.outcomes import load_runs
    from_csv = prepare_runs(load_runs(tmp_path / "runs.csv"))
    direct = prepare_runs(store_of(synthetic_runs()))
    for column in ("solved", "wrong", "root_solved", "time"):
        assert from_csv[column].tolist() == pytest.approx(direct[column].tolist())


def three_instances() -> pd.DataFrame:
    """A solves p1 in 1 s, p2 in 4 s, not p3; B solves them in 2, 2 and 3 s."""
    rows = [("A", "p1", 1.0, True), ("A", "p2", 4.0, True), ("A", "p3", 10.0, False),
            ("B", "p1", 2.0, True), ("B", "p2", 2.0, True), ("B", "p3", 3.0, True)]
    return pd.DataFrame([{"puzzle": "sudoku", "formulation": f, "solver": "highs", "instance_set": "s",
                          "instance": i, "permutation": 0, "time": t, "solved": ok} for f, i, t, ok in rows])


def test_performance_profile_of_three_instances():
    ratios = performance_ratios(three_instances())
    assert ratios[("A", "highs")].tolist() == [1.0, 2.0, np.inf]
    assert ratios[("B", "highs")].tolist() == [2.0, 1.0, 1.0]
    profile = performance_profile(ratios)
    assert profile.index.tolist() == [0.0, 1.0]
    assert profile[("A", "highs")].tolist() == pytest.approx([1 / 3, 2 / 3])
    assert profile[("B", "highs")].tolist() == pytest.approx([2 / 3, 1.0])


def test_profile_keeps_instances_nobody_solved_and_drops_ones_not_run_by_all():
    times = three_instances()
    times.loc[times["instance"] == "p3", "solved"] = False
    times = pd.concat([times, times.iloc[[0]].assign(instance="p4")])   # only A ran p4
    ratios = performance_ratios(times)
    assert ratios.index.get_level_values("instance").tolist() == ["p1", "p2", "p3"]
    assert np.isinf(ratios.loc[("s", "p3", 0)]).all()
    assert performance_profile(ratios)[("B", "highs")].tolist() == pytest.approx([1 / 3, 2 / 3])


def test_virtual_best_takes_the_fastest_run_per_instance_and_seed():
    runs = prepare_runs(store_of([
        timed(1.0, formulation="A", seed=0), timed(30.0, formulation="A", seed=1, status="time_limit", verified=None),
        timed(3.0, formulation="B", seed=0), timed(4.0, formulation="B", seed=1)]))
    best = virtual_best(runs)
    assert best["time"].tolist() == pytest.approx([1.0, 4.0])
    assert best["solved"].tolist() == [True, True]
    table = ratio_table(runs, configuration_table(runs, shifts=(0,)), shifts=(0,))
    ratios = table.set_index("formulation")["time_ratio_s0"]
    # SGM_0: A sqrt(1 * 10), B sqrt(3 * 4), virtual best sqrt(1 * 4) = 2; best configuration A.
    assert ratios["A"] == pytest.approx(1.0)
    assert ratios["B"] == pytest.approx(np.sqrt(12 / 10))
    assert ratios["virtual best"] == pytest.approx(2 / np.sqrt(10))
    assert table["formulation"].iloc[-1] == "virtual best"


def test_growth_exponent_of_exact_power_laws():
    n = np.array([4, 9, 16, 25])
    exact = power_law_fit(n, 0.5 * n ** 2.5)
    assert (exact.k, exact.c, exact.k_low, exact.k_high) == pytest.approx((2.5, 0.5, 2.5, 2.5))
    assert np.isnan(power_law_fit([9, 9], [1.0, 2.0]).k)
    two = power_law_fit([4, 9], [1.0, 2.0])
    assert np.isfinite(two.k) and (two.k_low, two.k_high) == (-np.inf, np.inf)


def test_growth_exponent_interval_is_statsmodels_ols():
    import statsmodels.api as sm
    n = np.array([4, 4, 9, 9, 16, 16, 25])
    y = np.array([1.0, 1.3, 3.1, 2.7, 9.0, 7.5, 16.0])
    fit = power_law_fit(n, y, level=0.9)
    expected = sm.OLS(np.log(y), sm.add_constant(np.log(n))).fit()
    assert fit.k == pytest.approx(expected.params[1])
    assert (fit.k_low, fit.k_high) == pytest.approx(tuple(expected.conf_int(alpha=0.1)[1]))
    assert fit.k_low < fit.k < fit.k_high


def test_scaling_only_on_declared_ladders_with_three_sizes():
    rows = [timed(float(n) ** 3 / 1000, size=f"{n}x{n}", instance=f"l{n}", instance_set="sudoku/ladder")
            for n in (4, 9, 16)]
    rows += [timed(5.0, size="25x25", instance="big", instance_set="sudoku/frisch25"),
             timed(1.0, puzzle="takuzu", size="6x6", instance_set="takuzu/janko", instance="t6"),
             timed(8.0, puzzle="takuzu", size="12x12", instance_set="takuzu/janko", instance="t12"),
             timed(1.0, puzzle="kakuro", size="6x6", instance_set="kakuro/ladder", instance="k6"),
             timed(8.0, puzzle="kakuro", size="12x12", instance_set="kakuro/ladder", instance="k12")]
    runs = prepare_runs(store_of(rows))
    ladders = {"sudoku/ladder", "kakuro/ladder"}
    assert sorted(scaling_runs(runs, ladders)["instance"]) == ["l16", "l4", "l9"]
    fits = scaling_table(runs, ladders).set_index(["instance_set", "quantity"])
    assert fits.loc[("sudoku/ladder", "time"), "exponent"] == pytest.approx(3.0)
    assert fits.loc[("sudoku/ladder", "nodes"), "exponent"] == pytest.approx(0.0)  # nodes + 1 = 1 everywhere
    assert set(fits.index.get_level_values("instance_set")) == {"sudoku/ladder"}
    reasons = " ".join(scaling_omissions(runs, ladders))
    assert "kakuro: kakuro/ladder has 2 grid sizes" in reasons and "takuzu: no set" in reasons
    assert "sudoku" not in reasons


def test_shipped_ladders_are_declared_in_set_yaml():
    from puzzlebench.io.sets import get_set, ladder_set_names
    assert ladder_set_names() >= {"sudoku/ladder", "kakuro/ladder", "takuzu/ladder", "takuzu/ladder-distinct"}
    assert "sudoku/top95" not in ladder_set_names()
    assert all(len({e.puzzle.shape for e in get_set(name).entries()}) >= 3 for name in ladder_set_names())


def test_holm_adjustment():
    from statsmodels.stats.multitest import multipletests
    assert holm([0.01, 0.04, 0.03, np.nan]) == pytest.approx([0.03, 0.06, 0.06, np.nan], nan_ok=True)
    assert holm([0.5, 0.6]).tolist() == pytest.approx([1.0, 1.0])
    p = np.random.default_rng(1).uniform(0, 0.2, 40) ** 2
    assert holm(p) == pytest.approx(multipletests(p, method="holm")[1])


def _pairwise(times: dict, instance_set: str = "s"):
    """The pairwise claims and data of per-instance ``times`` {formulation: [t per instance]} on HiGHS."""
    from puzzlebench.analysis.claims import Data, decide_claims
    from puzzlebench.analysis.identity_groups import Identities
    from puzzlebench.analysis.noise import Noise
    rows = [{"puzzle": "sudoku", "solver": "highs", "solver_kind": "mip", "formulation": f, "instance_set": instance_set,
             "instance": f"p{i}", "permutation": 0, "time": t, "preprocessing_solved": False}
            for f, values in times.items() for i, t in enumerate(values)]
    per_instance = pd.DataFrame(rows).sample(frac=1.0, random_state=3)  # order must not matter
    claims = decide_claims(per_instance, Identities([]), Noise(per_instance.assign(solved=True, seed=0).iloc[:0]), "time", 0.01)
    return claims, Data.of(per_instance)


def test_wilcoxon_pairs_by_instance_and_matches_scipy():
    a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
    b = [2.5, 2.0, 7.0, 4.5, 9.0, 6.5, 20.0, 8.5]   # one tie (instance 1)
    claims, data = _pairwise({"x": a, "y": b})
    row = wilcoxon_table(claims, data).iloc[0]
    d = np.log(np.array(b) / np.array(a))
    expected = wilcoxon(d, zero_method="wilcox")
    assert (row["formulation_a"], row["formulation_b"], row["n"], row["n_nonzero"]) == ("x", "y", 8, 7)
    assert (row["a_less"], row["b_less"]) == (7, 0)
    assert row["statistic"] == pytest.approx(expected.statistic)
    assert row["p_value"] == pytest.approx(expected.pvalue)
    assert row["ratio"] == pytest.approx(np.exp(d.mean()))
    assert row["p_holm"] == pytest.approx(expected.pvalue) and row["instance_set"] == "s"


def test_wilcoxon_with_too_few_differences_is_nan_with_a_note():
    claims, data = _pairwise({"x": [1, 2, 3], "y": [2, 2, 4]})
    row = wilcoxon_table(claims, data).iloc[0]
    assert (row["n"], row["n_nonzero"]) == (3, 2)
    assert np.isnan(row["p_value"]) and np.isnan(row["p_holm"]) and row["verdict"] == "inconclusive"
    assert "not tested" in row["note"]


# --- tables and outputs --------------------------------------------------------------------------

def test_synthetic_configuration_counts_and_best_against_cpsat():
    runs = prepare_runs(store_of(synthetic_runs()))
    table = configuration_table(runs).set_index(["puzzle", "formulation", "solver"])
    assert table.loc[("sudoku", "binary", "highs"), ["runs", "solved", "wrong"]].tolist() == [12, 11, 1]
    assert table.loc[("sudoku", "integer", "highs"), "time_limit"] == 3
    assert table.loc[("sudoku", "binary", "cpsat"), "presolved_rows"] != table.loc[
        ("sudoku", "binary", "cpsat"), "presolved_rows"]                           # NaN: not reported
    best = best_vs_reference_table(table.reset_index(), instance_times(runs), "time_sgm_s0.01",
                                   {"cpsat"}).set_index("puzzle")
    mip = table.xs("highs", level="solver")["time_sgm_s0.01"].xs("sudoku")
    assert best.loc["sudoku", "mip_best"] == f"{mip.idxmin()}/highs"
    cpsat = table.xs("cpsat", level="solver")["time_sgm_s0.01"].xs("sudoku").min()
    assert best.loc["sudoku", "ratio"] == pytest.approx(mip.min() / cpsat)


def test_best_against_cpsat_counts_instances_solved_in_preprocessing(tmp_path):
    rows = [timed(t, instance=i, formulation=f, solver=solver, preprocessing_solved=pre)
            for i in ("a", "b", "c")
            for f, solver, t, pre in (("propagated", "highs", 0.01, i != "c"), ("binary", "cpsat", 0.02, False),
                                      ("binary", "highs", 0.05, False))]
    runs = prepare_runs(store_of(rows))
    best = best_vs_reference_table(configuration_table(runs), instance_times(runs), "time_sgm_s0.01", {"cpsat"}).iloc[0]
    # propagation solved 2 of 3 before any solver ran: no candidate for best (the claims' rule), binary is
    assert best["mip_best"] == "binary/highs"
    assert (best["mip_preprocessed"], best["mip_solved"], best["cpsat_preprocessed"]) == (0, 3, 0)
    assert best["note"] == "3 instances reached a solver: fewer than the 6 a test needs, no claim"
    one = prepare_runs(store_of([{**r, "preprocessing_solved": r["preprocessing_solved"] and r["instance"] == "a"}
                                 for r in rows]))
    best = best_vs_reference_table(configuration_table(one), instance_times(one), "time_sgm_s0.01", {"cpsat"}).iloc[0]
    assert best["mip_best"] == "propagated/highs" and best["mip_preprocessed"] == 1     # 1 of 3: a candidate
    assert best["note"] == "2 instances reached a solver: fewer than the 6 a test needs, no claim"
    write_store(rows, tmp_path / "runs.parquet")
    run_analysis(tmp_path / "runs.parquet", tmp_path / "out")
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert "propagation (propagated) solved 2 of 3 puzzles before any solver ran" in summary


def test_best_against_cpsat_per_set_says_why():
    runs = prepare_runs(store_of(synthetic_runs()))
    by_set = best_vs_reference_by_set(runs, instance_times(runs), (0.01,), "time", "time_sgm_s0.01", {"cpsat"})
    assert set(by_set["instance_set"]) == set(runs["instance_set"])
    for row in by_set.itertuples(index=False):
        part = runs[(runs["instance_set"] == row.instance_set) & (runs["puzzle"] == row.puzzle)]
        table = configuration_table(part).set_index(["formulation", "solver"])
        formulation, solver = row.mip_best.split("/")
        assert row.mip_nodes == pytest.approx(table.loc[(formulation, solver), "nodes_sgm_s100"])
        assert row.mip_root_share == pytest.approx(table.loc[(formulation, solver), "root_share"], nan_ok=True)
        mip = table[table.index.get_level_values("solver") != "cpsat"]["time_sgm_s0.01"]
        assert row.mip_sgm == pytest.approx(mip.min())


def test_every_configuration_per_set_with_its_root_lp_time():
    rows = [timed(t, instance=f"p{i}", instance_set=name, formulation="binary", solver=solver,
                  root_lp_time=root, nodes=nodes, status=status, verified=None if status != "optimal" else True)
            for name, t in (("sudoku/a", 1.0), ("sudoku/b", 4.0))
            for solver, root in (("highs", 0.5), ("cpsat", None))
            for i, (status, nodes) in enumerate((("optimal", 100), ("time_limit", 10000)))]
    rows[1]["root_lp_time"] = 1.5  # highs on sudoku/a: roots 0.5 and 1.5, median 1.0
    table = set_configuration_table(prepare_runs(store_of(rows)), 1.0).set_index(["instance_set", "solver"])
    assert list(table.index) == [("sudoku/a", "cpsat"), ("sudoku/a", "highs"), ("sudoku/b", "cpsat"),
                                 ("sudoku/b", "highs")]
    assert table.loc[("sudoku/a", "highs"), "root_lp_time_median"] == pytest.approx(1.0)
    assert table.loc[("sudoku/b", "highs"), "root_lp_time_median"] == pytest.approx(0.5)
    assert table["root_lp_time_median"].xs("cpsat", level="solver").isna().all()
    assert (table["solved"] == 1).all() and (table["time_limit"] == 1).all()
    expected = math.exp((math.log(4.0 + 1) + math.log(TIME_LIMIT + 1)) / 2) - 1  # unsolved at the limit
    assert table.loc[("sudoku/b", "highs"), "time_sgm_s1"] == pytest.approx(expected)
    assert table.loc[("sudoku/a", "highs"), "nodes_sgm_s100"] == pytest.approx(
        math.exp((math.log(200) + math.log(10100)) / 2) - 100)
    section = by_set_section(table.reset_index(), 1.0, "time")
    assert "1/2" in section and "root LP (s, median)" in section
    assert section.count("\n| sudoku/") == 4
    assert "rows, in `tables/configurations_by_set.md`" in by_set_section(
        pd.concat([table.reset_index()] * 16), 1.0, "time")


def test_hardest_tenth_is_where_cpsat_is_slowest_and_the_best_is_chosen_there():
    rows = []
    for i in range(20):  # cpsat takes i/10 s on puzzle i; highs is 3x faster on the two slowest
        cp = 0.1 + i / 10
        rows.append(timed(cp, instance=f"p{i:02d}", instance_set="killer/s", puzzle="killer", solver="cpsat"))
        rows.append(timed(cp / 3 if i >= 18 else 2 * cp, instance=f"p{i:02d}", instance_set="killer/s",
                          puzzle="killer", solver="highs"))
    runs = prepare_runs(store_of(rows))
    per_instance = instance_times(runs)
    assert hardest_instances(per_instance, {"cpsat"})["instance"].tolist() == ["p19", "p18"]
    assert hardest_instances(per_instance, {"cpsat"}, share=0.01)["instance"].tolist() == ["p19"]  # at least one
    table = best_vs_reference_hardest(runs, per_instance, (1.0,), "time", "time_sgm_s1", {"cpsat"})
    row = table.iloc[0]
    assert (row.instances_kept, row.instances_in_set, row.mip_best) == (2, 20, "binary/highs")
    assert row.ratio == pytest.approx(1 / 3, rel=0.05)  # over all 20, highs is slower (by_set ratio > 1)
    assert best_vs_reference_by_set(runs, per_instance, (1.0,), "time", "time_sgm_s1", {"cpsat"}).iloc[0].ratio > 1


def test_text_tables_escape_and_mark_missing_values():
    table = pd.DataFrame({"time_sgm": [1.23456, np.nan, 123456.0], "name": ["a_b", "c", None]})
    spec = TableSpec("c", "tab:t", ((Column("time_sgm", "SGM [ms]", scale=1000), Column("name", "Name", "text")),),
                     group=None)
    latex = latex_document_table(table, spec)
    assert "a\\_b" in latex and "1{,}230" in latex and "--" in latex
    text = markdown_table(table)
    assert "1.235" in text and "123456" in text and text.count("--") >= 2


def analyse(folder, rows: list[dict], noise_times=(), out=None, **options) -> list:
    """``rows`` as the store ``folder``/runs.parquet (and ``noise_times`` as the reference solves of
    noise.csv), analysed into ``out`` (default ``folder``); the paths written."""
    write_store(rows, folder / "runs.parquet")
    if noise_times:
        pd.DataFrame([timed(t, instance="noise-reference") for t in noise_times]).to_csv(folder / "noise.csv",
                                                                                        index=False)
    return run_analysis(folder / "runs.parquet", out or folder, folder / "noise.csv" if noise_times else None,
                        **options)


@pytest.fixture(scope="module")
def synthetic_output(tmp_path_factory):
    folder = tmp_path_factory.mktemp("analysis")
    paths = analyse(folder, synthetic_runs(), (1.0, 1.1, 0.9, 1.2), folder / "out",
                    ladders={"sudoku/ladder", "takuzu/ladder"})
    return folder / "out", paths


def test_every_table_and_figure_from_the_synthetic_store(synthetic_output):
    out, paths = synthetic_output
    for name in ("configurations", "ratios", "scaling_exponents", "variability", "wilcoxon", "best_vs_cpsat",
                 "best_vs_cpsat_by_set", "configurations_by_set", "best_vs_cpsat_hardest"):
        for suffix in ("csv", "md"):
            assert (out / "tables" / f"{name}.{suffix}").stat().st_size > 0
        body, supplement = out / "tables" / f"{name}.tex", out / "tables" / "supplement" / f"{name}.tex"
        assert body.exists() != supplement.exists(), name                   # one LaTeX file, in one place
    names = {kind: ("sudoku", "takuzu") for kind in FIGURE_KINDS}
    names.update(profiles=("sudoku", "sudoku-column", "takuzu", "takuzu-column"), ecdf=("sudoku-column", "takuzu"),
                 scaling=("sudoku-ladder", "sudoku-ladder-nodes", "takuzu-ladder"))
    for kind, files in names.items():
        for name in files:
            for suffix in ("png", "pdf"):
                assert (out / "figures" / kind / f"{name}.{suffix}").stat().st_size > 1000
    assert all(path.exists() for path in paths)
    pdf = (out / "figures" / "profiles" / "sudoku.pdf").read_bytes()
    assert b"/FontFile2" in pdf and b"/Type3" not in pdf                    # TrueType (pdf.fonttype 42)
    ratios = pd.read_csv(out / "tables" / "ratios.csv")
    assert (ratios.groupby("puzzle")["time_ratio_s0.01"].min() <= 1.0).all()
    assert set(pd.read_csv(out / "tables" / "configurations.csv").columns) >= {
        "time_sgm_s0.01", "time_sgm_s1", "time_sgm_s10", "nodes_sgm_s100", "lp_iterations_sgm_s100"}


def test_summary_reports_setup_noise_and_best_against_cpsat(synthetic_output):
    out, _ = synthetic_output
    summary = (out / "summary.md").read_text()
    best = pd.read_csv(out / "tables" / "best_vs_cpsat.csv")
    assert "## Best configuration per puzzle against CP-SAT" in summary
    for row in best.itertuples():
        assert f"| {row.puzzle}" in summary and row.mip_best in summary and row.cpsat_best in summary
    times = np.array([1.0, 1.1, 0.9, 1.2])
    assert f"coefficient of variation {times.std(ddof=1) / times.mean():.3g}" in summary
    assert "median 1.05 s" in summary
    assert "Test CPU @ 3.0GHz" in summary and "highs 1.7.2" in summary and "seeds: 0, 1" in summary
    assert "Anomalies: 1 (1 wrong" in summary


@pytest.mark.parametrize("rows", [
    [run_row()],
    [run_row(status="error", solver_time=None, wall_time=None, nodes=None, lp_iterations=None, root_solved=None,
             verified=None, presolved_rows=None, presolved_cols=None)],
    [timed(10.5, status="time_limit", verified=None, instance=i, formulation=f)
     for i in ("a", "b") for f in ("binary", "integer")],
], ids=["one solved run", "one error", "all at the time limit"])
def test_degenerate_store_gives_every_table(tmp_path, rows):
    write_store(rows, tmp_path / "runs.parquet")
    run_analysis(tmp_path / "runs.parquet", tmp_path)
    per_puzzle, per_set = (tmp_path / "summary.md").read_text().split("## Best configuration per instance set")
    assert per_puzzle.count("| sudoku ") == 1 and per_set.count("| sudoku ") == 1
    assert (tmp_path / "figures" / "profiles" / "sudoku.png").exists()
    assert all((tmp_path / "figures" / kind).is_dir() for kind in FIGURE_KINDS)
    configurations = pd.read_csv(tmp_path / "tables" / "configurations.csv")
    assert len(configurations) == len({row["formulation"] for row in rows})
    expected = 1.0 if rows[0]["status"] == "optimal" else TIME_LIMIT
    assert configurations["time_sgm_s0.01"].tolist() == pytest.approx([expected] * len(configurations))


def test_empty_store_gives_no_tables_and_a_summary(tmp_path):
    write_store([], tmp_path / "runs.parquet")
    run_analysis(tmp_path / "runs.parquet", tmp_path)
    assert not list((tmp_path / "tables").rglob("*.*"))
    summary = (tmp_path / "summary.md").read_text()
    assert "No runs." in summary and "- configurations: not written: no rows in this run" in summary
    assert not list((tmp_path / "figures").rglob("*.png"))


def test_analyze_verb(tmp_path, capsys):
    write_store([run_row(), run_row(solver="cpsat")], tmp_path / "runs.parquet")
    assert main(["analyze", str(tmp_path / "runs.parquet"), "--shift", "1"]) == 0
    assert "time_sgm_s1" in (tmp_path / "tables" / "configurations.md").read_text()
    assert "shift 1 s" in (tmp_path / "summary.md").read_text()
    assert main(["analyze", str(tmp_path / "missing.parquet")]) == 2
    assert "no results store" in capsys.readouterr().err


def test_summary_does_not_say_no_instance_solved_with_0_nodes(synthetic_output):
    out, _ = synthetic_output
    summary = (out / "summary.md").read_text()
    assert "No instance solved with 0 nodes" not in summary
    assert "solved runs with 0 nodes were solved in the root node" in summary
    assert "## Scaling" in summary and "## Claims" in summary
