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
root LP relaxation, before CBC's preprocessing; None in builds that do not log it).  The log
figures are the table :data:`LOG`.

Options: ``threads`` above 1 sets CBC's (non-deterministic) parallel
branch-and-bound; 1 keeps the serial code.  Both CLP's ``randomSeed`` and
CBC's ``randomCbcSeed`` get ``options.seed + 1``, because CBC reads 0 as
"seed from the time of day".  Solver options are CBC command-line parameters,
``-KEY VALUE`` after the common ones (``cuts: off``, ``maxNodes: 1000``); they are
checked by running ``cbc -KEY VALUE ... -quit`` (:meth:`CbcAdapter.check_options`).
The time limit runs on wall-clock time (``-timeMode elapsed -sec``), the relative gap is
``-ratioGap``; the OpenBLAS and OpenMP thread pools get ``threads`` threads too.  CBC is killed
when it overruns its limit by the worker's grace period, and dies with the
process that started it.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from importlib.metadata import version

import numpy as np

from ..model import Model
from ..model.mps import mps_column_count
from ..registry import adapter
from ..system.processes import die_with_parent
from ._common import refuse_harness_options, rounded_solution, time_limit_or_none
from .base import Adapter, Reading
from .contract import SolveOptions
from .logs import LogTable, Rule, Section

LOG = LogTable((
    Section("presolve", (Rule(r"Processed model: (?P<presolved_rows>\d+) rows, (?P<presolved_cols>\d+) cols"),
                         Rule(r"Cgl0004I processed model has (?P<presolved_rows>\d+) rows, "
                              r"(?P<presolved_cols>\d+) columns"))),
    Section("root", (Rule(r"LP Optimal\b.*?Time:\s*(?P<root_lp_time>[0-9.eE+-]+)s"),)),
    Section("summary", (Rule(r"^Lower bound:\s*(?P<lower_bound>[0-9.eE+-]+)"),
                        Rule(r"^Enumerated nodes:\s*(?P<nodes>\d+)"),
                        Rule(r"^Total iterations:\s*(?P<lp_iterations>\d+)"),
                        Rule(r"Total time \(Wallclock seconds\):\s*(?P<solver_time>[0-9.eE+-]+)"))),
))
"""The figures of CBC's log (module docstring)."""

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
    figures = LOG.parse(log)
    return figures.get("presolved_rows"), figures.get("presolved_cols")


def logged_time(log: str) -> float | None:
    """The total wall-clock time CBC reports at the end of its log."""
    return LOG.parse(log).get("solver_time")


def root_lp_time(log: str) -> float | None:
    """The time of the first "LP Optimal ... Time: T s" line (CBC's root LP), None when not logged."""
    return LOG.parse(log).get("root_lp_time")


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


@dataclass
class _Loaded:
    """The columns of the MPS file CBC reads: their count, which to round, and ``objective(x)``,
    the primal bound of a point (None: the objective CBC reports)."""

    num_cols: int
    integrality: np.ndarray | None = None
    objective: object = None


@dataclass
class _Session:
    """One CBC run: a private folder for the model and the solution, the command's words."""

    folder: tempfile.TemporaryDirectory
    threads: int = 1
    limit: float | None = None
    mps_path: str = ""
    words: list[str] = field(default_factory=list)
    failure: Reading | None = None  # CBC overran its limit or crashed

    @property
    def solution_path(self) -> str:
        return os.path.join(self.folder.name, "solution.txt")


# the harness's settings by the solver's own option names (Adapter.harness_options)
_HARNESS_SETTINGS = {full: what for full, (_, what) in _HARNESS_OPTIONS.items()}


