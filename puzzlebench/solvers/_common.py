"""Pieces every solver adapter shares: the guarded, log-capturing solve and solution rounding.

Status conventions (all adapters):

- ``optimal``: the solver proved optimality within the requested relative gap
  ``options.mip_gap`` (with gap 0, proven optimal; a feasibility model whose
  objective is 0 is optimal as soon as it has a solution);
- ``feasible``: a solution, stopped for another reason than the time limit;
- ``infeasible``: the solver proved that no solution exists;
- ``time_limit``: the time limit ended the solve, with ``x`` set when a solution
  was found and None otherwise;
- ``error``: anything else, with the reason in ``message``.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..records import SolveOptions, SolverResult
from ._capture import captured_output


def captured_solve(solve: Callable[[], SolverResult], options: SolveOptions) -> SolverResult:
    """Run ``solve()`` with the C-level output captured (echoed live when verbose).

    An exception becomes ``SolverResult(status="error")`` carrying its text; the
    captured log is attached to the result either way.
    """
    with captured_output(echo=options.verbose) as out:
        try:
            result = solve()
        except Exception as exc:  # an adapter never lets a solver failure escape
            result = SolverResult("error", message=f"{type(exc).__name__}: {exc}")
    result.log = out.text
    return result


def rounded_solution(values, integrality: np.ndarray) -> np.ndarray:
    """A float copy of ``values`` with the integer columns rounded to the nearest integer."""
    x = np.array(values, dtype=float)
    x[integrality] = np.round(x[integrality]) + 0.0  # + 0.0 turns -0.0 into 0.0
    return x


def time_limit_or_none(options: SolveOptions) -> float | None:
    """The time limit in seconds, or None when there is none (None, infinite or not positive)."""
    limit = options.time_limit
    return None if limit is None or not math.isfinite(limit) else max(float(limit), 0.0)


def finished(status: str) -> bool:
    """Whether a status means the solver completed its search (optimal or infeasible)."""
    return status in ("optimal", "infeasible")
