"""CBC through its own executable (the ``cbc`` program of the ``cbcbox`` wheel), fed an MPS file.

The model is written as MPS (:meth:`Model.to_mps`) to a private temporary
folder, and ``cbc model.mps <options> -solve -solution sol.txt`` runs as a
child process.  CBC is driven from its command line rather than through its C
library because OR-Tools ships COIN-OR libraries with the same sonames as
cbcbox's (``libOsi.so.0``, ``libCgl.so.0``) but another ABI: both cannot live in
one link namespace, and loading CBC into a namespace of its own (``dlmopen``)
crashed on some machines.  A process of its own isolates CBC completely; the
cost is the process start and the MPS write per solve (``benchmarks/build_time.py``
times the write), which ``wall_time`` includes and ``solver_time`` does not.

Figures come from the summary CBC's log ends with: ``nodes`` is "Enumerated
nodes" (CBC does not count the root: 0 when the root solved the model; the
count includes the nodes of CBC's depth-first "fathoming" sub-searches),
``lp_iterations`` is "Total iterations" (branch-and-cut iterations; the
initial root LP solve is not counted), ``solver_time`` is "Total time
(Wallclock seconds)"; a line that is absent (CBC proved infeasibility while
tightening bounds) reads as 0 nodes and 0 iterations.  The presolved size is
"Processed model: R rows, C cols" (``Cgl0004I processed model has R rows, C
columns`` in older builds).  The status comes from the first line of the
solution file ("Optimal", "Infeasible", "Integer infeasible", "Stopped on
time", ...).  The primal bound is the objective of the returned point; the
dual bound is the log's "Lower bound" when CBC stopped early, the optimum when
it finished.  ``root_solved`` means the solve completed with no node after the
root.  ``root_lp_time`` is the time of the first "LP Optimal ... Time: T s" line (the
root LP relaxation, before CBC's preprocessing; None in builds that do not log it).

Options: ``threads`` above 1 sets CBC's (non-deterministic) parallel
branch-and-bound; 1 keeps the serial code.  Both CLP's ``randomSeed`` and
CBC's ``randomCbcSeed`` get ``options.seed + 1``, because CBC reads 0 as
"seed from the time of day".  Solver options are CBC command-line parameters,
``-KEY VALUE`` after the common ones (``cuts: off``, ``maxNodes: 1000``); they are
checked by running ``cbc -KEY VALUE ... -quit`` (:func:`check_cbc_options`).  The time limit runs on wall-clock time
(``-timeMode elapsed -sec``), the relative gap is ``-ratioGap``; the OpenBLAS and OpenMP
thread pools get ``threads`` threads too.  CBC is killed
when it overruns its limit by the worker's grace period, and dies with the
process that started it.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from importlib.metadata import version

import numpy as np

from ..model import Model
from ..mps import mps_column_count
from ..processes import die_with_parent
from ..records import SolveOptions, SolverResult
from ..registry import solver
from ._capture import captured_output
from ._common import finished, refuse_harness_options, rounded_solution, time_limit_or_none

_PROCESSED_LINE = re.compile(r"Processed model: (\d+) rows, (\d+) cols"
                             r"|Cgl0004I processed model has (\d+) rows, (\d+) columns")
_TOTAL_TIME_LINE = re.compile(r"Total time \(Wallclock seconds\):\s*([0-9.eE+-]+)")
_FIRST_LP_LINE = re.compile(r"LP Optimal\b.*?Time:\s*([0-9.eE+-]+)s")
_NODES_LINE = re.compile(r"^Enumerated nodes:\s*(\d+)", re.MULTILINE)
_ITERATIONS_LINE = re.compile(r"^Total iterations:\s*(\d+)", re.MULTILINE)
_LOWER_BOUND_LINE = re.compile(r"^Lower bound:\s*([0-9.eE+-]+)", re.MULTILINE)
_VERSION_LINE = re.compile(r"CBC\s+(\S+(?:\s+\(git:[0-9a-f]+\))?)")
_OVERRUN = 2.0  # seconds CBC may overrun its own limit before it is killed (as the worker's grace)


@functools.cache
def cbc_executable() -> str:
    """The path of cbcbox's ``cbc`` program (the build cbcbox picks for this CPU)."""
    import cbcbox
    return cbcbox.cbc_bin_path()


