"""The statistics every claim rests on, each against its formula or the library it documents
(analysis/stats.py, analysis/significance.py, the verdict rules of analysis/claims.py) (issue 26)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import bootstrap, wilcoxon
from statsmodels.stats.multitest import multipletests

from puzzlebench.analysis import paper
from puzzlebench.analysis.verdicts import (ALPHA, MAX_PREPROCESSED, Claim, Data, Spec, adjust, decide, family_of,
                                           family_comparisons, holds_in_halves, instances_needed,
                                           instances_to_decide, measure_claim, split_share)
from puzzlebench.analysis.noise import Noise
from puzzlebench.analysis.significance import MIN_NONZERO, paired_test
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


def test_paired_test_against_scipy():
    d = np.log(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]) / np.array([1.5, 2.0, 2.0, 9.0, 6.0, 8.0, 7.5]))
    statistic, p, note = paired_test(d)
    expected = wilcoxon(d, zero_method="wilcox", alternative="two-sided")
    assert (statistic, p) == pytest.approx((expected.statistic, expected.pvalue)) and note == ""


@pytest.mark.parametrize("d, nonzero", [([0.1, -0.2, 0.3, 0.0, 0.0, 0.0, 0.0], 3), ([0.1] * 5, 5), ([], 0)])
def test_paired_test_needs_six_nonzero_differences(d, nonzero):
    statistic, p, note = paired_test(np.array(d))
    assert MIN_NONZERO == 6 and np.isnan([statistic, p]).all()
    assert note == f"{nonzero} non-zero differences (< 6): not tested"


def test_paired_test_of_six_nonzero_differences_is_tested():
    statistic, p, note = paired_test(np.array([0.1, 0.2, 0.3, -0.4, 0.5, 0.6, 0.0]))
    assert np.isfinite(p) and note == ""


# --- the noise factor, the paired ratio and its bootstrap interval, the verdict -----------------

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


def per_instance(times: dict[str, list[float | None]], preprocessed: dict[str, list[bool]] | None = None):
    """A per-instance frame with the columns of analysis.outcomes.instance_times the claims read."""
    return pd.DataFrame([{"puzzle": "sudoku", "instance_set": "s", "instance": f"p{i:02d}", "permutation": 0,
                          "formulation": f, "solver": "highs", "solver_kind": "mip", "time": t,
                          "preprocessing_solved": bool((preprocessed or {}).get(f, [False] * len(ts))[i])}
                         for f, ts in times.items() for i, t in enumerate(ts) if t is not None])


def claim_of(times, verdict=None, preprocessed=None) -> Claim:
    """The claim 'quick against binary' on HiGHS, before the Holm adjustment."""
    spec = Spec("x", "pairwise", "sudoku", None, "highs", ("quick", "highs"), ("binary", "highs"), verdict=verdict)
    frame = per_instance(times, preprocessed)
    runs = frame.assign(solved=True, seed=0)       # one run a cell: no noise estimate (g = 1)
    return measure_claim(spec, Data.of(frame), Noise(runs), "time")


def test_ratio_is_the_geometric_mean_with_scipys_bca_interval_and_the_wilcoxon_p():
    slow, fast = [2.0, 3.0, 8.0, 5.0, 4.0, 6.0, 9.0], [1.0, 1.0, 2.0, 4.0, 1.0, 2.0, 3.0]
    claim = claim_of({"binary": slow, "quick": fast})
    logs = np.log(np.array(slow) / np.array(fast))
    assert claim.n == 7 and claim.ratio == pytest.approx(np.exp(logs.mean()))
    interval = bootstrap((logs,), np.mean, confidence_level=0.95, n_resamples=2000, method="BCa",
                         random_state=0).confidence_interval
    assert claim.ci == pytest.approx([np.exp(interval.low), np.exp(interval.high)], rel=1e-12)
    assert claim.p_value == pytest.approx(wilcoxon(logs, zero_method="wilcox").pvalue)
    assert claim_of({"binary": fast, "quick": slow}).ratio == pytest.approx(1 / claim.ratio)


def test_ratio_over_the_instances_both_ran():
    claim = claim_of({"binary": [2.0, 4.0, None, 8.0], "quick": [1.0, 1.0, 5.0, None]})
    assert (claim.n, claim.ratio) == (2, pytest.approx(np.sqrt(2 * 4))) and claim.ci is None
    assert claim.p_value is None and claim.note == "2 non-zero differences (< 6): not tested"


@pytest.mark.parametrize("slow, fast", [([2.0, 3.0, 5.0], [2.0, 3.0, 5.0]), ([3.0], [1.0]), ([3.0, 1.0], [1.0, 2.0])])
def test_no_interval_without_three_instances_and_a_spread(slow, fast):
    assert claim_of({"binary": slow, "quick": fast}).ci is None


def test_an_interval_from_three_instances():
    claim = claim_of({"binary": [2.0, 5.0, 3.0], "quick": [1.0, 1.0, 1.0]})
    assert claim.ci is not None and claim.ci[0] < claim.ratio < claim.ci[1]


def test_a_pair_without_a_common_instance_has_no_ratio():
    claim = claim_of({"binary": [1.0, None], "quick": [None, 2.0]})
    assert (claim.n, claim.ratio, claim.verdict, claim.note) == (0, None, "inconclusive", "no instance both sides ran")


def test_instances_solved_by_propagation_are_left_out_and_a_side_all_preprocessed_is_no_timing_claim():
    times = {"binary": [2.0, 4.0, 8.0], "quick": [1.0, 1.0, 0.001]}
    claim = claim_of(times, preprocessed={"quick": [False, False, True]})
    assert (claim.n, claim.preprocessed, claim.ratio) == (2, 1, pytest.approx(np.sqrt(2 * 4)))
    claim = claim_of(times, preprocessed={"quick": [True, True, True]})
    assert (claim.verdict, claim.n, claim.ratio) == ("preprocessing", 3, None)


@pytest.mark.parametrize("verdict", ["identical", "preprocessing"])
def test_a_fixed_verdict_is_kept_untested(verdict):
    claim = claim_of({"binary": [2.0] * 8, "quick": [1.0] * 8}, verdict=verdict)
    assert claim.verdict == verdict and claim.ratio is None and decide(claim) == verdict


@pytest.mark.parametrize("p, ci, noise_factor, expected", [
    (0.01, [1.6, 3.0], 1.5, "faster"), (0.01, [1.5, 3.0], 1.5, "inconclusive"), (0.01, [1.2, 3.0], 1.5, "inconclusive"),
    (0.01, [0.2, 0.6], 1.5, "slower"), (0.01, [0.2, 1 / 1.5], 1.5, "inconclusive"),
    (0.01, [0.5, 2.0], 1.5, "inconclusive"), (0.049, [1.6, 3.0], 1.5, "faster"), (0.05, [1.6, 3.0], 1.5, "inconclusive"),
    (None, [1.6, 3.0], 1.5, "inconclusive"), (0.01, None, 1.5, "inconclusive"), (0.01, [1.1, 3.0], None, "inconclusive"),
    (0.01, [1.11, 3.0], None, "faster"), (0.01, [1.11, 3.0], float("nan"), "faster"),
    (0.01, [1.1, 3.0], float("nan"), "inconclusive"), (0.01, [0.999, 3.0], None, "inconclusive"),
    (0.01, [0.2, 0.9], None, "slower"), (0.01, [0.2, 0.91], None, "inconclusive"),
    # a noise factor below MIN_EFFECT (1.1): the band is [1/1.1, 1.1]
    (0.01, [1.06, 1.09], 1.05, "equivalent"), (0.01, [1.06, 1.12], 1.05, "inconclusive"),
    (0.01, [1.11, 1.3], 1.05, "faster"), (0.5, [0.95, 1.05], 1.02, "equivalent"),
    # equivalent: tested and the interval inside the band [1/g, g], significant or not
    (0.01, [0.8, 1.2], 1.5, "equivalent"), (0.5, [0.8, 1.2], 1.5, "equivalent"),
    (0.5, [1 / 1.5, 1.5], 1.5, "equivalent"), (0.5, [0.66, 1.2], 1.5, "inconclusive"),
    (0.5, [0.8, 1.51], 1.5, "inconclusive"), (None, [0.9, 1.1], 1.5, "inconclusive"),
    (0.5, [0.9, 1.1], None, "inconclusive"), (0.5, [1.0, 1.0], None, "equivalent"),
    (0.5, None, 1.5, "inconclusive"), (0.05, [0.2, 0.6], 1.5, "inconclusive")])
def test_verdict_needs_holm_below_the_level_and_an_interval_beyond_or_inside_the_noise(p, ci, noise_factor, expected):
    claim = Claim("x", "pairwise", "sudoku", "s", "highs", "a", "b", "time", 2.0, ci, p, 8, "inconclusive",
                  noise=noise_factor)
    assert decide(claim) == expected and ALPHA == 0.05


def test_holm_adjusts_within_each_family_only():
    def claim(kind, puzzle, p, instance_set="s", solver="highs"):
        return Claim("x", kind, puzzle, instance_set, solver, "a", "b", "time", 2.0, [3.0, 4.0], None, 8,
                     "inconclusive", p_value=p, noise=1.0)
    items = [claim("pairwise", "sudoku", 0.01), claim("pairwise", "sudoku", 0.04), claim("pairwise", "kakuro", 0.03),
             claim("best_vs_seed", "sudoku", 0.02), claim("pairwise", "sudoku", None),
             claim("pairwise", "sudoku", 0.03, instance_set="t"), claim("pairwise", "sudoku", 0.03, solver="scip"),
             claim("best_vs_seed", "sudoku", 0.02, instance_set="t", solver=None)]
    adjust(items)
    assert [c.p_adjusted for c in items[:4]] == pytest.approx([0.02, 0.04, 0.03, 0.04])
    assert [c.p_adjusted for c in items[5:]] == pytest.approx([0.03, 0.03, 0.04])
    assert [c.family_size for c in items] == [2, 2, 1, 2, 0, 1, 1, 2] and items[4].p_adjusted is None
    assert [c.verdict for c in items] == ["faster"] * 4 + ["inconclusive"] + ["faster"] * 3
    assert [c.family for c in items] == ["pairwise/sudoku/s/highs"] * 2 + ["pairwise/kakuro/s/highs", "best_vs_seed/sudoku",
                                         "pairwise/sudoku/s/highs", "pairwise/sudoku/t/highs",
                                         "pairwise/sudoku/s/scip", "best_vs_seed/sudoku"]
    assert family_of(items[2]) == "pairwise/kakuro/s/highs"


@pytest.mark.parametrize("family_size, needed", [(0, 6), (1, 6), (2, 7), (3, 7), (6, 8), (21, 10), (27, 11), (100, 12)])
def test_a_family_needs_the_instances_whose_smallest_wilcoxon_p_passes_holm(family_size, needed):
    """Against scipy: n differences all of one sign give the smallest exact p, and Holm multiplies the
    smallest p by the family's size; one instance fewer can never pass."""
    assert instances_to_decide(family_size) == needed

    def smallest_adjusted(n):
        return wilcoxon(np.arange(1.0, n + 1), zero_method="wilcox").pvalue * max(family_size, 1)
    assert smallest_adjusted(needed) < ALPHA
    assert needed == 6 or smallest_adjusted(needed - 1) >= ALPHA


