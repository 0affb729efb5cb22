"""The Wilcoxon signed-rank test of paired per-instance times (behind every claim's p-value)."""

from __future__ import annotations

import numpy as np
from scipy.stats import wilcoxon

MIN_NONZERO = 6
"""With fewer non-zero differences the exact two-sided p-value cannot fall below 2 / 2^5 = 0.0625."""


def paired_test(log_ratios: np.ndarray) -> tuple[float, float, str]:
    """(statistic, two-sided p, note) of scipy's Wilcoxon signed-rank test of ``log_ratios``.

    Zero differences are discarded (zero_method "wilcox"); scipy picks its method itself (exact
    for n <= 50 without ties or zeros, permutations for ties with n <= 13, else the normal
    approximation).  Fewer than :data:`MIN_NONZERO` non-zero differences: NaN and a note."""
    nonzero = np.count_nonzero(log_ratios)
    if nonzero < MIN_NONZERO:
        return np.nan, np.nan, f"{nonzero} non-zero differences (< {MIN_NONZERO}): not tested"
    result = wilcoxon(log_ratios, zero_method="wilcox", alternative="two-sided")
    return float(result.statistic), float(result.pvalue), ""
