"""The statistics every claim rests on, each against its formula or the library it documents
(analysis/stats.py, analysis/significance.py, the rules of analysis/paper.py) (issue 26)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import bootstrap, wilcoxon
from statsmodels.stats.multitest import multipletests

from puzzlebench.analysis import paper
from puzzlebench.analysis.significance import COLUMNS, MIN_NONZERO, wilcoxon_table
from puzzlebench.analysis.stats import (grouped_sgm, holm, performance_profile, performance_ratios, power_law_fit,
                                        shifted_geometric_mean, spread, virtual_best)

# --- shifted geometric mean ------------------------------------------------------------------


@pytest.mark.parametrize("values, shift, expected", [
    ([1, 2, 4], 0, 2.0),
    ([1, 2, 4], 1, 30 ** (1 / 3) - 1),
    ([0.5, 8.0], 10, np.sqrt(10.5 * 18) - 10),
    ([3.0], 100, 3.0),
    ([1, np.nan, 4, np.nan], 0, 2.0),
])
def test_sgm_is_the_formula_over_the_values_present(values, shift, expected):
    assert shifted_geometric_mean(values, shift) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("values, shift", [([0, 0, 0], 100), ([7.25] * 5, 10), ([1e-3] * 3, 1)])
def test_equal_values_give_back_that_value_exactly(values, shift):
    assert shifted_geometric_mean(values, shift) == values[0]


def test_sgm_lies_within_the_values():
    values = np.array([0.1, 0.2, 50.0])
    for shift in (0, 0.01, 1, 1e6):
        assert values.min() <= shifted_geometric_mean(values, shift) <= values.max()


@pytest.mark.parametrize("values", [[], [np.nan, np.nan]])
def test_sgm_of_nothing_is_nan(values):
    assert np.isnan(shifted_geometric_mean(values, 1))


def test_grouped_sgm_per_group_sorted_with_missing_keys_kept():
    values = pd.Series([1.0, 4.0, 9.0, np.nan, 2.0, 8.0, 5.0])
    by = pd.Series(["b", "b", "b", "b", "a", "a", None])
    got = grouped_sgm(values, by, 0)
    assert got.index[:2].tolist() == ["a", "b"] and pd.isna(got.index[2])
    assert got.tolist() == pytest.approx([4.0, (1 * 4 * 9) ** (1 / 3), 5.0])
    shifted = grouped_sgm(values, by, 1)
    assert shifted.iloc[0] == pytest.approx(np.sqrt(3 * 9) - 1)


# --- performance profiles and the virtual best -------------------------------------------------

def times(rows) -> pd.DataFrame:
    """Instance times: (formulation, instance, time, solved) of one puzzle and solver."""
    return pd.DataFrame([{"puzzle": "sudoku", "formulation": f, "solver": "highs", "instance_set": "s",
                          "instance": i, "permutation": 0, "time": t, "solved": ok} for f, i, t, ok in rows])


def test_ratios_to_the_best_with_inf_for_unsolved_and_for_nobody_solved():
    ratios = performance_ratios(times([("A", "p1", 2.0, True), ("B", "p1", 6.0, True), ("A", "p2", 3.0, False),
                                       ("B", "p2", 1.5, True), ("A", "p3", 1.0, False), ("B", "p3", 1.0, False),
                                       ("A", "p4", 1.0, True)]))
    assert ratios.index.get_level_values("instance").tolist() == ["p1", "p2", "p3"]
    assert ratios[("A", "highs")].tolist() == [1.0, np.inf, np.inf]
    assert ratios[("B", "highs")].tolist() == [3.0, 1.0, np.inf]


def test_profile_is_the_share_within_each_breakpoint():
    ratios = pd.DataFrame({"A": [1.0, 2.0, 8.0, np.inf], "B": [4.0, 1.0, 1.0, 1.0]})
    profile = performance_profile(ratios)
    assert profile.index.name == "log2_tau" and profile.index.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert profile["A"].tolist() == [0.25, 0.5, 0.5, 0.75]
    assert profile["B"].tolist() == [0.75, 0.75, 1.0, 1.0]


def test_profile_of_no_instance_is_zero_at_tau_zero():
    profile = performance_profile(pd.DataFrame({"A": pd.Series([], dtype=float)}))
    assert profile.index.tolist() == [0.0] and profile["A"].tolist() == [0.0]


def test_virtual_best_is_the_fastest_configuration_per_instance_and_seed():
    runs = pd.DataFrame([{"puzzle": "sudoku", "instance_set": "s", "instance": i, "permutation": 0, "seed": s,
                          "time": t, "solved": ok, "formulation": f}
                         for f, i, s, t, ok in [("A", "p1", 0, 1.0, True), ("B", "p1", 0, 3.0, True),
                                                ("A", "p1", 1, 10.0, False), ("B", "p1", 1, 4.0, True),
                                                ("A", "p2", 0, 10.0, False), ("B", "p2", 0, 10.0, False)]])
    best = virtual_best(runs)
    assert best[["instance", "seed", "time", "solved", "configurations"]].values.tolist() == [
        ["p1", 0, 1.0, True, 2], ["p1", 1, 4.0, True, 2], ["p2", 0, 10.0, False, 2]]


# --- growth, spread --------------------------------------------------------------------------

def test_power_law_of_noisy_points_is_statsmodels_ols_on_the_logs():
    import statsmodels.api as sm
    n = np.array([4, 9, 9, 16, 16, 25, 25])
    y = np.array([0.02, 0.2, 0.3, 1.1, 0.9, 5.0, 4.0])
    fit = power_law_fit(n, y, level=0.8)
    ols = sm.OLS(np.log(y), sm.add_constant(np.log(n))).fit()
    assert (fit.k, fit.c) == pytest.approx((ols.params[1], np.exp(ols.params[0])))
    assert (fit.k_low, fit.k_high) == pytest.approx(tuple(ols.conf_int(alpha=0.2)[1]))
    assert (fit.points, fit.sizes) == (7, 4)
    wider = power_law_fit(n, y)
    assert wider.k_low < fit.k_low < fit.k < fit.k_high < wider.k_high


def test_power_law_keeps_only_positive_finite_points():
    fit = power_law_fit([0, -1, 2, 4, 8, np.inf, 3, 5], [1.0, 1.0, 8.0, 64.0, 512.0, 1.0, 0.0, np.nan])
    assert (fit.k, fit.c, fit.points, fit.sizes) == pytest.approx((3.0, 1.0, 3, 3))
    assert (fit.k_low, fit.k_high) == pytest.approx((3.0, 3.0))


def test_power_law_needs_two_sizes_and_three_points_for_an_interval():
    one = power_law_fit([9, 9, 9], [1.0, 2.0, 3.0])
    assert np.isnan([one.k, one.k_low, one.k_high, one.c]).all() and (one.points, one.sizes) == (3, 1)
    two = power_law_fit([2, 4], [3.0, 12.0])
    assert (two.k, two.c) == pytest.approx((2.0, 0.75)) and (two.k_low, two.k_high) == (-np.inf, np.inf)
    assert (two.points, two.sizes) == (2, 2)


def test_spread_per_group():
    got = spread(pd.Series([1.0, 3.0, 2.0, 2.0, 4.0]), pd.Series(["a", "a", "b", "b", "c"]))
    assert got.index.tolist() == ["a", "b", "c"]
    assert got["k"].tolist() == [2, 2, 1]
    assert got["max_min_ratio"].tolist() == [3.0, 1.0, 1.0]
    assert got["cv"].iloc[:2].tolist() == pytest.approx([np.std([1, 3], ddof=1) / 2, 0.0])
    assert np.isnan(got["cv"].iloc[2])


# --- Holm and Wilcoxon -----------------------------------------------------------------------

def test_holm_is_statsmodels_on_the_present_p_values():
    p = np.array([0.04, np.nan, 0.001, 0.03, 0.2, np.nan, 0.012])
    got = holm(p)
    present = ~np.isnan(p)
    assert np.isnan(got[~present]).all()
    assert got[present] == pytest.approx(multipletests(p[present], method="holm")[1])
    assert got[present] == pytest.approx([min(1, 0.09), 0.005, 0.09, 0.2, 0.048])


def test_holm_of_nothing_present():
    assert np.isnan(holm([np.nan, np.nan])).all() and holm([]).shape == (0,)


def pairs(formulations: dict[str, list[float]], puzzle: str = "sudoku", solver: str = "highs") -> list[dict]:
    return [{"puzzle": puzzle, "solver": solver, "formulation": f, "instance_set": "s", "instance": f"p{i}",
             "permutation": 0, "time": t} for f, ts in formulations.items() for i, t in enumerate(ts) if t is not None]


def test_wilcoxon_table_against_scipy_pair_by_pair():
    x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0]
    y = [1.5, 2.0, 2.0, 9.0, 6.0, 8.0, 7.5, None]       # p7 not run by y: dropped from x-y
    z = [3.0, 5.0, 4.0, 2.0, 9.0, 7.0, 8.0, 10.0]
    table = wilcoxon_table(pd.DataFrame(pairs({"z": z, "x": x, "y": y})))
    assert list(table.columns) == COLUMNS
    assert table[["formulation_a", "formulation_b"]].values.tolist() == [["x", "y"], ["x", "z"], ["y", "z"]]
    xy = table.iloc[0]
    d = np.log(np.array(x[:7]) / np.array(y[:7]))
    assert (xy["n"], xy["n_nonzero"], xy["a_faster"], xy["b_faster"]) == (7, 6, 5, 1)
    expected = wilcoxon(d, zero_method="wilcox", alternative="two-sided")
    assert (xy["statistic"], xy["p_value"]) == pytest.approx((expected.statistic, expected.pvalue))
    assert xy["median_ratio"] == pytest.approx(np.exp(np.median(d))) and xy["note"] == ""
    assert table["p_holm"].tolist() == pytest.approx(holm(table["p_value"]).tolist())


def test_wilcoxon_is_per_puzzle_and_solver_and_not_tested_below_six_differences():
    rows = (pairs({"a": [1, 2, 3, 4, 5, 6], "b": [2, 3, 4, 5, 6, 7]}, solver="cbc")
            + pairs({"a": [1, 2, 3, 4, 5, 6], "b": [1, 2, 3, 5, 6, 7]}, solver="highs")
            + pairs({"a": [1.0, None], "b": [None, 2.0]}, puzzle="takuzu"))
    table = wilcoxon_table(pd.DataFrame(rows))
    assert table[["puzzle", "solver"]].values.tolist() == [["sudoku", "cbc"], ["sudoku", "highs"], ["takuzu", "highs"]]
    tested, few, none = table.iloc[0], table.iloc[1], table.iloc[2]
    assert tested["n_nonzero"] == MIN_NONZERO == 6 and np.isfinite(tested["p_value"]) and tested["note"] == ""
    assert few["n_nonzero"] == 3 and few["note"] == "3 non-zero differences (< 6): not tested"
    assert np.isnan([few["statistic"], few["p_value"], few["p_holm"]]).all()
    assert none["n"] == 0 and np.isnan(none["median_ratio"]) and (none["a_faster"], none["b_faster"]) == (0, 0)
    assert tested["p_holm"] == pytest.approx(tested["p_value"])   # the only test of the table


# --- the noise factor, the paired ratio and its bootstrap interval, "within noise" ------------

def noise(times_s: list[float | None], build: float | None = 0.0) -> pd.DataFrame:
    return pd.DataFrame({"solver_time": times_s, "wall_time": [t if t is None else t + 1 for t in times_s],
                         "build_time": [build] * len(times_s)})


def test_noise_factor_is_the_geometric_standard_deviation():
    got = paper.noise_factor(noise([0.01, 0.02, 0.04]))
    assert got == pytest.approx(np.exp(np.std(np.log([0.01, 0.02, 0.04]), ddof=1)))
    assert paper.noise_factor(noise([0.5, 0.5])) == 1.0


def test_noise_factor_uses_the_measure_and_skips_missing_and_zero_times():
    frame = pd.DataFrame({"solver_time": [1.0, 2.0, np.nan, 0.0, 4.0], "wall_time": [2.0, 4.0, np.nan, 0.0, 8.0],
                          "build_time": [0.0, 0.0, 0.0, 0.0, 0.0]})
    assert paper.noise_factor(frame) == pytest.approx(2.0)
    assert paper.noise_factor(frame, "wall") == pytest.approx(2.0)
    frame["build_time"] = 1.0
    assert paper.noise_factor(frame.iloc[:2], "wall") == pytest.approx(np.exp(np.std(np.log([3, 5]), ddof=1)))


@pytest.mark.parametrize("frame", [None, noise([0.3]), noise([0.0, 0.2]), noise([])])
def test_noise_factor_without_two_times_is_nan(frame):
    assert np.isnan(paper.noise_factor(frame))


def instance_rows(slow: list[float | None], fast: list[float | None], solver: str = "highs") -> pd.DataFrame:
    return pd.DataFrame(pairs({"binary": slow, "quick": fast}, solver=solver))


def test_paired_ratio_is_the_geometric_mean_with_a_bca_interval():
    slow, fast = [2.0, 3.0, 8.0, 5.0, 4.0], [1.0, 1.0, 2.0, 4.0, 1.0]
    frame = pd.concat([instance_rows(slow, fast), instance_rows([1.0] * 5, [9.0] * 5, solver="cbc")])
    ratio, low, high, n = paper.paired_ratio(frame, "sudoku", "highs", "binary", "quick")
    logs = np.log(np.array(slow) / np.array(fast))
    assert n == 5 and ratio == pytest.approx(np.exp(logs.mean()))
    interval = bootstrap((logs,), np.mean, confidence_level=0.95, n_resamples=2000, method="BCa",
                         random_state=0).confidence_interval
    assert (low, high) == pytest.approx((np.exp(interval.low), np.exp(interval.high)))
    assert low < ratio < high
    assert paper.paired_ratio(frame, "sudoku", "highs", "quick", "binary")[0] == pytest.approx(1 / ratio)


def test_paired_ratio_over_the_instances_both_ran():
    ratio, low, high, n = paper.paired_ratio(instance_rows([2.0, 4.0, None, 8.0], [1.0, 1.0, 5.0, None]),
                                             "sudoku", "highs", "binary", "quick")
    assert (n, ratio) == (2, pytest.approx(np.sqrt(2 * 4))) and np.isnan([low, high]).all()


@pytest.mark.parametrize("slow, fast, expected", [
    ([2.0, 3.0, 5.0], [2.0, 3.0, 5.0], (1.0, 3)),          # every ratio 1: no spread, no interval
    ([3.0], [1.0], (3.0, 1)),
])
def test_paired_ratio_without_an_interval(slow, fast, expected):
    ratio, low, high, n = paper.paired_ratio(instance_rows(slow, fast), "sudoku", "highs", "binary", "quick")
    assert (ratio, n) == (pytest.approx(expected[0]), expected[1]) and np.isnan([low, high]).all()


@pytest.mark.parametrize("args", [("sudoku", "highs", "binary", "other"), ("sudoku", "cbc", "binary", "quick"),
                                  ("takuzu", "highs", "binary", "quick")])
def test_paired_ratio_of_pairs_that_did_not_run_is_nan(args):
    got = paper.paired_ratio(instance_rows([1.0, 2.0], [1.0, 1.0]), *args)
    assert np.isnan(got[:3]).all() and got[3] == 0
    assert paper.paired_ratio(instance_rows([1.0, None], [None, 2.0]), "sudoku", "highs", "binary", "quick")[3] == 0


def headline(rows) -> pd.DataFrame:
    return pd.DataFrame([{"puzzle": p, "formulation": f, "solver": s, "speedup": r, "time_sgm": t}
                         for p, f, s, r, t in rows])


def holm_rows(rows) -> pd.DataFrame:
    """A Wilcoxon table's (puzzle, solver, formulation_a, formulation_b, p_holm) columns."""
    return pd.DataFrame(rows, columns=["puzzle", "solver", "formulation_a", "formulation_b", "p_holm"])