def needing(ratio, sd, noise=None, n=2, family=1):
    claim = Claim("x", "pairwise", "sudoku", "s", "highs", "a", "b", "time", ratio, None, None, n, "inconclusive",
                  noise=noise, sd_log_ratio=sd)
    return instances_needed(claim, family)


def test_instances_needed_on_the_difference_side_clears_the_band_and_passes_holm():
    # m = 1, s = 3, no noise factor (the band is MIN_EFFECT, 1.1): the interval's half-width 1.96 * 3 / sqrt(n)
    # below 1 - log 1.1: n >= 42.3
    assert needing(np.e, 3.0) == 43
    # m = log 4, band log 2: half-width below log 2 (s = 1: n >= 7.996) against the test's minimum
    assert needing(4.0, 1.0, noise=2.0) == 8
    assert needing(4.0, 0.5, noise=2.0) == 6
    assert needing(1 / 4.0, 1.0, noise=2.0) == 8
    # a large family: the Holm level alpha / k (z = 3.113 for k = 27, s = 1.2, m = 1.2: n >= 9.7, the family 11)
    assert needing(np.exp(1.2), 1.2, family=27) == 11
    assert needing(np.exp(1.2), 1.6, family=27) == 18     # (3.113 * 1.6 / 1.2)^2 = 17.2
    assert needing(np.exp(1.2), 1.6, family=1) == 9      # (1.96 * 1.6 / (1.2 - log 1.1))^2 = 8.05


