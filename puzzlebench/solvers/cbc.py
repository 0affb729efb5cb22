"""CBC through its C API (the ``libCbc`` library of the ``cbcbox`` wheel), called with ctypes.

The library is opened once per process, from the build cbcbox picks for this
CPU (AVX2 when available), in a link namespace of its own (see
:func:`_open_isolated`: OR-Tools ships clashing COIN-OR libraries).  The model
goes in as CSC arrays through ``Cbc_loadProblem``; the objective constant,
which the C API has no place for, is added to the bounds read back.

Figures come from the summary CBC's log ends with, where present, else from
the C API: ``nodes`` is "Enumerated nodes" (CBC does not count the root: 0
when the root solved the model; the count includes the nodes of CBC's
depth-first "fathoming" sub-searches, which ``Cbc_getNodeCount`` leaves out),
``lp_iterations`` is "Total iterations" (branch-and-cut iterations; the
initial root LP solve is not counted, as with ``Cbc_getIterationCount``),
``solver_time`` is "Total time (Wallclock seconds)".  The presolved size is
parsed from the log ("Processed model: R rows, C cols", or ``Cgl0004I
processed model has R rows, C columns`` in older builds).  ``root_solved``
means the solve completed with no node after the root.

Options: ``threads`` above 1 sets CBC's (non-deterministic) parallel
branch-and-bound; 1 keeps the serial code.  Both CLP's ``randomSeed`` and
CBC's ``randomCbcSeed`` get ``options.seed + 1``, because CBC reads 0 as
"seed from the time of day".  The time limit runs on wall-clock time and the
relative gap is set through the C API's ``DBL_PARAM_GAP_RATIO`` (the C
interface overrides a ``ratio`` parameter with its own default of 1e-4).
"""

from __future__ import annotations

import ctypes
import os
import re
from typing import Callable

import numpy as np

from ..model import Model
from ..records import SolveOptions, SolverResult
from ..registry import solver
from ._common import captured_solve, finished, rounded_solution, time_limit_or_none

_PROCESSED_LINE = re.compile(r"Processed model: (\d+) rows, (\d+) cols"
                             r"|Cgl0004I processed model has (\d+) rows, (\d+) columns")
_TOTAL_TIME_LINE = re.compile(r"Total time \(Wallclock seconds\):\s*([0-9.eE+-]+)")
_NODES_LINE = re.compile(r"^Enumerated nodes:\s*(\d+)", re.MULTILINE)
_ITERATIONS_LINE = re.compile(r"^Total iterations:\s*(\d+)", re.MULTILINE)

# enum values from Cbc_C_Interface.h
_DBL_PARAM_TIME_LIMIT = 5
_DBL_PARAM_GAP_RATIO = 9

_LM_ID_NEWLM = -1  # dlmopen: load into a new link namespace
_P = ctypes.c_void_p
_SIGNATURES = {
    "Cbc_getVersion": ([], ctypes.c_char_p),
    "Cbc_newModel": ([], _P),
    "Cbc_deleteModel": ([_P], None),
    "Cbc_loadProblem": ([_P, ctypes.c_int, ctypes.c_int] + [_P] * 8, None),
    "Cbc_readMps": ([_P, ctypes.c_char_p], ctypes.c_int),
    "Cbc_setInteger": ([_P, ctypes.c_int], None),
    "Cbc_isInteger": ([_P, ctypes.c_int], ctypes.c_int),
    "Cbc_getNumCols": ([_P], ctypes.c_int),
    "Cbc_setParameter": ([_P, ctypes.c_char_p, ctypes.c_char_p], None),
    "Cbc_setDblParam": ([_P, ctypes.c_int, ctypes.c_double], None),
    "Cbc_solve": ([_P], ctypes.c_int),
    "Cbc_bestSolution": ([_P], ctypes.POINTER(ctypes.c_double)),
    "Cbc_getNodeCount": ([_P], ctypes.c_int),
    "Cbc_getIterationCount": ([_P], ctypes.c_int),
    "Cbc_isProvenOptimal": ([_P], ctypes.c_int),
    "Cbc_isProvenInfeasible": ([_P], ctypes.c_int),
    "Cbc_isSecondsLimitReached": ([_P], ctypes.c_int),
    "Cbc_status": ([_P], ctypes.c_int),
    "Cbc_secondaryStatus": ([_P], ctypes.c_int),
    "Cbc_getObjValue": ([_P], ctypes.c_double),
    "Cbc_getBestPossibleObjValue": ([_P], ctypes.c_double),
    "fflush": ([_P], ctypes.c_int),  # the C library CBC prints with (its namespace's own)
}
_library: ctypes.CDLL | None = None