def test_findings_take_each_puzzles_first_row_with_its_test_and_paired_ratio():
    frame = instance_rows([2.0, 4.0, 8.0, 2.0], [1.0, 1.0, 2.0, 1.0])
    top = headline([("sudoku", "quick", "highs", 2.5, 0.1), ("sudoku", "binary", "highs", 1.0, 0.25),
                    ("kakuro", "binary", "cbc", 1.0, 0.3)])
    table = holm_rows([("sudoku", "highs", "binary", "quick", 0.004), ("sudoku", "cbc", "binary", "quick", 0.9),
                         ("sudoku", "highs", "binary", "other", 0.5), ("kakuro", "cbc", "binary", "x", 0.01)])
    kakuro, sudoku = paper.findings(top, frame, table, noise=1.5, sgm="time_sgm")
    assert (sudoku.puzzle, sudoku.formulation, sudoku.solver, sudoku.sgm, sudoku.speedup) == (
        "sudoku", "quick", "highs", 0.1, 2.5)
    assert sudoku.p_holm == 0.004 and sudoku.significant and not sudoku.within_noise
    assert (sudoku.paired_ratio, sudoku.instances) == (pytest.approx(np.exp(np.mean(np.log([2, 4, 4, 2])))), 4)
    assert (sudoku.ratio_low, sudoku.ratio_high) == pytest.approx(paper.paired_ratio(
        frame, "sudoku", "highs", "binary", "quick")[1:3])
    assert kakuro.formulation == "binary" and np.isnan(kakuro.p_holm) and not kakuro.significant