@functools.cache
def cbc_version() -> str:
    banner = subprocess.run([cbc_executable(), "-quit"], capture_output=True, text=True,
                            timeout=30).stdout
    found = _VERSION_LINE.search(banner)
    return f"CBC {found[1] if found else 'unknown'} (cbcbox {version('cbcbox')})"


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


def root_lp_time(log: str) -> float | None:
    """The time of the first "LP Optimal ... Time: T s" line (CBC's root LP), None when not logged."""
    found = _FIRST_LP_LINE.search(log)
    return float(found[1]) if found else None


def logged_count(pattern: re.Pattern, log: str) -> int | None:
    """The count ``pattern`` captures in CBC's closing summary, None when absent."""
    found = pattern.search(log)
    return int(found[1]) if found else None


def solution_status(header: str) -> tuple[str, bool]:
    """Our status and whether a point comes with it, from the first line of CBC's solution file."""
    has_point = "no integer solution" not in header
    if header.startswith("Optimal"):
        return "optimal", True
    if header.startswith(("Infeasible", "Integer infeasible")):
        return "infeasible", False
    if header.startswith("Stopped on time"):
        return "time_limit", has_point
    if header.startswith("Stopped"):
        return ("feasible", True) if has_point else ("error", False)
    return "error", False


def read_solution(path: str, num_cols: int) -> tuple[str, np.ndarray]:
    """The header line and the column values of a CBC solution file (unlisted columns are 0)."""
    with open(path) as handle:
        header = handle.readline().strip()
        rows = [line.lstrip("* ").split() for line in handle if line.strip()]
    x = np.zeros(num_cols)
    if rows:
        index = np.array([int(r[0]) for r in rows])
        x[index] = [float(r[2]) for r in rows]
    return header, x


_BANNER_LINES = ("CBC ", "args:", "default strategy", "Total time")


def _parameter_words(settings: dict) -> list[str]:
    """``-KEY VALUE`` words of CBC's command line (booleans as on/off)."""
    words = []
    for key, value in settings.items():
        text = ("on" if value else "off") if isinstance(value, bool) else str(value)
        words += [f"-{str(key).lstrip('-')}", text]
    return words


# CBC's parameters the harness sets, by full name, each with the shortest abbreviation CBC takes for it
# (CBC matches names case-insensitively by prefix: ``sec`` is ``seconds``, ``-th`` is refused as short)
_HARNESS_OPTIONS = {"seconds": ("sec", "time limit"), "timemode": ("timem", "time limit"),
                    "randomseed": ("randoms", "seed"), "randomcbcseed": ("randomc", "seed"),
                    "threads": ("thread", "threads")}


def _cbc_name(key: str) -> str:
    """The full name of the harness-set CBC parameter ``key`` abbreviates, else ``key`` in lower case."""
    key = key.lstrip("-").lower()
    return next((full for full, (short, _) in _HARNESS_OPTIONS.items()
                 if full.startswith(key) and key.startswith(short)), key)


def check_cbc_options(settings: dict) -> None:
    """Have CBC parse ``settings`` and quit; ValueError with CBC's complaint when it has one (CBC checks
    each value against the parameter's range), or for a parameter the harness sets."""
    refuse_harness_options(settings, {full: what for full, (_, what) in _HARNESS_OPTIONS.items()}, "CBC",
                           canonical=_cbc_name)
    for key, value in settings.items():
        words = _parameter_words({key: value})
        done = subprocess.run([cbc_executable(), *words, "-quit"], capture_output=True, text=True,
                              timeout=30, stdin=subprocess.DEVNULL)
        complaints = [line.strip() for line in done.stdout.splitlines()
                      if line.strip() and not line.strip().startswith(_BANNER_LINES)]
        if complaints or done.returncode:
            raise ValueError(f"CBC parameter {key}={value!r}: {complaints[0] if complaints else done.returncode}")


def solve_cbc_mps(path: str, options: SolveOptions) -> SolverResult:
    """Solve the MPS file ``path`` with CBC's own reader."""
    return run_cbc(str(path), mps_column_count(str(path)), options)


@solver("cbc", version=cbc_version, kind="mip", options=check_cbc_options, mps=solve_cbc_mps,
        description="COIN-OR CBC branch-and-cut MIP solver (cbcbox's cbc program, model passed as MPS).")