def _open_isolated(path: str) -> ctypes.CDLL:
    """Open a shared library in a link namespace of its own where ``dlmopen`` exists (glibc).

    OR-Tools ships COIN-OR libraries with the same sonames as cbcbox's
    (``libOsi.so.0``, ``libCgl.so.0``) but another ABI; in one namespace
    whichever loads second fails with undefined symbols.  A new namespace lets
    CBC and CP-SAT run in the same process in either order.
    """
    libc = ctypes.CDLL(None)
    dlmopen = getattr(libc, "dlmopen", None)
    if dlmopen is None:
        return ctypes.CDLL(path)
    dlmopen.argtypes = [ctypes.c_long, ctypes.c_char_p, ctypes.c_int]
    dlmopen.restype = ctypes.c_void_p
    handle = dlmopen(_LM_ID_NEWLM, os.fsencode(path), os.RTLD_NOW | os.RTLD_LOCAL)
    if not handle:
        libc.dlerror.restype = ctypes.c_char_p
        raise OSError(f"dlmopen({path}) failed: {libc.dlerror().decode(errors='replace')}")
    return ctypes.CDLL(path, handle=handle)


def cbc_library() -> ctypes.CDLL:
    """The CBC C library of cbcbox, opened on first use, with argument types declared."""
    global _library
    if _library is None:
        import cbcbox
        lib_dir = cbcbox.cbc_lib_dir()
        name = next(n for n in ("libCbc.so", "libCbc.dylib")
                    if os.path.exists(os.path.join(lib_dir, n)))
        library = _open_isolated(os.path.join(lib_dir, name))
        for function, (argtypes, restype) in _SIGNATURES.items():
            getattr(library, function).argtypes = argtypes
            getattr(library, function).restype = restype
        _library = library
    return _library


def cbc_version() -> str:
    from importlib.metadata import version
    return f"CBC {cbc_library().Cbc_getVersion().decode()} (cbcbox {version('cbcbox')})"


def presolved_size(log: str) -> tuple[int | None, int | None]:
    """Rows and columns after CBC's preprocessing, from its log; (None, None) when not logged."""
    found = _PROCESSED_LINE.search(log)
    if not found:
        return None, None
    rows, cols = found[1] or found[3], found[2] or found[4]
    return int(rows), int(cols)


def logged_time(log: str) -> float | None:
    """The total wall-clock time CBC reports at the end of its log."""
    found = _TOTAL_TIME_LINE.search(log)
    return float(found[1]) if found else None


def logged_count(pattern: re.Pattern, log: str) -> int | None:
    """The count ``pattern`` captures in CBC's closing summary, None when absent."""
    found = pattern.search(log)
    return int(found[1]) if found else None


@solver("cbc", version=cbc_version, kind="mip",
        description="COIN-OR CBC branch-and-cut MIP solver (cbcbox library through its C API).")
def solve_cbc(model: Model, options: SolveOptions) -> SolverResult:
    """Solve ``model`` with CBC."""
    return run_cbc(lambda lib, cbc: _load_arrays(lib, cbc, model), float(model.offset), options)


def run_cbc(load: Callable, offset: float, options: SolveOptions) -> SolverResult:
    """Solve the model that ``load(lib, cbc)`` puts into a fresh CBC model.

    ``load`` returns the integrality mask of the columns it loaded; ``offset`` is
    the objective constant CBC does not know about.
    """
    result = captured_solve(lambda: _solve(load, offset, options), options)
    result.presolved_rows, result.presolved_cols = presolved_size(result.log)
    result.solver_time = logged_time(result.log)
    nodes = logged_count(_NODES_LINE, result.log)
    if nodes is not None:  # the log's count includes the nodes of CBC's "fathoming" sub-searches
        result.nodes = nodes
        result.root_solved = finished(result.status) and nodes == 0
    iterations = logged_count(_ITERATIONS_LINE, result.log)
    if iterations is not None:
        result.lp_iterations = iterations
    return result