@pytest.mark.parametrize("speedup, noise_factor, within", [
    (1.2, 1.5, True), (1 / 1.2, 1.5, True), (1.5, 1.5, False), (1.6, 1.5, False), (0.6, 1.5, False),
    (1.2, np.nan, False), (np.nan, 1.5, False)])
def test_a_speedup_is_within_noise_when_neither_it_nor_its_inverse_reaches_the_factor(speedup, noise_factor, within):
    top = headline([("sudoku", "quick", "highs", speedup, 0.1)])
    (finding,) = paper.findings(top, instance_rows([1.0], [1.0]), holm_rows([]), noise=noise_factor, sgm="time_sgm")
    assert finding.within_noise is within and np.isnan(finding.p_holm)


@pytest.mark.parametrize("p, significant", [(0.049, True), (0.05, False), (0.2, False), (np.nan, False)])
def test_significant_below_the_level_after_holm(p, significant):
    finding = paper.Finding("sudoku", "quick", "highs", 0.1, 2.0, 2.0, 1.5, 2.5, 8, p, False)
    assert finding.significant is significant and paper.SIGNIFICANCE == 0.05


# --- edges the claims meet: one instance, constant quantities, unsorted and missing keys --------

def test_profile_of_one_instance():
    profile = performance_profile(pd.DataFrame({"A": [1.0], "B": [4.0]}))
    assert profile.index.tolist() == [0.0, 2.0]
    assert profile["A"].tolist() == [1.0, 1.0] and profile["B"].tolist() == [0.0, 1.0]


