"""Measurement noise per configuration and instance, from the repeated runs.

A *cell* is one configuration (formulation, solver) on one instance with one seed.  Its repeats
(the ``repeat`` column) differ only by the machine's noise, so the noise of one run is estimated
from them: the variance v of log time over the cell's solved repeats (ddof 1, df = k - 1).  Pooled
over cells, s^2 = sum(df v) / sum(df), and exp(s) is the configuration's geometric standard
deviation of one run.  Without repeats, the seeds of an instance stand in (their spread holds the
solver's performance variability too, so the band is wider); with one seed and no repeats, the
fixed reference puzzle's geometric standard deviation (noise.csv) does; with none of these there
is no noise band.

A comparison of configurations a and b over instances P has the noise factor
g = exp(sqrt(s_a^2 + s_b^2)), s pooled over the cells of P: the spread of the ratio of one run of
each.  A ratio counts as a difference only when its confidence interval lies beyond [1/g, g].
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .outcomes import CONFIG, INSTANCE

SOURCES = ("repeats", "seeds", "reference", "none")
CELL = ["puzzle", *CONFIG, *INSTANCE, "seed"]


def cell_variances(runs: pd.DataFrame) -> pd.DataFrame:
    """Per cell with two or more solved repeats (preprocessing-solved runs left out): ``df`` = k - 1
    and ``var`` = the variance of log time (ddof 1)."""
    solved = runs[runs["solved"] & ~runs["preprocessing_solved"] & (runs["time"] > 0)]
    logs = np.log(solved["time"].astype(float)).groupby([solved[k] for k in CELL], sort=True)
    table = pd.DataFrame({"k": logs.size(), "var": logs.var(ddof=1)}).reset_index()
    table = table[table["k"] >= 2]
    return table.assign(df=table["k"] - 1)[[*CELL, "df", "var"]]


def seed_variances(runs: pd.DataFrame) -> pd.DataFrame:
    """Per configuration and instance with two or more seeds: the variance of log(median time of each
    seed's repeats) over the seeds, as :func:`cell_variances` (``seed`` -1)."""
    solved = runs[runs["solved"] & ~runs["preprocessing_solved"] & (runs["time"] > 0)]
    per_seed = solved.groupby(CELL, sort=True)["time"].median()
    logs = np.log(per_seed).groupby(level=[k for k in CELL if k != "seed"], sort=True)
    table = pd.DataFrame({"k": logs.size(), "var": logs.var(ddof=1)}).reset_index()
    table = table[table["k"] >= 2]
    return table.assign(df=table["k"] - 1, seed=-1)[[*CELL, "df", "var"]]


class Noise:
    """The noise of configurations over instances (see the module doc)."""

    def __init__(self, runs: pd.DataFrame, reference: float = float("nan")):
        cells = cell_variances(runs)
        self.source = "repeats"
        if not len(cells):
            cells, self.source = seed_variances(runs), "seeds"
        if not len(cells):
            self.source = "reference" if math.isfinite(reference) and reference > 0 else "none"
        self.cells = cells
        self.reference = reference
        self._by_config: dict[tuple, list[tuple]] = {}
        for row in cells.itertuples(index=False):
            self._by_config.setdefault((row.puzzle, row.formulation, row.solver), []).append(
                ((row.instance_set, row.instance, row.permutation), row.df, row.var))

    def log_sd(self, puzzle: str, formulation: str, solver: str, instances: pd.Index | None = None) -> float:
        """s of one run of the configuration, pooled over ``instances`` (INSTANCE tuples; None: all)."""
        if self.source == "reference":
            return math.log(self.reference)
        if self.source == "none":
            return 0.0
        cells = self._by_config.get((puzzle, formulation, solver), [])
        if instances is not None:
            wanted = set(instances)
            cells = [cell for cell in cells if cell[0] in wanted]
        df = sum(cell[1] for cell in cells)
        if not df:
            return float("nan")
        return float(math.sqrt(sum(cell[1] * cell[2] for cell in cells) / df))

    def pair_factor(self, puzzle: str, a: tuple[str, str], b: tuple[str, str], instances: pd.Index) -> float:
        """g = exp(sqrt(s_a^2 + s_b^2)) over ``instances``; a side without an estimate of its own
        takes the other side's (NaN when neither has one)."""
        sa, sb = (self.log_sd(puzzle, f, s, instances) for f, s in (a, b))
        sa, sb = (sb if math.isnan(sa) else sa), (sa if math.isnan(sb) else sb)
        if math.isnan(sa):
            return float("nan")
        return float(math.exp(math.sqrt(sa * sa + sb * sb)))

    def table(self) -> pd.DataFrame:
        """Per puzzle, instance set and configuration: the cells pooled, their degrees of freedom,
        the pooled geometric standard deviation of one run and the largest cell's."""
        columns = ["puzzle", "instance_set", *CONFIG, "source", "cells", "df", "geometric_sd", "max_cell_sd"]
        if not len(self.cells):
            return pd.DataFrame(columns=columns)
        cells = self.cells.assign(weighted=self.cells["df"] * self.cells["var"])
        grouped = cells.groupby(["puzzle", "instance_set", *CONFIG], sort=True)
        table = grouped.agg(cells=("df", "size"), df=("df", "sum"), weighted=("weighted", "sum"),
                            max_var=("var", "max")).reset_index()
        return table.assign(source=self.source, geometric_sd=np.exp(np.sqrt(table["weighted"] / table["df"])),
                            max_cell_sd=np.exp(np.sqrt(table["max_var"])))[columns]