@adapter
class CbcAdapter(Adapter):
    """CBC (module docstring)."""

    name, label = "cbc", "CBC"
    description = "COIN-OR CBC branch-and-cut MIP solver (cbcbox's cbc program, model passed as MPS)."
    harness_options = _HARNESS_SETTINGS
    log_table = LOG
    root_nodes = 0

    def version(self) -> str:
        return cbc_version()

    def canonical_option(self, name: str) -> str:
        """The full name of the harness-set CBC parameter ``name`` abbreviates, else ``name`` in lower case."""
        key = name.lstrip("-").lower()
        return next((full for full, (short, _) in _HARNESS_OPTIONS.items()
                     if full.startswith(key) and key.startswith(short)), key)

    def start(self, options: SolveOptions) -> _Session:
        return _Session(tempfile.TemporaryDirectory(prefix="puzzlebench-cbc-"))

    def close(self, session: _Session) -> None:
        session.folder.cleanup()

    def load_arrays(self, session: _Session, model: Model) -> _Loaded:
        session.mps_path = os.path.join(session.folder.name, "model.mps")
        model.to_mps(session.mps_path)
        return _Loaded(model.num_cols, model.integrality, lambda x: float(model.objective @ x + model.offset))

    def load_mps(self, session: _Session, path: str) -> _Loaded:
        session.mps_path = path
        return _Loaded(mps_column_count(path))

    def set_common(self, session: _Session, options: SolveOptions) -> None:
        seed = str(int(options.seed) + 1)
        session.words += ["-randomSeed", seed, "-randomCbcSeed", seed, "-timeMode", "elapsed",
                          "-ratioGap", repr(float(options.mip_gap)), "-log", "1"]
        session.threads = int(options.threads)
        if options.threads > 1:
            session.words += ["-threads", str(int(options.threads))]
        session.limit = time_limit_or_none(options)
        if session.limit is not None:
            session.words += ["-sec", repr(session.limit)]

    def set_option(self, session: _Session, name: str, value) -> None:
        session.words += _parameter_words({name: value})

    def check_options(self, settings: dict) -> None:
        """Have CBC parse ``settings`` and quit; ValueError with CBC's complaint when it has one (CBC
        checks each value against the parameter's range), or for a parameter the harness sets."""
        refuse_harness_options(settings, self.harness_options, self.label, canonical=self.canonical_option)
        for key, value in settings.items():
            words = _parameter_words({key: value})
            done = subprocess.run([cbc_executable(), *words, "-quit"], capture_output=True, text=True,
                                  timeout=30, stdin=subprocess.DEVNULL)
            complaints = [line.strip() for line in done.stdout.splitlines()
                          if line.strip() and not line.strip().startswith(_BANNER_LINES)]
            if complaints or done.returncode:
                raise ValueError(f"CBC parameter {key}={value!r}: "
                                 f"{complaints[0] if complaints else done.returncode}")

    def optimize(self, session: _Session) -> None:
        """Run CBC with its output on our (captured) stdout; killed when it overruns its limit."""
        limit = session.limit
        hard = None if limit is None else limit + max(_OVERRUN, 0.1 * limit)
        command = [cbc_executable(), session.mps_path, *session.words, "-solve", "-solution", session.solution_path]
        try:
            done = subprocess.run(command, stdin=subprocess.DEVNULL, env=_environment(session.threads),
                                  timeout=hard, preexec_fn=functools.partial(die_with_parent, os.getpid()))
        except subprocess.TimeoutExpired:
            session.failure = Reading("time_limit",
                                      message=f"CBC killed after overrunning its limit by {hard - limit:.1f} s")
            return
        if done.returncode < 0:
            raise RuntimeError(f"CBC died with signal {-done.returncode}")

    def read(self, session: _Session, loaded: _Loaded) -> Reading:
        """The solution file's status and point; the counts are 0 until the log says otherwise (a
        summary line is absent when CBC proved infeasibility while tightening bounds)."""
        if session.failure is not None:
            return session.failure
        if not os.path.exists(session.solution_path):
            raise RuntimeError("CBC wrote no solution file")
        header, x = read_solution(session.solution_path, loaded.num_cols)
        status, has_point = solution_status(header)
        if not has_point:
            return Reading(status, message=header, nodes=0, lp_iterations=0)
        integrality = loaded.integrality if loaded.integrality is not None else np.zeros(len(x), bool)
        x = rounded_solution(x, integrality)
        primal = loaded.objective(x) if loaded.objective else _logged_objective(header)
        return Reading(status, x=x, message=header, nodes=0, lp_iterations=0, primal_bound=primal,
                       dual_bound=primal if status == "optimal" else None)

    def with_log(self, reading: Reading, logged: dict) -> Reading:
        """The log's figures; the dual bound is the log's "Lower bound" when CBC stopped early."""
        reading = super().with_log(reading, logged)
        lower = logged.get("lower_bound")
        if reading.status not in ("optimal", "infeasible") and lower is not None and abs(lower) < 1e20:
            reading = replace(reading, dual_bound=float(lower))
        return reading


def _logged_objective(header: str) -> float | None:
    found = re.search(r"objective value\s+([0-9.eE+-]+)", header)
    return float(found[1]) if found else None


def _environment(threads: int) -> dict:
    """Our environment, with the BLAS and OpenMP thread pools CBC's libraries may start held to
    ``threads`` (cbcbox links OpenBLAS, which otherwise starts one thread per visible CPU)."""
    return {**os.environ, "OPENBLAS_NUM_THREADS": str(int(threads)), "OMP_NUM_THREADS": str(int(threads))}


_ADAPTER = CbcAdapter()
solve_cbc = _ADAPTER.solve
solve_cbc_mps = _ADAPTER.solve_mps
check_cbc_options = _ADAPTER.check_options