def test_instances_needed_on_the_equivalence_side_fits_inside_the_band():
    # m = 0, band log 2, s = 1: the half-width 1.96 / sqrt(n) below log 2: n >= 7.996
    assert needing(1.0, 1.0, noise=2.0) == 8
    assert needing(1.0, 0.2, noise=2.0) == 6
    assert needing(np.sqrt(2), 1.0, noise=2.0) == 32    # margin log 2 / 2: n >= 32.0 (4 x 8.0)


def test_instances_needed_is_more_than_the_claim_has_and_none_without_a_basis():
    assert needing(np.e, 3.0, n=43) == 44
    assert needing(np.e, 0.1, n=12) == 13
    assert needing(2.0, 1.0, noise=2.0) is None       # the mean on the band's edge
    assert needing(1.1, 1.0) is None and needing(1.1, 1.0, noise=1.05) is None   # the edge at MIN_EFFECT
    assert needing(2.0, 0.0) is None and needing(2.0, None) is None and needing(None, 1.0) is None


def test_only_inconclusive_claims_carry_instances_needed():
    def claim(p, ci, n=8):
        return Claim("x", "pairwise", "sudoku", "s", "highs", "a", "b", "time", 2.0, ci, None, n, "inconclusive",
                     p_value=p, noise=1.5, sd_log_ratio=1.0)
    untested = claim(None, None, n=2)
    items = [claim(0.001, [1.6, 3.0]), claim(0.5, [0.8, 1.2]), claim(0.5, [1.2, 3.0]), untested,
             Claim("y", "pairwise", "sudoku", "s", "highs", "c", "d", "time", None, None, None, 8, "identical")]
    adjust(items)
    assert [c.verdict for c in items] == ["faster", "equivalent", "inconclusive", "inconclusive", "identical"]
    assert [c.instances_needed is None for c in items] == [True, True, False, False, True]
    # the family holds 4 comparisons (the identical pair is none): a claim needs instances_to_decide(4) = 8
    assert items[3].instances_needed == needing(2.0, 1.0, noise=1.5, family=4) >= instances_to_decide(4) == 8