def test_a_constant_quantity_grows_with_exponent_zero_exactly():
    """nodes + 1 = 1 at every size: no growth, and no doubt about it."""
    fit = power_law_fit([2, 4, 8], [1.0, 1.0, 1.0])
    assert (fit.k, fit.k_low, fit.k_high, fit.c) == (0.0, 0.0, 0.0, 1.0)


def test_three_noisy_points_have_an_interval():
    fit = power_law_fit([2, 4, 8], [1.0, 5.0, 30.0])
    assert fit.points == 3 and fit.k_low < fit.k - 0.5 and fit.k_high > fit.k + 0.5


def test_power_law_counts_size_one_and_reads_none_as_missing():
    fit = power_law_fit([1, 2, 4, None, 8], [3.0, 12.0, 48.0, 5.0, None])
    assert (fit.k, fit.c, fit.points, fit.sizes) == pytest.approx((2.0, 3.0, 3, 3))


def test_holm_reads_none_as_a_missing_p_value():
    got = holm([0.01, None, 0.04])
    assert np.isnan(got[1]) and got[[0, 2]] == pytest.approx([0.02, 0.04])


def test_spread_and_virtual_best_sort_their_groups_and_keep_missing_keys():
    got = spread(pd.Series([4.0, 1.0, 3.0, 2.0]), pd.Series(["b", "a", None, "a"]))
    assert got.index[:2].tolist() == ["a", "b"] and pd.isna(got.index[2]) and got["k"].tolist() == [2, 1, 1]
    runs = pd.DataFrame([{"puzzle": "sudoku", "instance_set": s, "instance": i, "permutation": 0, "seed": 0,
                          "time": t, "solved": True}
                         for s, i, t in [("s", "p2", 2.0), (None, "p9", 7.0), ("s", "p1", 1.0), ("s", "p1", 3.0)]])
    best = virtual_best(runs)
    assert best["instance"].tolist() == ["p1", "p2", "p9"] and best["time"].tolist() == [1.0, 2.0, 7.0]
    assert best["configurations"].tolist() == [2, 1, 1]


