"""The verdict of one claim: its per-instance data, its ratio, interval and test, and the rule.

A claim (:class:`Claim`) compares sides a and b (each a formulation and solver) over the instances
both ran, each instance's time aggregated over its repeats and seeds first, instances solved by a
formulation's propagation before any solver ran left out.  With d_p = log(t_{p,b} / t_{p,a}):

* ratio = exp(mean d) (> 1: a takes less time), with its 95% bootstrap interval (scipy's BCa,
  2000 resamples, seed 0; at least 3 instances and a spread, else none);
* p = the two-sided Wilcoxon signed-rank test of d (:func:`~.significance.paired_test`; at least
  6 non-zero differences, else untested), Holm-adjusted within the claim's family
  (:func:`family_of`: the pairwise claims of one puzzle, instance set and solver; the claims of
  another kind of one puzzle) (:func:`adjust`);
* verdict (:func:`decide`), with g the pair's band (:func:`band`: its noise factor, at least
  :data:`MIN_EFFECT`):

  - faster when p_adjusted < ALPHA and the interval lies above g; slower when p_adjusted < ALPHA
    and it lies below 1/g;
  - equivalent when the pair was tested and the interval lies inside the noise band [1/g, g]
    (two one-sided tests in the TOST sense on the same interval: no difference beyond the noise);
  - inconclusive otherwise: untested (too few instances, no interval), or an interval that leaves
    the band while the test is not significant;
  - identical when a and b gave the same model (:mod:`~.identity`), and preprocessing when a side's
    every instance was solved before any solver ran, both fixed without a test.

An inconclusive claim with two or more instances carries ``instances_needed``
(:func:`instances_needed`): with m = mean d, s = sd d and L = log g, the instances at which an
interval of half-width z_{0.975} s / sqrt(n) would clear the band's nearer edge
(n >= (z_{0.975} s / | |m| - L |)^2), and, on the difference side (|m| > L), at which the test could
pass Holm: n >= (z_{1 - ALPHA / (2k)} s / |m|)^2 and n >= :func:`instances_to_decide` (k) for a
family of k comparisons (:func:`family_comparisons`: its claims that a test would judge with enough
instances, not only those tested now); at least the test's minimum and one more than the claim has.

Which claims a run makes and how they read is :mod:`~.claims`' job; this module is what the mutation
check gates (tests/trust/test_claim_statistics.py).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from scipy.stats import bootstrap, norm

from .noise import Noise
from .outcomes import INSTANCE
from .significance import MIN_NONZERO, paired_test
from .stats import holm

ALPHA = 0.05
CONFIDENCE = 0.95
BOOTSTRAP_RESAMPLES = 2000
VERDICTS = ("faster", "slower", "equivalent", "inconclusive", "identical", "preprocessing")
DIRECTIONAL = ("faster", "slower")
UNDECIDED = "inconclusive"
MIN_EFFECT = 1.1
"""The smallest ratio a claim counts as a difference, whatever the noise (the margin of the equivalence
test when the noise is smaller): on a quiet machine the repeats of millisecond solves scatter by 4-10%
only, and a copy of ``binary`` with one row repeated, 3-5% slower on HiGHS for the row's own cost, was
then called slower (tests/test_fair_order.py); a 10% difference is the least a paper would report."""
FIXED = ("identical", "preprocessing")
"""The verdicts given without a test."""
MAX_PREPROCESSED = 0.5
"""A configuration is a candidate for "best" only when at most this share of its instances in scope was
solved before any solver ran (its comparisons leave those instances out)."""


@dataclass
class Claim:
    """One comparison (see the module doc); None where a number does not exist."""

    id: str
    kind: str
    puzzle: str
    instance_set: str | None
    solver: str | None
    a: str
    b: str
    measure: str
    ratio: float | None
    ci: list[float] | None
    p_adjusted: float | None
    n: int
    verdict: str
    a_solver: str | None = None
    b_solver: str | None = None
    p_value: float | None = None
    family_size: int = 0
    noise: float | None = None
    preprocessed: int = 0
    holds_in_halves: bool | None = None
    note: str = ""
    text: str = ""
    family: str = ""
    sd_log_ratio: float | None = None
    instances_needed: int | None = None

    @property
    def directional(self) -> bool:
        return self.verdict in DIRECTIONAL

    def to_dict(self) -> dict:
        return {k: _plain(v) for k, v in asdict(self).items()}


def _plain(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (np.floating, np.integer)):
        return _plain(value.item())
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _label(formulation: str, solver: str | None) -> str:
    return formulation if solver is None else f"{formulation}/{solver}"


# --- the per-instance data ------------------------------------------------------------------------

@dataclass
class Wide:
    """One puzzle's per-instance times: instances x configurations (NaN: not run), in numpy."""

    instances: pd.MultiIndex       # INSTANCE tuples
    sets: np.ndarray               # each instance's set
    configs: list[tuple[str, str]] # (formulation, solver) of each column
    times: np.ndarray
    preprocessed: np.ndarray

    def column(self, config) -> int | None:
        return self._columns.get(config)

    def __post_init__(self):
        self._columns = {c: i for i, c in enumerate(self.configs)}


