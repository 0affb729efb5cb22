"""Solve an MPS file with a MIP solver's own reader.

This checks the MPS export (:meth:`Model.to_mps`) against the array route: the
same model read back natively by HiGHS (``readModel``), SCIP (``readProblem``,
also in its ``scip-cp`` and ``scip-alldiff`` configurations: an MPS file declares no
all-different groups, so the latter has nothing to propagate) or CBC (its program reading the file) must give the
status and objective the adapter gives for the arrays.  Options, logging and
result reading are the adapters' own; only the loading differs.
"""

from __future__ import annotations

from ..errors import PuzzleError
from ..records import SolveOptions, SolverResult
from . import cbc, highs, scip, scip_alldiff

_READERS = {
    "highs": lambda path, options: highs.run_highs(lambda h: highs.load_mps(h, path), options),
    "scip": lambda path, options: scip.run_scip(lambda s: scip.load_mps(s, path), options),
    "scip-cp": lambda path, options: scip.run_scip(lambda s: scip.load_mps(s, path), options,
                                                   scip.cp_solver_settings),
    "scip-alldiff": lambda path, options: scip.run_scip(lambda s: scip.load_mps(s, path), options,
                                                        scip_alldiff.alldiff_settings),
    "cbc": lambda path, options: cbc.run_cbc(path, _mps_column_count(path), options),
}
MPS_SOLVERS = tuple(_READERS)


def _mps_column_count(path: str) -> int:
    """The number of distinct columns in the COLUMNS section of an MPS file."""
    names, section = set(), None
    with open(path) as handle:
        for line in handle:
            if line[:1] not in (" ", "\t", "*") and line.strip():
                section = line.split()[0]
            elif section == "COLUMNS" and line.strip() and "'MARKER'" not in line:
                names.add(line.split()[0])
    return len(names)


def read_mps_status(path, solver_name: str, options: SolveOptions) -> SolverResult:
    """Read the MPS file ``path`` with ``solver_name``'s native reader and solve it."""
    try:
        reader = _READERS[solver_name]
    except KeyError:
        raise PuzzleError(f"no native MPS reader for solver {solver_name!r} "
                          f"(known: {', '.join(MPS_SOLVERS)})") from None
    return reader(str(path), options)
