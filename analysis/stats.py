"""Pure statistics of benchmark results: shifted geometric means, performance
profiles, the virtual best, power-law growth with its confidence interval, spread and Holm's
adjustment."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import statsmodels.api as sm

from .outcomes import CONFIG, INSTANCE


def shifted_geometric_mean(values, shift: float) -> float:
    """SGM_s(t_1..t_k) = exp((1/k) * sum_i log(t_i + s)) - s, over the non-missing values (NaN if none).

    The result is clipped to [min t, max t], where it lies exactly, to drop rounding error
    (equal values give back that value, e.g. 0 nodes with shift 100 give 0, not 1e-13).
    """
    values = pd.Series(np.asarray(values, dtype=float))
    return float(grouped_sgm(values, np.zeros(len(values)), shift).get(0.0, np.nan))


def grouped_sgm(values: pd.Series, by, shift: float) -> pd.Series:
    """:func:`shifted_geometric_mean` of ``values`` within each group of ``by`` (missing values skipped)."""
    grouped = values.astype(float).groupby(by, sort=True, dropna=False)
    logs = np.log(values.astype(float) + shift).groupby(by, sort=True, dropna=False).mean()
    return (np.exp(logs) - shift).clip(lower=grouped.min(), upper=grouped.max())


def performance_ratios(instance_times: pd.DataFrame) -> pd.DataFrame:
    """Dolan-Moré performance ratios of one puzzle: instances x configurations.

    r_{p,c} = t_{p,c} / min_{c'} t_{p,c'} with t = inf when configuration c did
    not solve instance p (so r = inf; also when no configuration solved p).
    Only the instances every configuration ran are kept (a profile compares
    configurations on one problem set).  ``instance_times`` has one row per
    configuration and instance with ``time`` and ``solved``
    (:func:`~puzzlebench.analysis.outcomes.instance_times`).
    """
    times = instance_times["time"].where(instance_times["solved"], np.inf)
    wide = times.set_axis(pd.MultiIndex.from_frame(instance_times[INSTANCE + CONFIG])).unstack(CONFIG)
    wide = wide.dropna()
    best = wide.min(axis=1)
    return wide.div(best, axis=0).where(np.isfinite(best), np.inf, axis=0)


def performance_profile(ratios: pd.DataFrame) -> pd.DataFrame:
    """rho_c(tau) = |{p : log2 r_{p,c} <= tau}| / |P| at every breakpoint tau (log2 scale, from 0).

    Rows are the sorted distinct finite values of log2 r plus 0; columns the configurations.
    """
    logs = np.log2(ratios.to_numpy(dtype=float))
    taus = np.unique(np.concatenate([[0.0], logs[np.isfinite(logs)]]))
    counts = [np.searchsorted(np.sort(column), taus, side="right") for column in logs.T]
    shares = np.array(counts, dtype=float).reshape(len(counts), len(taus)).T / max(len(logs), 1)
    return pd.DataFrame(shares, index=pd.Index(taus, name="log2_tau"), columns=ratios.columns)


def virtual_best(runs: pd.DataFrame) -> pd.DataFrame:
    """The virtual best solver: per puzzle, instance and seed, the fastest configuration's run.

    time = min over configurations of ``time`` (unsolved runs count at the time
    limit); solved = some configuration solved it.  Seeds are matched by
    number, so the virtual best has as many observations as one configuration.
    """
    keys = ["puzzle", *INSTANCE, "seed"]
    return runs.groupby(keys, sort=True, dropna=False).agg(
        time=("time", "min"), solved=("solved", "any"), configurations=("time", "size")).reset_index()


@dataclass(frozen=True)
class PowerLaw:
    """y ~ c * n^k fitted by ordinary least squares of log y on log n, with the
    ``level`` confidence interval [k_low, k_high] of k (t distribution, points - 2 degrees of freedom)."""

    k: float
    k_low: float
    k_high: float
    c: float
    points: int
    sizes: int


def power_law_fit(n, y, level: float = 0.95) -> PowerLaw:
    """:class:`PowerLaw` of the points with n > 0 and y > 0 (statsmodels OLS); NaNs unless two sizes,
    and an infinite-width interval unless three points."""
    n, y = np.asarray(n, dtype=float), np.asarray(y, dtype=float)
    keep = (n > 0) & (y > 0) & np.isfinite(n) & np.isfinite(y)
    sizes = len(np.unique(n[keep]))
    if sizes < 2:
        return PowerLaw(np.nan, np.nan, np.nan, np.nan, int(keep.sum()), sizes)
    fit = sm.OLS(np.log(y[keep]), sm.add_constant(np.log(n[keep]))).fit()
    intercept, slope = fit.params
    if keep.sum() > 2 and np.isfinite(fit.bse[1]) and fit.bse[1] > 0:
        low, high = fit.conf_int(alpha=1 - level)[1]
    else:  # an exact fit: the slope is known exactly when the residuals are 0, unknown with 2 points
        low, high = (slope, slope) if keep.sum() > 2 else (-np.inf, np.inf)
    return PowerLaw(float(slope), float(low), float(high), float(np.exp(intercept)), int(keep.sum()), sizes)


def spread(values: pd.Series, by) -> pd.DataFrame:
    """Per group of ``by``: k (count), max/min ratio and the coefficient of variation std/mean (std with ddof=1)."""
    grouped = values.astype(float).groupby(by, sort=True, dropna=False)
    stats = grouped.agg(["size", "min", "max", "mean", "std"])
    return pd.DataFrame({"k": stats["size"], "max_min_ratio": stats["max"] / stats["min"],
                         "cv": stats["std"] / stats["mean"]})


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjustment of the non-NaN p-values; NaN stays NaN:
    p_(i) -> max_{j <= i} min(1, (m - j + 1) p_(j)), m = number of non-NaN p.

    The formula of statsmodels ``multipletests(method="holm")`` (tests/test_analysis.py checks they
    agree), written out because that function runs a full garbage collection on every call, which
    costs a tenth of a second in a large process and is called once per family."""
    p = np.asarray(pvalues, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    finite = np.flatnonzero(~np.isnan(p))
    if len(finite):
        order = finite[np.argsort(p[finite], kind="stable")]
        steps = np.maximum.accumulate(p[order] * np.arange(len(order), 0, -1))
        adjusted[order] = np.minimum(1.0, steps)
    return adjusted