@dataclass
class Data:
    """Per-instance times of one run (or half of it), wide, per puzzle (:class:`Wide`)."""

    wide: dict[str, Wide]
    kinds: dict[str, str]                   # solver -> "mip" / "cp"

    @classmethod
    def of(cls, per_instance: pd.DataFrame) -> "Data":
        wide = {}
        for puzzle, part in per_instance.groupby("puzzle", sort=True):
            indexed = part.set_index([*INSTANCE, "formulation", "solver"])
            times = indexed["time"].astype(float).unstack(["formulation", "solver"]).sort_index(axis=1)
            pre = (indexed["preprocessing_solved"].astype(bool).unstack(["formulation", "solver"])
                   .reindex_like(times).fillna(False).astype(bool))
            wide[puzzle] = Wide(times.index, times.index.get_level_values(0).to_numpy(), list(times.columns),
                                times.to_numpy(float), pre.to_numpy(bool))
        kinds = dict(zip(per_instance["solver"], per_instance["solver_kind"]))
        return cls(wide, kinds)

    def sets(self, puzzle: str) -> list[str]:
        return sorted(set(self.wide[puzzle].sets))

    def configs(self, puzzle: str) -> list[tuple[str, str]]:
        return self.wide[puzzle].configs

    def ran(self, puzzle: str, instance_set: str | None, config) -> bool:
        w = self.wide[puzzle]
        j = w.column(config)
        return j is not None and bool(np.isfinite(w.times[self._rows(w, instance_set), j]).any())

    @staticmethod
    def _rows(w: Wide, instance_set: str | None) -> np.ndarray:
        return np.ones(len(w.sets), bool) if instance_set is None else w.sets == instance_set

    def pair(self, puzzle: str, instance_set: str | None, a: tuple, b: tuple):
        """(log ratios log(t_b / t_a), their instances, instances left out as preprocessed, a side all
        preprocessed?) over the instances of the scope both sides ran."""
        w = self.wide[puzzle]
        ja, jb = w.column(a), w.column(b)
        if ja is None or jb is None:
            return np.zeros(0), w.instances[:0], 0, False
        both = self._rows(w, instance_set) & np.isfinite(w.times[:, ja]) & np.isfinite(w.times[:, jb])
        pre_a, pre_b = w.preprocessed[both, ja], w.preprocessed[both, jb]
        all_pre = bool(both.any()) and (pre_a.all() or pre_b.all())
        kept = both.copy()
        kept[both] = ~(pre_a | pre_b)
        d = np.log(w.times[kept, jb] / w.times[kept, ja])
        return d, w.instances[kept], int((pre_a | pre_b).sum()), all_pre

    def best(self, puzzle: str, instance_set: str | None, configs, shift: float):
        """The configuration of ``configs`` with the smallest SGM over its instances of the scope that
        reached a solver, among those for which most did; None when there is none."""
        w = self.wide[puzzle]
        rows = self._rows(w, instance_set)
        scores = []
        for config in configs:
            j = w.column(config)
            if j is None:
                continue
            ran = rows & np.isfinite(w.times[:, j])
            if not ran.any() or w.preprocessed[ran, j].mean() > MAX_PREPROCESSED:
                continue
            values = w.times[ran & ~w.preprocessed[:, j], j]
            sgm = float(np.exp(np.log(values + shift).mean()) - shift)
            scores.append((sgm, config))
        return min(scores)[1] if scores else None


