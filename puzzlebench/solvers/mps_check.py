"""Solve an MPS file with a MIP solver's own reader.

This checks the MPS export (:meth:`Model.to_mps`) against the array route: the
same model read back natively by a solver that has an MPS reader (an adapter's
``load_mps``, or ``@solver(..., mps=...)``: HiGHS ``readModel``, SCIP ``readProblem``, CBC its
program reading the file, the commercial solvers their ``read`` calls) must give
the status and objective the adapter gives for the arrays.  Options, logging and
result reading are the adapters' own; only the loading differs.  A solver
configuration's options apply as on the arrays.
"""

from __future__ import annotations

from ..errors import PuzzleError
from ..registry import solvers
from .contract import SolveOptions, SolverResult


def mps_solvers() -> tuple[str, ...]:
    """The adapters with an MPS reader of their own."""
    return tuple(info.name for info in solvers() if info.mps is not None)


def read_mps_status(path, solver_name: str, options: SolveOptions) -> SolverResult:
    """Read the MPS file ``path`` with the native reader of ``solver_name`` (an adapter or a
    configuration) and solve it."""
    from .configs import resolve
    try:
        config = resolve(solver_name)
    except PuzzleError:
        config = None
    if config is None or config.info.mps is None:
        raise PuzzleError(f"no native MPS reader for solver {solver_name!r} "
                          f"(known: {', '.join(mps_solvers())})") from None
    merged = {**config.options, **options.solver_options}
    return config.info.mps(str(path), SolveOptions(**{**options.__dict__, "solver_options": merged}))
