"""Wilcoxon signed-rank tests between paired per-instance times, and the table of the pairwise claims."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon

MIN_NONZERO = 6
"""With fewer non-zero differences the exact two-sided p-value cannot fall below 2 / 2^5 = 0.0625."""

COLUMNS = ["puzzle", "instance_set", "solver", "formulation_a", "formulation_b", "n", "n_nonzero", "a_less",
           "b_less", "ratio", "ci_low", "ci_high", "noise", "statistic", "p_value", "p_holm", "verdict", "note"]


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


def wilcoxon_table(claims, data) -> pd.DataFrame:
    """The pairwise claims (:mod:`~puzzlebench.analysis.claims`, kind ``pairwise``) as a table.

    Per puzzle, instance set, solver and pair a < b: ``n`` instances paired (preprocessing-solved
    ones left out), ``n_nonzero`` of them with a difference, ``a_less``/``b_less`` those where a
    (b) took less time; ``ratio`` the geometric mean of t_b / t_a (> 1: a takes less time) with its
    95% interval ``ci_low``-``ci_high``; ``noise`` the pair's noise factor; ``statistic`` and
    ``p_value`` the two-sided Wilcoxon signed-rank test of log(t_b / t_a), ``p_holm`` its Holm
    adjustment over the pairwise claims; ``verdict`` the claim's."""
    rows = []
    for claim in claims:
        if claim.kind != "pairwise":
            continue
        a, b = (claim.a, claim.solver), (claim.b, claim.solver)
        d = data.pair(claim.puzzle, claim.instance_set, a, b)[0] if claim.ratio is not None else np.zeros(0)
        statistic = paired_test(d)[0] if len(d) else np.nan
        low, high = claim.ci or (np.nan, np.nan)
        rows.append((claim.puzzle, claim.instance_set, claim.solver, claim.a, claim.b, claim.n,
                     int(np.count_nonzero(d)), int((d > 0).sum()), int((d < 0).sum()),
                     np.nan if claim.ratio is None else claim.ratio, low, high,
                     np.nan if claim.noise is None else claim.noise, statistic,
                     np.nan if claim.p_value is None else claim.p_value,
                     np.nan if claim.p_adjusted is None else claim.p_adjusted, claim.verdict, claim.note))
    return pd.DataFrame(rows, columns=COLUMNS)