# --- one claim ------------------------------------------------------------------------------------

def _interval(d: np.ndarray) -> list[float] | None:
    """The 95% BCa bootstrap interval of exp(mean d); None below 3 values or without a spread (then
    no resample differs), or when scipy gives a bound that is not finite."""
    if len(d) < 3 or np.ptp(d) == 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ci = bootstrap((d,), np.mean, confidence_level=CONFIDENCE, n_resamples=BOOTSTRAP_RESAMPLES,
                       method="BCa", random_state=0).confidence_interval
    if np.isfinite(ci.low) and np.isfinite(ci.high):
        return [float(np.exp(ci.low)), float(np.exp(ci.high))]
    return None


@dataclass
class Spec:
    """What one claim compares: sides (formulation, solver) on a scope, or a fixed verdict."""

    id: str
    kind: str
    puzzle: str
    instance_set: str | None
    solver: str | None
    a: tuple[str, str]
    b: tuple[str, str]
    verdict: str | None = None       # identical / preprocessing, decided without a test
    note: str = ""
    n: int = 0


def measure_claim(spec: Spec, data: Data, noise: Noise, measure: str) -> Claim:
    """The claim of ``spec`` before the Holm adjustment (``p_adjusted`` still the raw p)."""
    claim = Claim(spec.id, spec.kind, spec.puzzle, spec.instance_set, spec.solver, spec.a[0], spec.b[0], measure,
                  None, None, None, spec.n, spec.verdict or UNDECIDED,
                  a_solver=spec.a[1], b_solver=spec.b[1], note=spec.note)
    if spec.verdict is not None:
        return claim
    d, instances, dropped, all_pre = data.pair(spec.puzzle, spec.instance_set, spec.a, spec.b)
    claim.preprocessed = dropped
    if all_pre or (dropped and not len(d)):
        claim.verdict, claim.n = "preprocessing", dropped
        claim.note = "every instance of a side was solved before any solver ran"
        return claim
    claim.n = len(d)
    if not len(d):
        claim.note = "no instance both sides ran"
        return claim
    claim.ratio = float(np.exp(d.mean()))
    claim.sd_log_ratio = float(d.std(ddof=1)) if len(d) >= 2 else None
    claim.ci = _interval(d)
    _, p, note = paired_test(d)
    claim.p_value = None if math.isnan(p) else p
    claim.note = note
    claim.noise = noise.pair_factor(spec.puzzle, spec.a, spec.b, instances)
    return claim


def band(claim: Claim) -> float:
    """The factor g of the claim's band [1/g, g]: its pair's noise factor, never below
    :data:`MIN_EFFECT` (no noise factor: MIN_EFFECT)."""
    noise = claim.noise if claim.noise is not None and math.isfinite(claim.noise) else 1.0
    return max(noise, MIN_EFFECT)


def decide(claim: Claim) -> str:
    """faster / slower / equivalent / inconclusive from the adjusted p, the interval and the noise
    factor (module doc)."""
    if claim.verdict in FIXED:
        return claim.verdict
    if claim.p_adjusted is None or claim.ci is None:
        return UNDECIDED
    g = band(claim)
    low, high = claim.ci
    if claim.p_adjusted < ALPHA and low > g:
        return "faster"
    if claim.p_adjusted < ALPHA and high < 1 / g:
        return "slower"
    if 1 / g <= low and high <= g:
        return "equivalent"
    return UNDECIDED


