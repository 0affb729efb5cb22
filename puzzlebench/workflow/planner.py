"""The experiment grid of the Snakemake workflow, planned from its config.

Config keys (see config.yaml): ``instance_sets`` (names or globs), ``formulations``
(``all``, a list, or a mapping puzzle -> list/``all``), ``solvers``, ``seeds``,
``permutations``, ``time_limit``, ``threads``, ``results``, plus ``max_instances``
(first N of each set, 0 = all), ``chunk_size`` (runs per job) and
``solver_configs`` (named solver configurations, see
:mod:`puzzlebench.solvers.configs`, which ``solvers`` may list beside adapters) and
``solver_formulations`` (solver name -> the formulations it runs, of those
``formulations`` selects: a study of many configurations runs each only where it
is worth its time; a solver not listed runs every selected formulation), ``repeats``
(runs of each instance x formulation x solver x seed, the ``repeat`` column) and ``sample``
(a sample of each calibrated set stratified by difficulty, :mod:`puzzlebench.workflow.sampling`).
Their types and ranges are ``puzzlebench/workflow/config.schema.yaml``.
"""

from __future__ import annotations

import math

from ..errors import PuzzleError
from ..kinds import names as puzzle_names
from ..registry import formulations, get_formulation
from ..run.jobs import Job, chunk_bounds
from ..solvers.configs import SolverConfig, declared, ensure_runnable, resolve
from .config import validate_config
from .sampling import Sample, choose, read_calibration

DEFAULTS = {"formulations": "all", "solvers": ["cbc", "highs", "scip", "scip-cp", "cpsat"], "seeds": [0],
            "permutations": 0, "time_limit": 10.0, "threads": 1, "results": "results",
            "max_instances": 0, "chunk_size": 50, "group_formulations": True, "solver_configs": {},
            "solver_formulations": {}, "repeats": 1, "sample": None}


def settings(config: dict) -> dict:
    """The config with defaults filled in, after checking it against the schema
    (:func:`puzzlebench.workflow.config.validate_config`: unknown keys, types and ranges)."""
    validate_config(config)
    merged = {**DEFAULTS, **config}
    merged["group_formulations"] = _flag("group_formulations", merged["group_formulations"])
    for key in ("instance_sets", "solvers", "seeds"):
        if isinstance(merged[key], (str, int)):
            merged[key] = [merged[key]]
    return merged


