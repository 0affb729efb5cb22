"""One run: puzzle -> formulation -> Model -> solver -> grid -> checker -> RunRecord.

The runner owns what is neither puzzle nor solver knowledge: timing the model
build, the lazy-constraint loop (re-solve with the rows ``Model.separate``
returns until it returns None), decoding, the independent check, and
solution counting with no-good cuts.

``solver`` is a solver configuration (:mod:`puzzlebench.solvers.configs`) or its
name; its options are merged under ``SolveOptions.solver_options`` (those win).
A run is resolved once (:class:`ResolvedRun`: the configuration, the registered
formulation, limits and seed) and that value goes down to the build, the solve and
the record; one function (:func:`make_record`) makes every RunRecord, from a prepared
run (:class:`PreparedRun`) and the solver's result.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator

import numpy as np

from ..checker import check
from ..errors import PuzzleError
from ..model import Model, Rows, rows_from_triplets
from ..registry import FormulationInfo, get_formulation, get_solver
from ..solvers.configs import SolverConfig, options_json, resolve
from ..solvers.contract import SolveOptions, SolverResult
from ..store.records import RunRecord
from .worker import SolverProcess

FOUND = ("optimal", "feasible")


@dataclass
class Built:
    model: Model
    build_time: float


def build(puzzle, formulation: str | FormulationInfo) -> Built:
    """Build ``formulation`` (a registered formulation or its name) for ``puzzle``, timing it
    (propagation included)."""
    info = formulation if isinstance(formulation, FormulationInfo) else get_formulation(puzzle.puzzle, formulation)
    start = time.perf_counter()
    model = info.build(puzzle)
    return Built(model, time.perf_counter() - start)


def _add(a, b):
    return b if a is None else a if b is None else a + b


def configured(solver: str | SolverConfig, options: SolveOptions) -> tuple[SolverConfig, SolveOptions]:
    """The configuration ``solver`` names, and ``options`` with its solver options merged in."""
    config = resolve(solver)  # unknown names fail here, in the parent, with a clear error
    merged = {**config.options, **options.solver_options}
    return config.with_options(merged), SolveOptions(**{**options.__dict__, "solver_options": merged})


@dataclass(frozen=True)
class ResolvedRun:
    """One run, resolved once before anything is built: the puzzle and its instance name, the
    registered formulation, and the solver configuration and options as :func:`configured` gives
    them (the configuration's solver options merged under ``SolveOptions.solver_options``; time limit,
    seed and threads).  What runs below :func:`run` and :func:`run_sequence` reads them from here."""

    puzzle: object
    instance: str
    formulation: FormulationInfo
    config: SolverConfig
    options: SolveOptions

    @classmethod
    def of(cls, puzzle, instance: str | None, formulation: str, config: SolverConfig,
           options: SolveOptions) -> ResolvedRun:
        """The run of ``formulation`` (a name; unknown: PuzzleError) on ``puzzle`` (``instance`` its
        name, default the puzzle's), with ``config`` and ``options`` already :func:`configured`."""
        return cls(puzzle, instance or puzzle.name, get_formulation(puzzle.puzzle, formulation), config, options)


def solve_model(model: Model, solver: str | SolverConfig, options: SolveOptions,
                process: SolverProcess | None = None) -> tuple[SolverResult, int, float]:
    """Solve ``model``, running the lazy-constraint loop when the model has one.

    Returns the final result (times, nodes and iterations summed over rounds),
    the number of rounds and the wall time of all solver calls.
    """
    return _solve_rounds(model, *configured(solver, options), process)


def _solve_rounds(model: Model, config: SolverConfig, options: SolveOptions,
                  process: SolverProcess | None) -> tuple[SolverResult, int, float]:
    """:func:`solve_model` with ``config`` and ``options`` already :func:`configured`."""
    own = process is None
    process = process or SolverProcess()
    total = None
    rounds = 0
    wall = 0.0
    deadline = options.time_limit
    try:
        while True:
            rounds += 1
            process.submit(config.adapter, model, options)
            result, elapsed = process.collect()
            wall += elapsed
            if total is not None:
                result.solver_time = _add(total.solver_time, result.solver_time)
                result.nodes = _add(total.nodes, result.nodes)
                result.lp_iterations = _add(total.lp_iterations, result.lp_iterations)
                result.log = total.log + result.log
            total = result
            if model.separate is None or result.status not in FOUND:
                break
            cuts = model.separate(result.x)
            if cuts is None:
                break
            remaining = deadline - wall
            if remaining <= 0:
                total.status = "time_limit"
                total.x = None
                break
            model = model.with_rows(cuts)
            options = SolveOptions(**{**options.__dict__, "time_limit": remaining})
    finally:
        if own:
            process.close()
    return total, rounds, wall


_VERSIONS: dict[str, tuple] = {}  # solver name -> (its SolverInfo, its version string)


def solver_version(name: str) -> str:
    """``get_solver(name).version()``, asked once per process and adapter (asking may load
    the library: SCIP's takes about 15 ms a call)."""
    info = get_solver(name)
    cached = _VERSIONS.get(name)
    if cached is None or cached[0] is not info:  # a re-registered adapter is asked again
        cached = _VERSIONS[name] = (info, info.version())
    return cached[1]


def run(puzzle, formulation: str, solver: str | SolverConfig, options: SolveOptions, *,
        instance: str | None = None, process: SolverProcess | None = None) -> RunRecord:
    """Build, solve, decode and check one puzzle; never raises for solver trouble.

    A formulation that does not apply to the puzzle, whose model fails to build or whose decode
    fails gives a ``skipped`` record with the reason in ``message``: one line naming the
    formulation (:func:`failure`, :func:`decode_grid`)."""
    prepared = _prepare(ResolvedRun.of(puzzle, instance, formulation, *configured(solver, options)))
    if prepared.skip is not None:
        return make_record(prepared)
    result, rounds, wall = _solve_rounds(prepared.built.model, prepared.resolved.config,
                                        prepared.resolved.options, process)
    return make_record(prepared, result, rounds, wall)


def skipped_record(puzzle, formulation: str, solver: str | SolverConfig, options: SolveOptions,
                   instance: str | None, reason: str) -> RunRecord:
    """The record of a run that was not made, ``reason`` in its message."""
    return make_record(PreparedRun(ResolvedRun.of(puzzle, instance, formulation, *configured(solver, options)),
                               None, reason))


@dataclass
class PreparedRun:
    """A resolved run with its model built, or why the run is not made (``skip``; ``built`` None)."""

    resolved: ResolvedRun
    built: Built | None
    skip: str | None = None

    @property
    def pipelined(self) -> bool:
        """Whether it can be sent ahead: built, and solved in one round (no lazy loop)."""
        return self.built is not None and self.built.model.separate is None


def failure(formulation: str, what: str, exc: BaseException) -> str:
    """One line saying that ``what`` failed for ``formulation``: the exception's type and the first
    line of its message (a formulation's error names the constraint or variable it concerns)."""
    lines = str(exc).strip().splitlines()
    return f"formulation {formulation}: {what}: {type(exc).__name__}" + (f": {lines[0]}" if lines else "")


def decode_grid(model: Model, x: np.ndarray, puzzle, formulation: str) -> np.ndarray:
    """``model.decode(x)`` as an integer grid of the puzzle's shape; a decode that raises, or gives
    something else, is a PuzzleError of one line naming ``formulation`` (:func:`failure`)."""
    try:
        grid = np.asarray(model.decode(x), dtype=np.int64)
    except Exception as exc:  # noqa: BLE001 -- a formulation's decode is user code: its failure is the run's
        raise PuzzleError(failure(formulation, "decode failed", exc)) from exc
    if grid.shape != puzzle.shape:
        raise PuzzleError(f"formulation {formulation}: decode gave an array of shape {grid.shape}, "
                          f"the puzzle's grid is {puzzle.shape}")
    return grid


def _prepare(resolved: ResolvedRun) -> PreparedRun:
    """The run with its model built, or why there is none."""
    try:
        reason = resolved.formulation.not_applicable(resolved.puzzle)
        if reason is not None:
            return PreparedRun(resolved, None, reason)
        return PreparedRun(resolved, build(resolved.puzzle, resolved.formulation))
    except Exception as exc:  # noqa: BLE001 -- any build failure (its applies check too) is this run's, not the job's
        return PreparedRun(resolved, None, failure(resolved.formulation.name, "model could not be built", exc))


def make_record(prepared: PreparedRun, result: SolverResult | None = None, rounds: int = 1,
            wall: float | None = None) -> RunRecord:
    """The RunRecord of ``prepared`` and the solver's ``result`` (None for a run not made: then a
    ``skipped`` record, ``prepared.skip`` its message), the grid decoded and checked.  A decode that
    fails (:func:`decode_grid`) makes the record ``skipped``, with the solve's figures: no grid was made."""
    resolved, built = prepared.resolved, prepared.built
    config, options = resolved.config, resolved.options
    if result is None:
        result = SolverResult("skipped", message=prepared.skip)
    grid = None
    violations: list[str] = []
    model_fields = {}  # the built model's figures (none for a run not made)
    if built is not None:
        stats = built.model.stats()
        identity = built.model.identity(declarations=get_solver(config.adapter).declarations)
        model_fields = {"build_time": built.build_time, "conversion_time": built.model.conversion_time,
                        "rows": stats.rows, "cols": stats.cols, "nonzeros": stats.nonzeros, "model_hash": identity.hash,
                        "model_fingerprint": identity.fingerprint,
                        "preprocessing_solved": built.model.presolve_info.get("solved_in_preprocessing")}
        if result.x is not None:
            try:
                grid = decode_grid(built.model, result.x, resolved.puzzle, resolved.formulation.name)
            except PuzzleError as err:
                result = replace(result, status="skipped", message=str(err))
            else:
                violations = check(resolved.puzzle, grid)
    return RunRecord(
        instance=resolved.instance, puzzle=resolved.puzzle.puzzle, formulation=resolved.formulation.name,
        solver=config.name, solver_version=solver_version(config.adapter), seed=options.seed,
        threads=options.threads, time_limit=options.time_limit, status=result.status, message=result.message,
        wall_time=wall, solver_time=result.solver_time, nodes=result.nodes, lp_iterations=result.lp_iterations,
        primal_bound=result.primal_bound, dual_bound=result.dual_bound, presolved_rows=result.presolved_rows,
        presolved_cols=result.presolved_cols, root_solved=result.root_solved, root_lp_time=result.root_lp_time,
        solution=None if grid is None else grid.tolist(), verified=None if grid is None else not violations,
        violations=violations, rounds=rounds, solver_adapter=config.adapter,
        solver_options=options_json(config.options), solver_kind=config.kind,
        relaxation=resolved.formulation.relaxation, **model_fields)


def run_many(items: Iterable[tuple[object, str | None]], formulation: str, solver: str | SolverConfig,
             options: SolveOptions, process: SolverProcess | None = None,
             ahead: int = 2) -> Iterator[RunRecord]:
    """:func:`run_sequence` of ``formulation`` on each ``(puzzle, instance name)`` of ``items``."""
    return run_sequence(((puzzle, instance, formulation) for puzzle, instance in items), solver, options,
                        process, ahead)


def run_sequence(items: Iterable[tuple[object, str | None, str]], solver: str | SolverConfig,
                 options: SolveOptions, process: SolverProcess | None = None,
                 ahead: int = 2) -> Iterator[RunRecord]:
    """:func:`run` for each ``(puzzle, instance name, formulation)`` of ``items``, in order, pipelined.

    The records are the same as :func:`run`'s; only the order of the work
    changes.  Up to ``ahead`` models are submitted to the solver process at once,
    so it goes from one solve to the next without waiting for the parent, while
    the parent builds the next model and decodes, checks and yields the last
    result (see :mod:`puzzlebench.run.worker` for how each solve's time limit and
    wall time are counted).  A model with a lazy-constraint loop is solved round
    by round once the solves before it are collected.  A run the formulation does
    not apply to, or whose model fails to build or decode, is a ``skipped`` record in its
    place; an unknown formulation raises PuzzleError when its turn comes.  The
    solver configuration and options are resolved once for the whole sequence.
    """
    config, options = configured(solver, options)
    own = process is None
    process = process or SolverProcess()
    source = iter(items)
    in_flight: deque[PreparedRun] = deque()
    held: list[PreparedRun | PuzzleError] = []  # to be solved (or raised) after the ones in flight

    def prepare() -> PreparedRun | PuzzleError | None:
        if held:
            return held.pop()
        for puzzle, instance, formulation in source:
            try:
                return _prepare(ResolvedRun.of(puzzle, instance, formulation, config, options))
            except PuzzleError as exc:  # an unknown formulation: raised in order, when its turn comes
                return exc
        return None

    def top_up() -> None:
        while len(in_flight) < ahead and (prepared := prepare()) is not None:
            if isinstance(prepared, PuzzleError) or not prepared.pipelined:
                held.append(prepared)
                return
            process.submit(config.adapter, prepared.built.model, options)
            in_flight.append(prepared)

    try:
        top_up()
        while in_flight or held:
            if in_flight:
                prepared = in_flight.popleft()
                result, wall = process.collect()
                rounds = 1
            else:
                prepared = held.pop()
                if isinstance(prepared, PuzzleError):
                    raise prepared
                if prepared.skip is not None:
                    top_up()
                    yield make_record(prepared)
                    continue
                result, rounds, wall = _solve_rounds(prepared.built.model, config, options, process)
            top_up()  # the next models go out before this result is decoded and checked
            yield make_record(prepared, result, rounds, wall)
    finally:
        if process.busy:  # the caller stopped early: drop the solves in flight
            process.close()
        if own:
            process.close()


def no_good_cut(model: Model, x: np.ndarray) -> Rows:
    """The row that cuts off exactly the binary point ``x``:

        sum_{j: x_j = 1} x_j - sum_{j: x_j = 0} x_j <= |{j: x_j = 1}| - 1
    """
    binary = np.flatnonzero(model.integrality & (model.col_lower >= 0) & (model.col_upper <= 1))
    ones = np.round(x[binary]) > 0.5
    coef = np.where(ones, 1.0, -1.0)
    return rows_from_triplets(np.zeros(len(binary), int), binary, coef, 1, model.num_cols,
                              -np.inf, ones.sum() - 1)


def count_solutions(puzzle, formulation: str, solver: str | SolverConfig, limit: int, options: SolveOptions,
                    process: SolverProcess | None = None, *, budget: float | None = None,
                    on_solution: Callable[[np.ndarray], None] | None = None) -> tuple[int, list[np.ndarray], str]:
    """Count distinct solutions up to ``limit`` by re-solving with no-good cuts.

    Needs a formulation whose integer columns are all binary, so that a no-good
    over them removes exactly one grid.  Returns the count, the grids (each
    already checked) and the final status: "optimal" when the count is proven,
    "time_limit" or "error" when the enumeration stopped early (a partial count).
    ``budget`` bounds the seconds of the whole count (each solve gets at most what
    is left of it, and at most ``options.time_limit``); ``on_solution(grid)`` is
    called with each grid as soon as it is found and checked.
    """
    try:
        model = build(puzzle, formulation).model
    except PuzzleError:
        raise
    except Exception as exc:  # noqa: BLE001 -- a formulation's build is user code: one line, not a traceback
        raise PuzzleError(failure(formulation, "model could not be built", exc)) from exc
    if (model.integrality & ((model.col_lower < 0) | (model.col_upper > 1))).any():
        raise PuzzleError(f"--count-solutions needs a formulation with only binary integer variables; "
                          f"{formulation!r} has general integers (try 'binary')")
    config, options = configured(solver, options)
    grids: list[np.ndarray] = []
    own = process is None
    process = process or SolverProcess()
    end = None if budget is None else time.monotonic() + budget
    try:
        while len(grids) < limit:
            left = options.time_limit if end is None else min(options.time_limit, end - time.monotonic())
            if left <= 0:
                return len(grids), grids, "time_limit"
            result, _, _ = _solve_rounds(model, config, replace(options, time_limit=left), process)
            if result.status == "infeasible":
                return len(grids), grids, "optimal"
            if result.status not in FOUND:
                return len(grids), grids, result.status
            grid = decode_grid(model, result.x, puzzle, formulation)
            if violations := check(puzzle, grid):
                raise RuntimeError(f"{formulation} on {config.name} returned an invalid grid: {violations[0]}")
            if any(np.array_equal(grid, seen) for seen in grids):
                raise PuzzleError(f"{formulation!r} has binary variables that the grid does not determine "
                                  f"(a no-good cut removed a point, not the grid); count solutions with a "
                                  f"formulation whose binaries follow from the grid (for Takuzu with "
                                  f"distinct lines: xor-distinct)")
            grids.append(grid)
            if on_solution is not None:
                on_solution(grid)
            model = model.with_rows(no_good_cut(model, result.x))
    finally:
        if own:
            process.close()
    return len(grids), grids, "optimal"
