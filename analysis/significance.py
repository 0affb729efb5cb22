"""Wilcoxon signed-rank tests between formulations, per puzzle and solver, paired by instance."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon

from .outcomes import INSTANCE
from .stats import holm

MIN_NONZERO = 6
"""With fewer non-zero differences the exact two-sided p-value cannot fall below 2 / 2^5 = 0.0625."""

COLUMNS = ["puzzle", "solver", "formulation_a", "formulation_b", "n", "n_nonzero", "median_ratio",
           "a_faster", "b_faster", "statistic", "p_value", "p_holm", "note"]


def _test(log_ratios: np.ndarray) -> tuple[float, float, str]:
    nonzero = np.count_nonzero(log_ratios)
    if nonzero < MIN_NONZERO:
        return np.nan, np.nan, f"{nonzero} non-zero differences (< {MIN_NONZERO}): not tested"
    result = wilcoxon(log_ratios, zero_method="wilcox", alternative="two-sided")
    return float(result.statistic), float(result.pvalue), ""


def wilcoxon_table(instance_times: pd.DataFrame) -> pd.DataFrame:
    """Every pair of formulations (a < b by name) of each puzzle and solver, one row each.

    The pairs are the instances both formulations ran; d_p = log(t_{p,a} / t_{p,b})
    with t the instance's mean time over seeds (unsolved at the time limit).
    ``median_ratio`` = exp(median d) (< 1: a faster); ``a_faster``/``b_faster``
    count d < 0 and d > 0; ``statistic`` is scipy's two-sided min(W+, W-).  scipy's two-sided signed-rank test discards zero
    differences (zero_method "wilcox") and picks its method itself (exact for
    n <= 50 without ties or zeros, permutations for ties with n <= 13, else the
    normal approximation).  Fewer than 6 non-zero differences: NaN and a note.
    ``p_holm`` is Holm's adjustment over every test of the table.
    """
    rows = []
    for (puzzle, solver), group in instance_times.groupby(["puzzle", "solver"], sort=True, dropna=False):
        times = group.set_index([*INSTANCE, "formulation"])["time"].unstack("formulation")
        for a, b in combinations(sorted(times.columns), 2):
            pair = times[[a, b]].dropna()
            d = np.log(pair[a].to_numpy(float) / pair[b].to_numpy(float))
            statistic, p_value, note = _test(d)
            rows.append((puzzle, solver, a, b, len(d), int(np.count_nonzero(d)),
                         float(np.exp(np.median(d))) if len(d) else np.nan, int((d < 0).sum()),
                         int((d > 0).sum()), statistic, p_value, np.nan, note))
    table = pd.DataFrame(rows, columns=COLUMNS)
    return table.assign(p_holm=holm(table["p_value"]))