def _flag(key: str, value) -> bool:
    """A yes/no config value: a YAML boolean, or true/false as ``--config key=false`` passes it."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise PuzzleError(f"config {key} must be true or false, not {value!r}")


def formulations_for(puzzle: str, wanted) -> list[str]:
    """The formulation names the config selects for ``puzzle``."""
    known = [f.name for f in formulations(puzzle)]
    if isinstance(wanted, dict):
        wanted = wanted.get(puzzle, [])
    if wanted == "all":
        return known
    if isinstance(wanted, str):
        wanted = [wanted]
    return [name for name in wanted if name in known]


def _check_formulation_names(wanted) -> None:
    """Refuse a formulation name no puzzle has (a typo would otherwise select nothing)."""
    requested = wanted.items() if isinstance(wanted, dict) else [(None, wanted)]
    for puzzle, names in requested:
        if puzzle is not None and puzzle not in puzzle_names():
            raise PuzzleError(f"config formulations: unknown puzzle {puzzle!r} "
                              f"(known: {', '.join(puzzle_names())})")
        names = [names] if isinstance(names, str) else list(names)
        known = {f.name for f in formulations(puzzle)} if puzzle else {f.name for f in formulations()}
        unknown = [n for n in names if n != "all" and n not in known]
        if unknown:
            where = f" for {puzzle}" if puzzle else ""
            raise PuzzleError(f"config formulations: unknown formulation {unknown[0]!r}{where} "
                              f"(known: {', '.join(sorted(known))})")


def solver_configs(cfg: dict) -> dict[str, SolverConfig]:
    """The configurations the config's ``solvers`` list names, by name, each checked on its solver
    (a missing library or an option the solver does not take is a PuzzleError, before any job)."""
    configs = declared(cfg.get("solver_configs"))
    chosen = {}
    for name in cfg["solvers"]:
        config = resolve(str(name), configs)
        ensure_runnable(config)
        chosen[config.name] = config
    return chosen


def solver_formulations(cfg: dict) -> dict[str, list[str]]:
    """The config's ``solver_formulations``, checked: each key a known solver or configuration
    (it need not be in ``solvers``, so that ``--config solvers=[...]`` can run part of a study),
    each name a formulation some puzzle has."""
    chosen = cfg.get("solver_formulations") or {}
    configs = declared(cfg.get("solver_configs"))
    for name, wanted in chosen.items():
        try:
            resolve(str(name), configs)
        except PuzzleError as err:
            raise PuzzleError(f"config solver_formulations: {err}") from None
        _check_formulation_names(wanted)
    return {name: [wanted] if isinstance(wanted, str) else list(wanted) for name, wanted in chosen.items()}


def plan(config: dict) -> list[Job]:
    """Every job of the grid: sets x solvers x seeds x chunks, each job running all the
    formulations the config selects for its set and solver (or one of them, without
    ``group_formulations``); a chunk holds about ``chunk_size`` runs.  A formulation's
    runs on puzzles it does not apply to (:attr:`FormulationInfo.applies`) cost no work:
    the job writes them as ``skipped`` records without building a model.  With ``sample``,
    each calibrated set's puzzles are its stratified sample (:func:`puzzlebench.workflow.sampling.choose`),
    named in each job (``Job.names``)."""
    from ..io.sets import select_sets
    cfg = settings(config)
    configs = solver_configs(cfg)
    _check_formulation_names(cfg["formulations"])
    restricted = solver_formulations(cfg)
    sample = Sample.from_config(cfg["sample"])
    repeats = int(cfg["repeats"])
    runs_per_instance = (1 + int(cfg["permutations"])) * repeats
    common = {"permutations": int(cfg["permutations"]), "time_limit": float(cfg["time_limit"]),
              "threads": int(cfg["threads"]), "max_instances": int(cfg["max_instances"]), "repeats": repeats}
    jobs = []
    sets = select_sets(list(cfg["instance_sets"]))
    for iset in sets:
        entries = choose(iset, sample, int(cfg["max_instances"]))
        chosen = tuple(e.name for e in entries) if sample and read_calibration(iset) is not None else ()
        count = len(entries)
        selected = tuple(formulations_for(iset.puzzle, cfg["formulations"]))
        for solver in configs.values():
            names = tuple(n for n in selected if solver.name not in restricted or n in restricted[solver.name])
            if not count or not names:
                continue
            groups = [(names, "")] if cfg["group_formulations"] else [((name,), name) for name in names]
            for group_names, group in groups:
                infos = [get_formulation(iset.puzzle, name) for name in group_names]
                runs = count * len(group_names) * runs_per_instance
                chunks = max(1, min(count, math.ceil(runs / int(cfg["chunk_size"]))))
                chunks = math.ceil(count / math.ceil(count / chunks))  # no empty chunk at the end
                for chunk in range(chunks):
                    start, stop = chunk_bounds(count, chunk, chunks)
                    cells = [e.puzzle.shape[0] * e.puzzle.shape[1] for e in entries[start:stop]]
                    work = sum(n * runs_per_instance for n, e in zip(cells, entries[start:stop])
                               for info in infos if info.applies(e.puzzle))
                    for seed in cfg["seeds"]:
                        jobs.append(Job(iset.name, group_names, solver.name, int(seed), chunk, chunks,
                                        group=group, instances=stop - start, work=work,
                                        max_cells=max(cells, default=0), adapter=solver.adapter,
                                        solver_options=dict(solver.options), names=chosen, **common))
    check_every_solver_runs(jobs, cfg, sets, configs, restricted)
    check_permutations(cfg, sets, sample)
    return jobs


def check_permutations(cfg: dict, sets: list, sample) -> None:
    """Refuse ``permutations`` above the distinct symmetry copies some selected puzzle has (a 4x4
    Sudoku has 3,071), which its job could only fail on after the planning."""
    from ..transforms import transform_count
    wanted = int(cfg["permutations"])
    if not wanted:
        return
    for iset in sets:
        for entry in choose(iset, sample, int(cfg["max_instances"])):
            if (available := transform_count(entry.puzzle) - 1) < wanted:  # as transforms.check_copies
                raise PuzzleError(f"config permutations = {wanted}: puzzle {entry.name} of {iset.name} has only "
                                  f"{available} distinct symmetry copies")


def check_every_solver_runs(jobs: list[Job], cfg: dict, sets: list, configs: dict, restricted: dict) -> None:
    """Refuse a grid in which a listed solver (or the whole study) plans no run, naming the key that
    emptied it: ``formulations`` selecting nothing of the sets' puzzles, or ``solver_formulations``
    leaving a solver none of them (a study of no runs would fail only at gather, after its
    ``study.yaml`` was written)."""
    puzzles = sorted({iset.puzzle for iset in sets})
    selected = {p: formulations_for(p, cfg["formulations"]) for p in puzzles}
    if not any(selected.values()):
        raise PuzzleError(f"config formulations = {cfg['formulations']!r} selects no formulation of the "
                          f"selected sets' puzzle(s) {', '.join(puzzles)}: the study plans no run")
    if not any(len(iset.entries()) for iset in sets):
        raise PuzzleError(f"config instance_sets = {cfg['instance_sets']!r}: the selected sets hold no "
                          f"puzzle: the study plans no run")
    running = {job.solver for job in jobs}
    for name in configs:
        if name not in running:
            offered = "; ".join(f"{p}: {', '.join(names) or 'none'}" for p, names in selected.items())
            raise PuzzleError(f"config solver_formulations.{name} = {restricted.get(name)!r} leaves solver "
                              f"{name} none of the formulations selected for the sets ({offered}): it "
                              f"would plan no run")


def job_runtime_minutes(job: Job) -> int:
    """A safe wall-clock bound for the scheduler: every run (repeats, noise references and warm-up
    solves included) at its limit plus grace, plus start-up."""
    from ..run.batch import WARM_UP_LIMIT
    from ..run.worker import default_grace
    runs = job.instances * len(job.formulations) * (1 + job.permutations) * job.repeats + 2
    warm = (len(job.formulations) + 1) * (min(job.time_limit, WARM_UP_LIMIT) + default_grace(WARM_UP_LIMIT))
    return math.ceil((runs * (job.time_limit + default_grace(job.time_limit)) + warm + 60) / 60)


# Peak resident memory of a batch job (the job process and its solver child), measured with every
# solver on the binary, integer and cp-natural models: 163-221 MB on 9x9 Sudokus, 222 MB on the
# 31x46 Kakuro, 280-372 MB on the 36x36 Sudoku (sudoku/blank65-36).
MEMORY_BASE_MB = 220
MEMORY_PER_CELL_MB = 0.12


def job_memory_mb(job: Job) -> int:
    """The job's memory request: twice the measured peak, base + per-cell x largest grid, in 100 MB steps."""
    peak = MEMORY_BASE_MB + MEMORY_PER_CELL_MB * job.max_cells
    return 100 * math.ceil(2 * peak / 100)
