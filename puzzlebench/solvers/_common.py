"""Pieces every solver adapter shares: status conventions, solution rounding, option checks.

The adapters' steps and their one shared solve are :class:`.base.Adapter`;
:func:`captured_solve` is that solve's capture and guard for an adapter written as a
function (the older form :func:`puzzlebench.registry.solver` still registers).

Status conventions (all adapters):

- ``optimal``: the solver proved optimality within the requested relative gap
  ``options.mip_gap`` (with gap 0, proven optimal; a feasibility model whose
  objective is 0 is optimal as soon as it has a solution);
- ``feasible``: a solution, stopped for another reason than the time limit;
- ``infeasible``: the solver proved that no solution exists;
- ``time_limit``: the time limit ended the solve, with ``x`` set when a solution
  was found and None otherwise;
- ``error``: anything else, with the reason in ``message``;
- ``skipped``: the solver did not take the model (a licence size limit, read from
  the solver's own error, so a full licence lifts it), the limit named in ``message``.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..system.capture import captured_output
from .contract import SolveOptions, SolverResult


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


def licence_limit(solver: str, reason: str) -> str:
    """The ``message`` of a model the solver's licence does not allow (a ``skipped`` run), its reason named."""
    return f"{solver} licence size limit: {' '.join(reason.split())}"


def finite_or(values: np.ndarray, infinity: float) -> np.ndarray:
    """``values`` with +-inf replaced by +-``infinity`` (a solver's own spelling of no bound)."""
    return np.clip(values, -infinity, infinity)


HARNESS_SETTINGS = {"time limit": "--time-limit (config time_limit)", "seed": "--seed (config seeds)",
                    "threads": "--threads (config threads)"}
"""The settings the harness gives every solver itself, and where a user sets them."""


def refuse_harness_options(settings: dict, owned: dict[str, str], solver: str,
                           canonical: Callable[[str], str] = str.lower) -> None:
    """ValueError for the first option of ``settings`` that would override one of the harness's own
    settings (:data:`HARNESS_SETTINGS`): a run's time limit, seed and threads are recorded with it,
    so a solver option may not change them behind the record's back.  ``owned`` maps the solver's
    option names (as ``canonical`` spells them: lower case by default) to the setting each sets."""
    for name in settings:
        what = owned.get(canonical(str(name)))
        if what is not None:
            raise ValueError(f"{solver} option {name} sets the harness's {what}, which every run records: "
                             f"set it with {HARNESS_SETTINGS[what]}, not as a solver option")