def test_the_claim_keeps_the_spread_of_its_log_ratios():
    slow, fast = [2.0, 3.0, 8.0, 5.0], [1.0, 1.0, 2.0, 4.0]
    claim = claim_of({"binary": slow, "quick": fast})
    assert claim.sd_log_ratio == pytest.approx(np.std(np.log(np.array(slow) / np.array(fast)), ddof=1))
    assert claim_of({"binary": [3.0], "quick": [1.0]}).sd_log_ratio is None
    assert claim_of({"binary": [2.0, 4.0], "quick": [1.0, 1.0]}).sd_log_ratio == pytest.approx(
        np.std(np.log([2.0, 4.0]), ddof=1))


def test_a_familys_comparisons_are_its_claims_neither_identical_nor_preprocessing():
    def claim(family, verdict):
        return Claim("x", "pairwise", "sudoku", "s", "highs", "a", "b", "time", None, None, None, 8, verdict,
                     family=family)
    claims = [claim("f", "faster"), claim("f", "inconclusive"), claim("f", "identical"), claim("g", "preprocessing"),
              claim("h", "equivalent"), claim("f", "slower"), claim("g", "identical")]
    assert family_comparisons(claims) == {"f": 3, "g": 0, "h": 1}


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


def test_best_is_the_smallest_sgm_of_the_instances_that_reached_a_solver():
    times = {"binary": [1.0, 1.0, 1.0, 1.0], "quick": [0.5, 0.5, 0.5, 4.0], "propagated": [0.1, 0.1, 0.1, 0.1]}
    pre = {"propagated": [True, True, True, False]}          # 3 of 4 solved before any solver: no candidate
    data = Data.of(per_instance(times, pre))
    configs = [(f, "highs") for f in times]
    sgm = {f: np.exp(np.log(np.array(t) + 1.0).mean()) - 1.0 for f, t in times.items()}
    assert sgm["quick"] > sgm["binary"] and data.best("sudoku", None, configs, 1.0) == ("binary", "highs")
    assert data.best("sudoku", None, configs, 0.0) == ("quick", "highs")      # the shift decides
    assert data.best("sudoku", "s", configs[:1], 1.0) == ("binary", "highs")
    assert data.best("sudoku", "other-set", configs, 1.0) is None and data.best("sudoku", None, [], 1.0) is None
    half = Data.of(per_instance(times, {"propagated": [True, True, False, False]}))
    assert MAX_PREPROCESSED == 0.5 and half.best("sudoku", None, configs[2:], 1.0) == ("propagated", "highs")
    assert data.best("sudoku", None, [("absent", "highs")], 1.0) is None