def test_wilcoxon_table_sorts_puzzles_and_solvers_and_keeps_missing_ones():
    rows = (pairs({"a": [1, 2, 3], "b": [2, 3, 4]}, puzzle="takuzu") + pairs({"a": [1, 2], "b": [2, 2]}, solver="scip")
            + pairs({"a": [1, 2], "b": [2, 3]}, solver="cbc") + pairs({"a": [1], "b": [3]}, solver=None))
    table = wilcoxon_table(pd.DataFrame(rows))
    assert table["puzzle"].tolist() == ["sudoku", "sudoku", "sudoku", "takuzu"]
    assert table["solver"].tolist()[:2] == ["cbc", "scip"] and pd.isna(table["solver"].iloc[2])
    assert table["n"].tolist() == [2, 2, 1, 3]


def test_findings_take_the_test_of_their_own_puzzle_and_solver_only():
    frame = instance_rows([2.0, 4.0], [1.0, 1.0])
    decoys = [("kakuro", "highs", "binary", "quick", 0.9), ("sudoku", "cbc", "binary", "quick", 0.8),
              ("sudoku", "highs", "binary", "quick", 0.03)]
    (finding,) = paper.findings(headline([("sudoku", "quick", "highs", 2.0, 0.1)]), frame, holm_rows(decoys),
                                noise=1.1, sgm="time_sgm")
    assert finding.p_holm == 0.03


@pytest.mark.parametrize("count", [3, 20])
def test_paired_ratio_interval_is_scipys_bca_with_its_settings(count):
    """Three instances are enough for an interval; with twenty the resample count and seed show."""
    rng = np.random.default_rng(7)
    slow = list(np.exp(rng.normal(1.0, 0.8, count)))
    fast = [1.0] * count
    _, low, high, n = paper.paired_ratio(instance_rows(slow, fast), "sudoku", "highs", "binary", "quick")
    logs = np.log(np.array(slow))[sorted(range(count), key=lambda i: f"p{i}")]   # in instance order
    interval = bootstrap((logs,), np.mean, confidence_level=0.95, n_resamples=2000, method="BCa",
                         random_state=0).confidence_interval
    assert n == count and (low, high) == pytest.approx((np.exp(interval.low), np.exp(interval.high)), rel=1e-12)


def test_paired_ratio_interval_when_the_log_ratios_span_exactly_one():
    slow, fast = [1.0, np.e, np.exp(0.25), np.exp(0.5)], [1.0, 1.0, 1.0, 1.0]
    _, low, high, _ = paper.paired_ratio(instance_rows(slow, fast), "sudoku", "highs", "binary", "quick")
    assert np.isfinite([low, high]).all() and low < high
