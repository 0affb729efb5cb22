"""The solver contract: what every adapter takes (:class:`SolveOptions`) and returns
(:class:`SolverResult`, its figures :class:`SolveFigures`), and the statuses a solve ends with.

The run layer sends these across the solver process and the store keeps their fields in each
:class:`~puzzlebench.store.records.RunRecord`; neither defines them."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

STATUSES = ("optimal", "feasible", "infeasible", "time_limit", "error", "skipped")
"""What a solve ended with; ``skipped``: the run was not made (the formulation does not apply to
the puzzle or could not be built, the solver cannot take the model, or a commercial solver's
licence limits the model's size) or made no grid because the formulation's decode failed, the
reason in ``message``."""


@dataclass
class SolveOptions:
    """The options every solver adapter honours.

    ``solver_options`` go to the solver's own option interface unchanged (HiGHS
    ``setOptionValue``, SCIP ``setParam``, ...), after the common options, so
    an explicit solver option wins over a common one.
    """

    threads: int = 1
    seed: int = 0
    time_limit: float = 60.0
    mip_gap: float = 0.0
    verbose: bool = False
    solver_options: dict = field(default_factory=dict)


@dataclass(kw_only=True)
class SolveFigures:
    """The figures a solver gives of one solve (keyword-only; None where it gives none): its own
    time, branch-and-bound nodes, LP iterations, primal and dual bound, the presolved model's rows
    and columns, and the root LP's time.  What an adapter reads (``solvers.base.Reading``) and what
    it returns (:class:`SolverResult`) both carry them: one list of the figures."""

    solver_time: float | None = None
    nodes: int | None = None
    lp_iterations: int | None = None
    primal_bound: float | None = None
    dual_bound: float | None = None
    presolved_rows: int | None = None
    presolved_cols: int | None = None
    root_lp_time: float | None = None


FIGURE_TYPES = {f.name: int if f.type.startswith("int") else float for f in fields(SolveFigures)}
"""Each figure -> its type (int or float)."""


@dataclass
class SolverResult(SolveFigures):
    """What an adapter returns for one model: status, solution vector and the figures.

    ``x`` is None unless a feasible point was found.  Missing figures are None.
    ``skipped`` means the solver did not take the model (a licence size limit,
    say), the reason in ``message``.  ``root_solved``: the root node settled the model.
    """

    status: str
    x: np.ndarray | None = None
    message: str = ""
    root_solved: bool | None = None
    log: str = ""

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")