def test_data_keeps_each_puzzles_instances_and_sets_apart():
    frame = pd.concat([per_instance({"binary": [1.0, 2.0]}),
                       per_instance({"binary": [3.0]}).assign(puzzle="kakuro", instance_set="k")])
    data = Data.of(frame)
    assert sorted(data.wide) == ["kakuro", "sudoku"] and data.sets("kakuro") == ["k"]
    assert data.ran("sudoku", "s", ("binary", "highs")) and not data.ran("sudoku", "k", ("binary", "highs"))
    assert not data.ran("sudoku", None, ("quick", "highs"))


def test_a_claim_carries_its_specs_names_scope_and_sides():
    frame = pd.concat([per_instance({"binary": [2.0, 4.0, 8.0], "quick": [1.0, 1.0, 1.0]}),
                       per_instance({"binary": [1.0, 1.0], "quick": [9.0, 9.0]}).assign(instance_set="t")])
    spec = Spec("best_vs_seed/sudoku/s/time", "best_vs_seed", "sudoku", "s", None, ("quick", "highs"),
                ("binary", "highs"), note="a note")
    claim = measure_claim(spec, Data.of(frame), Noise(frame.assign(solved=True, seed=0)), "wall")
    assert (claim.id, claim.kind, claim.puzzle, claim.instance_set, claim.solver) == (
        "best_vs_seed/sudoku/s/time", "best_vs_seed", "sudoku", "s", None)
    assert (claim.a, claim.b, claim.a_solver, claim.b_solver, claim.measure) == ("quick", "binary", "highs", "highs",
                                                                                 "wall")
    assert claim.n == 3 and claim.ratio == pytest.approx(4.0)        # set "s" only: t's reversed pair left out
    assert claim.note == "3 non-zero differences (< 6): not tested"
    fixed = Spec("x", "pairwise", "sudoku", "t", "highs", ("quick", "highs"), ("binary", "highs"),
                 verdict="identical", note="the same model", n=7)
    claim = measure_claim(fixed, Data.of(frame), Noise(frame.assign(solved=True, seed=0)), "time")
    assert (claim.verdict, claim.n, claim.note, claim.instance_set, claim.solver, claim.a, claim.b) == (
        "identical", 7, "the same model", "t", "highs", "quick", "binary")


