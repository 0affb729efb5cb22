"""Which puzzles of a set a study runs: a sample stratified by calibrated difficulty.

``puzzlebench calibrate SET`` times every puzzle of a set on one reference configuration
(:data:`REFERENCE`) and writes ``<set folder>/calibration.csv``: one row per puzzle, with the
command, date, machine, load and versions in ``#`` lines above the header, so the choice of a
study's puzzles is reproducible and documented with the set.

The config key ``sample: {per_set: N, min_time: T0, max_time: T1, strata: K}`` then picks N
puzzles of each set that has a calibration (:func:`choose`):

* the eligible puzzles are those whose calibrated time t is in [T0, T1] (seconds);
* [T0, T1] is cut into K strata of equal width on a log scale, and the N places are shared
  among the strata as evenly as their sizes allow (a stratum with fewer puzzles than its share
  gives the rest to the others);
* in each stratum the puzzles are taken evenly spaced by time rank (the fastest and the
  slowest of the stratum first), so each stratum is covered from end to end;
* when fewer than N puzzles are eligible, all of them are taken and the rest is filled with the
  puzzles closest to the band (by |log t - log band edge|), so a set of easy puzzles still gives
  its hardest ones.

The sample keeps set order; ``max_instances`` (when not 0) then keeps its first puzzles.  A set
without a calibration file is taken as without ``sample`` (its first ``max_instances``).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path

from ..errors import PuzzleError

CALIBRATION_FILE = "calibration.csv"
REFERENCE = {"formulation": "binary", "solver": "highs", "time_limit": 10.0, "seed": 0, "threads": 1}
"""The reference configuration of a calibration: the seed model on HiGHS, one thread, seed 0."""
CALIBRATION_COLUMNS = ("instance", "size", "givens", "formulation", "solver", "seed", "time_limit", "status",
                       "time", "solver_time", "build_time", "wall_time", "nodes", "preprocessing_solved")
"""``time`` is the analysis' time (solver time + build time), the time limit for an unsolved run."""


@dataclass(frozen=True)
class Sample:
    """The ``sample`` config key (see the module doc)."""

    per_set: int
    min_time: float = 0.05
    max_time: float = 5.0
    strata: int = 3

    @classmethod
    def from_config(cls, value) -> "Sample | None":
        if not value:
            return None
        per_set = value.get("per_set")
        if isinstance(per_set, float) and per_set.is_integer():  # 3.0: the schema's integer, a count here
            value = {**value, "per_set": int(per_set)}
        sample = cls(**value)
        if not sample.min_time < sample.max_time:
            raise PuzzleError(f"config sample: min_time {sample.min_time:g} must be below max_time "
                              f"{sample.max_time:g}")
        return sample


def calibration_path(iset) -> Path:
    return Path(iset.path) / CALIBRATION_FILE


def read_calibration(iset) -> dict[str, float] | None:
    """Puzzle name -> calibrated time (seconds) of the set's calibration file, or None without one."""
    path = calibration_path(iset)
    if not path.is_file():
        return None
    text = "".join(line for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
                   if not line.startswith("#"))
    times = {}
    for number, row in enumerate(csv.DictReader(io.StringIO(text)), 2):
        try:
            times[row["instance"]] = float(row["time"])
        except (KeyError, TypeError, ValueError):
            raise PuzzleError(f"row {number}: no instance and time (rerun `puzzlebench calibrate "
                              f"{iset.name}`)", path=str(path)) from None
    return times


def _spread(items: list, count: int) -> list:
    """``count`` of ``items`` (sorted), evenly spaced by rank, both ends first."""
    if count >= len(items):
        return list(items)
    if count == 1:
        return [items[len(items) // 2]]
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]


def _shares(sizes: list[int], total: int) -> list[int]:
    """``total`` places shared among strata of ``sizes`` as evenly as the sizes allow."""
    shares = [0] * len(sizes)
    left = min(total, sum(sizes))
    while left:
        open_ = [i for i, size in enumerate(sizes) if shares[i] < size]
        each = max(1, left // len(open_))
        for i in open_:
            take = min(each, sizes[i] - shares[i], left)
            shares[i] += take
            left -= take
            if not left:
                break
    return shares


def stratified(times: dict[str, float], sample: Sample) -> list[str]:
    """The names :func:`choose` picks from calibrated ``times`` (see the module doc), unordered."""
    low, high = math.log(sample.min_time), math.log(sample.max_time)
    eligible = sorted((t, name) for name, t in times.items() if sample.min_time <= t <= sample.max_time)
    if len(eligible) <= sample.per_set:
        def distance(item):
            t, name = item
            return (min(abs(math.log(max(t, 1e-9)) - low), abs(math.log(max(t, 1e-9)) - high)), name)
        rest = sorted(((t, name) for name, t in times.items() if not sample.min_time <= t <= sample.max_time),
                      key=distance)
        return [name for _, name in eligible + rest[: sample.per_set - len(eligible)]]
    width = (high - low) / sample.strata
    strata: list[list] = [[] for _ in range(sample.strata)]
    for t, name in eligible:
        strata[min(sample.strata - 1, int((math.log(t) - low) / width))].append((t, name))
    shares = _shares([len(s) for s in strata], sample.per_set)
    return [name for stratum, share in zip(strata, shares) for _, name in _spread(stratum, share)]


def choose(iset, sample: Sample | None, max_instances: int = 0) -> list:
    """The entries of ``iset`` a study runs: the stratified sample when ``sample`` is given and the
    set has a calibration, else all; then the first ``max_instances`` (0 = all)."""
    entries = iset.entries()
    times = read_calibration(iset) if sample is not None else None
    if times is not None:
        if missing := [e.name for e in entries if e.name not in times]:
            raise PuzzleError(f"{calibration_path(iset)}: no calibration of {missing[0]} (and "
                              f"{len(missing) - 1} more); rerun `puzzlebench calibrate {iset.name}`")
        chosen = set(stratified(times, sample))
        entries = [e for e in entries if e.name in chosen]
    return entries[:max_instances] if max_instances else entries
