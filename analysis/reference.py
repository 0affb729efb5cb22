"""The reference side of every comparison: the constraint-programming solver configurations.

A solver configuration is on the reference side when its runs' ``solver_kind`` is "cp"
(:data:`~puzzlebench.analysis.outcomes.REFERENCE_KIND`; :func:`~puzzlebench.analysis.outcomes.prepare_runs`
fills the kind of runs written before that field existed).  Every table, figure and sentence that
compares MIP with CP asks :func:`reference_solvers`.
"""

from __future__ import annotations

import pandas as pd

from .outcomes import REFERENCE_KIND, solver_kinds


def reference_solvers(runs: pd.DataFrame) -> frozenset[str]:
    """The names (``solver`` column) of the reference-side solver configurations among ``runs``."""
    return frozenset(runs.loc[solver_kinds(runs).eq(REFERENCE_KIND), "solver"].dropna())