def test_preprocessed_instances_of_either_side_leave_nothing_to_compare():
    """Neither side all preprocessed, but every instance is preprocessed by one of them."""
    claim = claim_of({"binary": [2.0, 4.0], "quick": [1.0, 1.0]},
                     preprocessed={"quick": [True, False], "binary": [False, True]})
    assert (claim.verdict, claim.n, claim.ratio) == ("preprocessing", 2, None)
    assert claim.note == "every instance of a side was solved before any solver ran"


def test_pair_says_a_side_is_all_preprocessed_and_gives_nothing_for_a_missing_side():
    times = {"binary": [2.0, 4.0, 8.0], "quick": [1.0, 1.0, 1.0]}
    data = Data.of(per_instance(times, {"quick": [True, True, True]}))
    d, instances, dropped, all_pre = data.pair("sudoku", None, ("quick", "highs"), ("binary", "highs"))
    assert (len(d), len(instances), dropped, all_pre) == (0, 0, 3, True)
    data = Data.of(per_instance(times, {"quick": [True, False, False]}))
    assert data.pair("sudoku", None, ("quick", "highs"), ("binary", "highs"))[2:] == (1, False)
    for a, b in ((("quick", "highs"), ("absent", "highs")), (("absent", "highs"), ("binary", "highs")),
                 (("absent", "highs"), ("other", "highs"))):
        d, instances, dropped, all_pre = data.pair("sudoku", None, a, b)
        assert (d.shape, len(instances), dropped, all_pre) == ((0,), 0, 0, False)


def test_the_noise_factor_is_the_pairs_over_the_instances_compared():
    frame = per_instance({"binary": [2.0, 4.0, 8.0, None], "quick": [1.0, 1.0, 1.0, 1.0]})
    runs = pd.concat([frame.assign(repeat=0), frame.assign(repeat=1)], ignore_index=True).assign(solved=True, seed=0)
    factor = {"p00": 1.1, "p01": 1.1, "p02": 1.1, "p03": 5.0}           # p03: only quick ran it, noisily
    second = runs["repeat"].eq(1)
    runs.loc[second, "time"] = runs.loc[second, "time"] * runs.loc[second, "instance"].map(factor)
    claim = measure_claim(Spec("x", "pairwise", "sudoku", None, "highs", ("quick", "highs"), ("binary", "highs")),
                          Data.of(frame), Noise(runs), "time")
    s = np.log(1.1) / np.sqrt(2)                       # the sd of log time over two repeats a factor 1.1 apart
    assert claim.noise == pytest.approx(np.exp(np.sqrt(2 * s * s)))
    other = frame.assign(puzzle="kakuro")
    assert np.isnan(measure_claim(Spec("x", "pairwise", "kakuro", None, "highs", ("quick", "highs"),
                                       ("binary", "highs")), Data.of(other), Noise(runs), "time").noise)


def test_best_skips_absent_and_preprocessed_configurations_and_reads_only_its_scope():
    times = {"binary": [2.0, 2.0], "quick": [1.0, 3.9], "propagated": [0.1, 0.1]}
    data = Data.of(per_instance(times, {"propagated": [True, True]}))
    configs = [("absent", "highs"), ("propagated", "highs"), ("quick", "highs"), ("binary", "highs")]
    assert data.best("sudoku", None, configs, 10.0) == ("binary", "highs")   # sqrt(11 * 13.9) - 10 > 2
    assert data.best("sudoku", None, configs, 0.0) == ("quick", "highs")     # sqrt(3.9) < 2
    frame = pd.concat([per_instance({"binary": [2.0, 2.0], "quick": [1.0, 1.0]}),
                       per_instance({"binary": [1.0], "quick": [50.0]}).assign(instance_set="t")])
    assert Data.of(frame).best("sudoku", "s", configs[2:], 1.0) == ("quick", "highs")