def family_of(claim: Claim) -> str:
    """The claim's Holm family: ``pairwise/<puzzle>/<set>/<solver>`` for a pairwise claim, else
    ``<kind>/<puzzle>``."""
    if claim.kind == "pairwise":
        return f"pairwise/{claim.puzzle}/{claim.instance_set}/{claim.solver}"
    return f"{claim.kind}/{claim.puzzle}"


def instances_to_decide(family_size: int) -> int:
    """The fewest non-zero differences with which a claim of a family of ``family_size`` tested claims
    can pass Holm: the smallest two-sided Wilcoxon p of n differences is 2 / 2^n, and Holm multiplies
    the smallest p by the family's size, so n > log2(2 k / ALPHA); at least the test's minimum."""
    return max(MIN_NONZERO, math.floor(math.log2(2 * max(family_size, 1) / ALPHA)) + 1)


def instances_needed(claim: Claim, family_claims: int) -> int | None:
    """How many instances would decide an inconclusive claim, from its observed mean and spread
    (module doc), in a family of ``family_claims`` comparisons (its claims that are neither identical
    nor preprocessing: those a test would judge with enough instances); None below two instances,
    without a spread, or with the mean on the band's edge."""
    if claim.ratio is None or claim.sd_log_ratio is None or not claim.sd_log_ratio > 0:
        return None
    m, s, edge = abs(math.log(claim.ratio)), claim.sd_log_ratio, math.log(band(claim))
    if m == edge:
        return None
    needed = (norm.ppf(0.5 + CONFIDENCE / 2) * s / abs(m - edge)) ** 2
    if m > edge:
        k = max(family_claims, 1)
        needed = max(needed, (norm.ppf(1 - ALPHA / (2 * k)) * s / m) ** 2, instances_to_decide(k))
    return max(math.ceil(needed), MIN_NONZERO, claim.n + 1)


def adjust(claims: list[Claim]) -> None:
    """Holm over the tested claims of each family (:func:`family_of`), then every verdict and each
    inconclusive claim's ``instances_needed`` (:func:`family_comparisons`)."""
    families: dict[str, list[Claim]] = {}
    for claim in claims:
        claim.family = family_of(claim)
        if claim.p_value is not None:
            families.setdefault(claim.family, []).append(claim)
    for tested in families.values():
        for claim, p in zip(tested, holm([c.p_value for c in tested])):
            claim.p_adjusted, claim.family_size = float(p), len(tested)
    comparisons = family_comparisons(claims)
    for claim in claims:
        claim.verdict = decide(claim)
        claim.instances_needed = (instances_needed(claim, comparisons[claim.family])
                                  if claim.verdict == UNDECIDED else None)


def family_comparisons(claims: list[Claim]) -> dict[str, int]:
    """Per family, its comparisons: the claims neither identical nor preprocessing."""
    counts: dict[str, int] = {}
    for claim in claims:
        counts[claim.family] = counts.get(claim.family, 0) + (claim.verdict not in FIXED)
    return counts


def holds_in_halves(verdict: str, halves: list[str | None]) -> bool:
    """Whether a claim replicates across split halves: both halves give the full run's verdict (two
    halves that agree with each other but not with the full run do not)."""
    return halves[0] == halves[1] == verdict


def split_share(claims: list[Claim]) -> tuple[int, int, float | None]:
    """(claims of a difference, those of them that hold in both halves, their share; None without
    one): the population is the faster/slower claims only, never the other verdicts."""
    directional = [c for c in claims if c.directional]
    hold = sum(bool(c.holds_in_halves) for c in directional)
    return len(directional), hold, hold / len(directional) if directional else None
