"""One batch job, as the workflow plans it and ``puzzlebench batch`` runs it.

The planner (:func:`puzzlebench.workflow.planner.plan`) makes the jobs; the
Snakefile hands each one whole to ``puzzlebench batch --job JSON``, so which
puzzles a chunk holds and where its file goes are computed here only.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields

from ..errors import PuzzleError


def chunk_bounds(count: int, chunk: int, chunks: int) -> tuple[int, int]:
    """The [start, stop) of chunk ``chunk`` of ``chunks`` contiguous chunks of ``count`` items:
    every chunk but the last holds ceil(count / chunks) items."""
    per = math.ceil(count / chunks) if count else 0
    return min(count, chunk * per), min(count, (chunk + 1) * per)


@dataclass(frozen=True)
class Job:
    """Every selected formulation of one instance set (or chunk ``chunk`` of ``chunks`` of its
    first ``max_instances`` puzzles, 0 = all) on one solver and seed, or, with ``group`` set,
    one formulation of them.

    Grouping the formulations keeps the jobs few: each job is a process that pays
    interpreter start, imports, the solver library's loading and two noise
    references, which for a small set costs more than its solves.  One job per
    formulation suits long solves on a cluster, where more, smaller jobs spread better.
    ``solver`` is the name the record's ``solver`` column gets: a solver configuration's
    (:mod:`puzzlebench.solvers.configs`), run as adapter ``adapter`` with ``solver_options``
    (the planner writes both, so the job file alone says what runs; an empty ``adapter``
    means ``solver`` names a shipped configuration or a plain adapter).  ``repeats`` runs each
    (instance, formulation) that many times (the ``repeat`` column).  ``names``, when not empty, are
    the set's puzzles the study chose (the planner's sample, :mod:`puzzlebench.workflow.sampling`), in set
    order, instead of the first ``max_instances``; the chunk is taken of them.  ``instances`` and
    ``work`` are the planner's figures (puzzles in the chunk; grid cells x runs, a
    rough cost for the scheduler's priority; ``max_cells``, the largest grid, sizes the
    memory request); a job given on the command line has 0.
    """

    instance_set: str               # "<puzzle>/<set>"
    formulations: tuple[str, ...]
    solver: str
    seed: int = 0
    chunk: int = 0
    chunks: int = 1
    permutations: int = 0
    time_limit: float = 60.0
    threads: int = 1
    max_instances: int = 0
    group: str = ""                 # "" for all formulations in one job, else the job's one formulation
    instances: int = 0
    work: int = 0
    max_cells: int = 0              # cells of the chunk's largest grid (sets the memory request)
    adapter: str = ""               # the configuration's adapter ("": resolve ``solver``)
    solver_options: dict = field(default_factory=dict, hash=False)  # the configuration's solver options
    repeats: int = 1
    names: tuple[str, ...] = ()     # the chosen puzzles of the set ((): the first max_instances)

    def __post_init__(self):
        if isinstance(self.formulations, str):  # "a,b" as the command line gives it
            names = [name.strip() for name in self.formulations.split(",")]
            object.__setattr__(self, "formulations", tuple(name for name in names if name))
        else:
            object.__setattr__(self, "formulations", tuple(self.formulations))
        object.__setattr__(self, "names", tuple(self.names))

    @property
    def solver_config(self):
        """The job's :class:`~puzzlebench.solvers.configs.SolverConfig` (adapter and options)."""
        from ..solvers.configs import SolverConfig, resolve
        if not self.adapter:
            return resolve(self.solver).with_options(self.solver_options)
        return SolverConfig(self.solver, self.adapter, dict(self.solver_options))

    @property
    def puzzle(self) -> str:
        return self.instance_set.split("/", 1)[0]

    @property
    def set(self) -> str:
        """The set's folder name inside its puzzle folder."""
        return self.instance_set.split("/", 1)[1]

    def path(self, results: str) -> str:
        """The job's file in the results folder ``results``."""
        group = f"{self.group}/" if self.group else ""
        return (f"{results}/runs/{self.puzzle}/{self.set}/{self.solver}/"
                f"seed{self.seed}/{group}chunk{self.chunk}of{self.chunks}.jsonl")

    def select(self, entries: list) -> list:
        """The job's entries of its set's ``entries``: the chunk of the chosen ones (``names``) or of
        the first ``max_instances``."""
        if self.names:
            by_name = {entry.name: entry for entry in entries}
            if missing := [name for name in self.names if name not in by_name]:
                raise PuzzleError(f"--job: {self.instance_set} holds no puzzle {missing[0]!r}")
            entries = [by_name[name] for name in self.names]
        elif self.max_instances:
            entries = entries[: self.max_instances]
        start, stop = chunk_bounds(len(entries), self.chunk, self.chunks)
        return entries[start:stop]

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Job":
        """The job of :meth:`to_json`'s text; PuzzleError naming the problem for anything else."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise PuzzleError(f"--job: not JSON ({err.msg} at character {err.pos})") from None
        if not isinstance(data, dict):
            raise PuzzleError("--job: expected a JSON object")
        known = {f.name for f in fields(cls)}
        if unknown := sorted(set(data) - known):
            raise PuzzleError(f"--job: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        from ..workflow.config import validate_job
        validate_job(data)
        integers = {f.name for f in fields(cls) if f.type == "int"}  # 2.0 is an integer to JSON schema
        return cls(**{key: int(value) if key in integers else value for key, value in data.items()}).validated()

    def validated(self, label: str = "--job") -> "Job":
        """This job, or PuzzleError (one line) when the config it came from could not have planned it:
        each key against the rule of its config key (the config schema's ``$defs/job``), chunk below
        chunks, ``group`` its one formulation, and a solver name that is not another solver's
        (:func:`puzzlebench.solvers.configs.check_label`)."""
        from ..workflow.config import validate_job
        from ..solvers.configs import check_label
        validate_job(json.loads(self.to_json()), label)
        if self.chunk >= self.chunks:
            raise PuzzleError(f"{label}: chunk = {self.chunk}: must be 0..{self.chunks - 1} (the job has "
                              f"{self.chunks} chunk(s))")
        if self.group and self.formulations != (self.group,):
            raise PuzzleError(f"{label}: group = {self.group!r}: must be '' or the job's one formulation, not "
                              f"with formulations {list(self.formulations)}")
        config = self.solver_config
        config.info  # an unknown adapter: its PuzzleError, before the name is checked against it
        check_label(self.solver, config.adapter, config.options, f"{label} solver")
        return self