def test_data_of_keeps_puzzles_in_order_and_the_solver_kinds():
    frame = pd.concat([per_instance({"binary": [1.0]}),
                       per_instance({"binary": [3.0]}).assign(puzzle="kakuro", solver="cpsat", solver_kind="cp")])
    data = Data.of(frame)
    assert list(data.wide) == ["kakuro", "sudoku"] and data.kinds == {"highs": "mip", "cpsat": "cp"}
    assert data.wide["sudoku"].times.dtype == float and data.wide["sudoku"].preprocessed.dtype == bool


def test_an_interval_when_the_log_ratios_span_exactly_one():
    claim = claim_of({"binary": [1.0, np.e, np.exp(0.5)], "quick": [1.0, 1.0, 1.0]})
    assert claim.ci is not None and claim.ci[0] < claim.ratio < claim.ci[1]


def test_to_dict_gives_json_values():
    claim = Claim("x", "pairwise", "sudoku", None, "highs", "a", "b", "time", float("nan"), [np.float64(1.5), 2.0],
                  np.float64(0.01), np.int64(8), "equivalent", noise=float("inf"))
    got = claim.to_dict()
    assert got["ratio"] is None and got["noise"] is None and got["ci"] == [1.5, 2.0] and type(got["ci"][0]) is float
    assert type(got["p_adjusted"]) is float and got["n"] == 8 and type(got["n"]) is int and got["instance_set"] is None
    assert got["id"] == "x" and got["verdict"] == "equivalent"


@pytest.mark.parametrize("size", [3, 4])
def test_the_bca_interval_is_finite_on_every_small_sample_with_a_spread(size):
    """The premise of the equivalent mutant of ``_interval``'s finite guard (tests/mutation/equivalent.toml):
    on every sample of 3 or 4 values from {0, 1, 5} with a spread, scipy's BCa bounds are both finite, so
    an interval is given."""
    import itertools

    from puzzlebench.analysis.verdicts import _interval
    samples = [np.array(d, dtype=float) for d in itertools.product((0.0, 1.0, 5.0), repeat=size) if np.ptp(d) > 0]
    for d in samples:
        low, high = _interval(d)
        assert 0 < low <= np.exp(d.mean()) <= high < np.inf, d


# --- split halves ----------------------------------------------------------------------------------

@pytest.mark.parametrize("verdict, halves, holds", [
    ("faster", ["faster", "faster"], True), ("slower", ["slower", "slower"], True),
    ("faster", ["slower", "slower"], False),           # the halves agree with each other, not with the run
    ("faster", ["equivalent", "equivalent"], False), ("equivalent", ["faster", "faster"], False),
    ("faster", ["faster", "slower"], False), ("faster", ["slower", "faster"], False),
    ("faster", ["faster", None], False), ("faster", [None, "faster"], False),
    ("inconclusive", ["inconclusive", "inconclusive"], True)])
def test_a_claim_holds_in_halves_only_when_both_give_the_full_runs_verdict(verdict, halves, holds):
    assert holds_in_halves(verdict, halves) is holds


def test_the_split_half_share_is_over_the_claims_of_a_difference_only():
    def claim(verdict, holds):
        return Claim("x", "pairwise", "sudoku", "s", "highs", "a", "b", "time", 2.0, None, None, 8, verdict,
                     holds_in_halves=holds)
    directional = [claim("faster", True), claim("slower", False), claim("faster", True), claim("slower", None)]
    others = [claim(v, h) for v in ("equivalent", "inconclusive", "identical", "preprocessing") for h in (True, False)]
    assert split_share(directional) == (4, 2, 0.5)
    assert split_share(directional + others) == (4, 2, 0.5)
    assert split_share(others) == (0, 0, None) and split_share([]) == (0, 0, None)
    assert split_share([claim("slower", True)]) == (1, 1, 1.0)
