"""The experiment grid of the Snakemake workflow, planned from its config.

Config keys (see config.yaml): ``instance_sets`` (names or globs), ``formulations``
(``all``, a list, or a mapping puzzle -> list/``all``), ``solvers``, ``seeds``,
``permutations``, ``time_limit``, ``threads``, ``results``, plus ``max_instances``
(first N of each set, 0 = all) and ``chunk_size`` (runs per job).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import PuzzleError
from .puzzles import PUZZLE_NAMES
from .registry import formulations, get_solver

DEFAULTS = {"formulations": "all", "solvers": ["cbc", "highs", "scip", "scip-cp", "cpsat"], "seeds": [0],
            "permutations": 0, "time_limit": 10.0, "threads": 1, "results": "results",
            "max_instances": 0, "chunk_size": 50, "group_formulations": True}
KNOWN_KEYS = set(DEFAULTS) | {"instance_sets", "analysis", "solver_configs"}


@dataclass(frozen=True)
class PlannedJob:
    """One batch job: every selected formulation of one set on one solver and seed (or a chunk),
    or, with ``group_formulations: false``, one formulation of them (``group`` is its name).

    Grouping the formulations keeps the jobs few: each job is a process that pays
    interpreter start, imports, the solver library's loading and two noise
    references, which for a small set costs more than its solves.  One job per
    formulation suits long solves on a cluster, where more, smaller jobs spread better.
    """

    puzzle: str
    set: str          # the set's folder name inside its puzzle folder
    formulations: tuple[str, ...]
    solver: str
    seed: int
    chunk: int
    chunks: int
    instances: int    # puzzles in this chunk (permutations not counted)
    work: int = 0     # a rough cost estimate: grid cells x formulations x runs per puzzle
    group: str = ""   # "" for all formulations in one job, else the job's one formulation

    @property
    def instance_set(self) -> str:
        return f"{self.puzzle}/{self.set}"

    def path(self, results: str) -> str:
        group = f"{self.group}/" if self.group else ""
        return (f"{results}/runs/{self.puzzle}/{self.set}/{self.solver}/"
                f"seed{self.seed}/{group}chunk{self.chunk}of{self.chunks}.jsonl")


def settings(config: dict) -> dict:
    """The config with defaults filled in; unknown keys are an error."""
    unknown = set(config) - KNOWN_KEYS
    if unknown:
        raise PuzzleError(f"unknown config key(s): {', '.join(sorted(unknown))} "
                          f"(known: {', '.join(sorted(KNOWN_KEYS))})")
    if "instance_sets" not in config:
        raise PuzzleError("the config names no instance_sets")
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
        if puzzle is not None and puzzle not in PUZZLE_NAMES:
            raise PuzzleError(f"config formulations: unknown puzzle {puzzle!r} "
                              f"(known: {', '.join(PUZZLE_NAMES)})")
        names = [names] if isinstance(names, str) else list(names)
        known = {f.name for f in formulations(puzzle)} if puzzle else {f.name for f in formulations()}
        unknown = [n for n in names if n != "all" and n not in known]
        if unknown:
            where = f" for {puzzle}" if puzzle else ""
            raise PuzzleError(f"config formulations: unknown formulation {unknown[0]!r}{where} "
                              f"(known: {', '.join(sorted(known))})")


def plan(config: dict) -> list[PlannedJob]:
    """Every job of the grid: sets x solvers x seeds x chunks, each job running all the
    formulations the config selects for its set (or one of them, without
    ``group_formulations``); a chunk holds about ``chunk_size`` runs."""
    from .sets import select_sets
    cfg = settings(config)
    configs = cfg.get("solver_configs") or {}  # name -> {solver: adapter, options: {...}} (issue 13)
    for name in cfg["solvers"]:
        get_solver(configs[name]["solver"] if name in configs else name)
    _check_formulation_names(cfg["formulations"])
    runs_per_instance = 1 + int(cfg["permutations"])
    jobs = []
    for iset in select_sets(list(cfg["instance_sets"])):
        entries = iset.entries()
        count = len(entries)
        if cfg["max_instances"]:
            count = min(count, int(cfg["max_instances"]))
        names = tuple(formulations_for(iset.puzzle, cfg["formulations"]))
        if not count or not names:
            continue
        groups = [(names, "")] if cfg["group_formulations"] else [((name,), name) for name in names]
        puzzle, set_name = iset.name.split("/", 1)
        for group_names, group in groups:
            runs = count * len(group_names) * runs_per_instance
            chunks = max(1, min(count, math.ceil(runs / int(cfg["chunk_size"]))))
            per = math.ceil(count / chunks)
            chunks = math.ceil(count / per)
            for solver in cfg["solvers"]:
                for seed in cfg["seeds"]:
                    for chunk in range(chunks):
                        size = min(per, count - chunk * per)
                        cells = sum(e.puzzle.shape[0] * e.puzzle.shape[1]
                                    for e in entries[chunk * per: chunk * per + size])
                        jobs.append(PlannedJob(puzzle, set_name, group_names, solver, int(seed), chunk, chunks,
                                               size, cells * len(group_names) * runs_per_instance, group))
    return jobs


def job_runtime_minutes(job: PlannedJob, cfg: dict) -> int:
    """A safe wall-clock bound for the scheduler: every run at its limit plus grace, plus start-up."""
    from .worker import default_grace
    runs = job.instances * len(job.formulations) * (1 + int(cfg["permutations"])) + 2
    return math.ceil((runs * (cfg["time_limit"] + default_grace(cfg["time_limit"])) + 60) / 60)