def solve_cbc(model: Model, options: SolveOptions) -> SolverResult:
    """Solve ``model`` with CBC."""
    with tempfile.TemporaryDirectory(prefix="puzzlebench-cbc-") as folder:
        path = os.path.join(folder, "model.mps")
        model.to_mps(path)
        return run_cbc(path, model.num_cols, options, model.integrality,
                       lambda x: float(model.objective @ x + model.offset))


def run_cbc(mps_path: str, num_cols: int, options: SolveOptions,
            integrality: np.ndarray | None = None, objective=None) -> SolverResult:
    """Solve the MPS file ``mps_path`` (``num_cols`` columns) with CBC.

    ``integrality`` marks the columns to round (none when None); ``objective(x)``
    gives the primal bound of the returned point (else the objective CBC reports).
    """
    with tempfile.TemporaryDirectory(prefix="puzzlebench-cbc-") as folder:
        solution_path = os.path.join(folder, "solution.txt")
        with captured_output(echo=options.verbose) as out:
            try:
                failure = _run(mps_path, solution_path, options)
            except Exception as exc:  # an adapter never lets a solver failure escape
                failure = SolverResult("error", message=f"{type(exc).__name__}: {exc}")
        if failure is None and not os.path.exists(solution_path):
            failure = SolverResult("error", message="CBC wrote no solution file")
        if failure is not None:
            failure.log = out.text
            return failure
        header, x = read_solution(solution_path, num_cols)
    return _result(out.text, header, x, integrality, objective)


def _result(log: str, header: str, x: np.ndarray, integrality, objective) -> SolverResult:
    """The record of a CBC run that ended normally, from its log and solution file."""
    status, has_point = solution_status(header)
    result = SolverResult(status, message=header, log=log)
    if has_point:
        result.x = rounded_solution(x, integrality if integrality is not None else np.zeros(len(x), bool))
        result.primal_bound = objective(result.x) if objective else _logged_objective(header)
    result.nodes = logged_count(_NODES_LINE, log) or 0
    result.lp_iterations = logged_count(_ITERATIONS_LINE, log) or 0
    result.solver_time = logged_time(log)
    result.presolved_rows, result.presolved_cols = presolved_size(log)
    result.root_lp_time = root_lp_time(log)
    result.root_solved = finished(status) and result.nodes == 0
    lower = _LOWER_BOUND_LINE.search(log)
    if status == "optimal":
        result.dual_bound = result.primal_bound
    elif lower and status != "infeasible" and abs(float(lower[1])) < 1e20:
        result.dual_bound = float(lower[1])
    return result


def _logged_objective(header: str) -> float | None:
    found = re.search(r"objective value\s+([0-9.eE+-]+)", header)
    return float(found[1]) if found else None


def _command(mps_path: str, solution_path: str, options: SolveOptions) -> list[str]:
    seed = str(int(options.seed) + 1)
    command = [cbc_executable(), mps_path, "-randomSeed", seed, "-randomCbcSeed", seed,
               "-timeMode", "elapsed", "-ratioGap", repr(float(options.mip_gap)), "-log", "1"]
    if options.threads > 1:
        command += ["-threads", str(int(options.threads))]
    limit = time_limit_or_none(options)
    if limit is not None:
        command += ["-sec", repr(limit)]
    return command + _parameter_words(options.solver_options) + ["-solve", "-solution", solution_path]


def _environment(threads: int) -> dict:
    """Our environment, with the BLAS and OpenMP thread pools CBC's libraries may start held to
    ``threads`` (cbcbox links OpenBLAS, which otherwise starts one thread per visible CPU)."""
    return {**os.environ, "OPENBLAS_NUM_THREADS": str(int(threads)), "OMP_NUM_THREADS": str(int(threads))}


def _run(mps_path: str, solution_path: str, options: SolveOptions) -> SolverResult | None:
    """Run CBC with its output on our (captured) stdout; a result only when it overran or crashed."""
    limit = time_limit_or_none(options)
    hard = None if limit is None else limit + max(_OVERRUN, 0.1 * limit)
    try:
        done = subprocess.run(_command(mps_path, solution_path, options), stdin=subprocess.DEVNULL,
                              env=_environment(options.threads), timeout=hard,
                              preexec_fn=functools.partial(die_with_parent, os.getpid()))
    except subprocess.TimeoutExpired:
        return SolverResult("time_limit", message=f"CBC killed after overrunning its limit by {hard - limit:.1f} s")
    if done.returncode < 0:
        return SolverResult("error", message=f"CBC died with signal {-done.returncode}")
    return None
