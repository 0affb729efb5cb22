"""The reference side of every comparison: the constraint-programming solver configurations.

A solver configuration is on the reference side when its runs' ``solver_kind`` is "cp" (solver
configurations, issue 13); runs written before that field existed fall back to the solver name
``cpsat``.  Every table, figure and sentence that compares MIP with CP asks :func:`reference_solvers`.
"""

from __future__ import annotations

import pandas as pd

from .outcomes import REFERENCE_SOLVER

REFERENCE_KIND = "cp"


def reference_solvers(runs: pd.DataFrame) -> frozenset[str]:
    """The names (``solver`` column) of the reference-side solver configurations among ``runs``."""
    by_name = runs["solver"].eq(REFERENCE_SOLVER)
    if "solver_kind" in runs:
        kind = runs["solver_kind"]
        by_name = kind.eq(REFERENCE_KIND).where(kind.notna(), by_name).astype(bool)
    return frozenset(runs.loc[by_name, "solver"].dropna())