def _load_arrays(lib: ctypes.CDLL, cbc, model: Model) -> np.ndarray:
    csc = model.A.tocsc()
    arrays = [csc.indptr.astype(np.int32), csc.indices.astype(np.int32), csc.data.astype(np.float64)]
    arrays += [np.ascontiguousarray(a, dtype=np.float64) for a in (
        model.col_lower, model.col_upper, model.objective, model.row_lower, model.row_upper)]
    lib.Cbc_loadProblem(cbc, model.num_cols, model.num_rows, *(a.ctypes.data for a in arrays))
    for j in np.flatnonzero(model.integrality).tolist():
        lib.Cbc_setInteger(cbc, j)
    return model.integrality


def load_mps(lib: ctypes.CDLL, cbc, path: str) -> np.ndarray:
    """Read an MPS file into ``cbc``; return its integrality mask."""
    if lib.Cbc_readMps(cbc, os.fsencode(path)) != 0:
        raise RuntimeError(f"CBC could not read {path}")
    return np.array([lib.Cbc_isInteger(cbc, j) for j in range(lib.Cbc_getNumCols(cbc))], dtype=bool)


def _set_options(lib: ctypes.CDLL, cbc, options: SolveOptions) -> None:
    seed = str(int(options.seed) + 1)
    settings = {"randomSeed": seed, "randomCbcSeed": seed, "timeMode": "elapsed", "log": "1"}
    if options.threads > 1:
        settings["threads"] = str(int(options.threads))
    for name, value in settings.items():
        lib.Cbc_setParameter(cbc, name.encode(), value.encode())
    lib.Cbc_setDblParam(cbc, _DBL_PARAM_GAP_RATIO, float(options.mip_gap))
    limit = time_limit_or_none(options)
    if limit is not None:
        lib.Cbc_setDblParam(cbc, _DBL_PARAM_TIME_LIMIT, limit)


def _solve(load: Callable, offset: float, options: SolveOptions) -> SolverResult:
    lib = cbc_library()
    cbc = lib.Cbc_newModel()
    try:
        integrality = load(lib, cbc)
        _set_options(lib, cbc, options)
        lib.Cbc_solve(cbc)
        lib.fflush(None)
        return _read_result(lib, cbc, integrality, offset)
    finally:
        lib.Cbc_deleteModel(cbc)


def _status(lib: ctypes.CDLL, cbc, has_solution: bool) -> str:
    if lib.Cbc_isProvenInfeasible(cbc):
        return "infeasible"
    if lib.Cbc_isProvenOptimal(cbc):
        return "optimal"
    if lib.Cbc_isSecondsLimitReached(cbc):
        return "time_limit"
    return "feasible" if has_solution else "error"


def _read_result(lib: ctypes.CDLL, cbc, integrality: np.ndarray, offset: float) -> SolverResult:
    solution = lib.Cbc_bestSolution(cbc)
    has_solution = bool(solution)
    status = _status(lib, cbc, has_solution)
    nodes = int(lib.Cbc_getNodeCount(cbc))
    dual = lib.Cbc_getBestPossibleObjValue(cbc) + offset
    return SolverResult(
        status=status,
        x=rounded_solution(np.ctypeslib.as_array(solution, (len(integrality),)), integrality)
        if has_solution else None,
        message=f"status {lib.Cbc_status(cbc)}, secondary status {lib.Cbc_secondaryStatus(cbc)}",
        nodes=nodes,
        lp_iterations=int(lib.Cbc_getIterationCount(cbc)),
        primal_bound=lib.Cbc_getObjValue(cbc) + offset if has_solution else None,
        dual_bound=dual if abs(dual) < 1e20 and status != "infeasible" else None,
        root_solved=finished(status) and nodes == 0,
    )
