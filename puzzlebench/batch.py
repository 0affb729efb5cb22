"""A batch job: one (instance set, solver, seed) with one or more formulations, or a chunk of it.

Imports and the solver child process are paid once per job; the solves run one
at a time, formulation by formulation.  Every row is a RunRecord plus the
instance's set, size, number of givens and permutation id, and the provenance
of the run.  The job also solves
a fixed reference puzzle at its start and end (``role = "noise"``) so the
analysis can report how noisy the machine was.  Rows are written atomically:
to a temporary file, renamed into place when the job is complete.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .provenance import stamp
from .records import SolveOptions
from .registry import get_formulation, solvers
from .runner import run, run_many, solver_version
from .solver_configs import SolverConfig, resolve
from .worker import SolverProcess

NOISE_PUZZLE = ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2."
NOISE_FORMULATION, NOISE_SOLVER = "binary", "highs"


@dataclass
class Job:
    instance_set: str
    formulation: str | tuple[str, ...]  # one name, several (a tuple), or several comma-separated
    solver: str | SolverConfig  # an adapter or configuration, or its name
    seed: int = 0
    chunk: int = 0
    chunks: int = 1
    permutations: int = 0
    time_limit: float = 60.0
    threads: int = 1
    max_instances: int = 0

    @property
    def formulations(self) -> tuple[str, ...]:
        names = self.formulation.split(",") if isinstance(self.formulation, str) else self.formulation
        return tuple(name.strip() for name in names if name.strip())


def size_label(puzzle) -> str:
    rows, cols = puzzle.shape
    return f"{rows}x{cols}"


def noise_puzzle():
    from .puzzles import Sudoku
    return Sudoku(np.array([0 if ch == "." else int(ch) for ch in NOISE_PUZZLE]).reshape(9, 9),
                  name="noise-reference")


def select_entries(job: Job) -> list:
    """The entries of the job's chunk: the first ``max_instances`` of the set, split in contiguous chunks."""
    from .sets import get_set
    entries = get_set(job.instance_set).entries()
    if job.max_instances:
        entries = entries[: job.max_instances]
    per = -(-len(entries) // job.chunks) if entries else 0
    return entries[job.chunk * per: (job.chunk + 1) * per]


def _variants(entry, job: Job):
    """(permutation id, puzzle, transform or None): the original, then the permuted copies."""
    yield 0, entry.puzzle, None
    if job.permutations:
        from .transforms import permuted_copies
        for pid, transform, puzzle in permuted_copies(entry.puzzle, job.permutations, job.seed):
            yield pid, puzzle, transform


def run_job(job: Job, progress: bool = True):
    """Yield one row (a dict) per run of the job, noise references included."""
    config = resolve(job.solver)
    entries = select_entries(job)
    for entry in entries:
        for name in job.formulations:
            get_formulation(entry.puzzle.puzzle, name)
    options = SolveOptions(threads=job.threads, seed=job.seed, time_limit=job.time_limit)
    provenance = stamp()
    provenance["solver_versions"] = json.dumps({s.name: _safe_version(s) for s in solvers()})
    common = {"instance_set": job.instance_set, **provenance}
    reference = noise_puzzle()
    variants = [(entry, pid, puzzle, transform) for entry in entries
                for pid, puzzle, transform in _variants(entry, job)]
    bar = None
    if progress and sys.stderr.isatty() and len(variants) * len(job.formulations) > 1:
        from tqdm import tqdm  # imported only when a bar is shown
        bar = tqdm(total=len(variants) * len(job.formulations), desc=f"{job.instance_set} {config.name}",
                   unit="run", file=sys.stderr)
    with SolverProcess() as process:
        yield _noise_row(reference, options, process, common)
        for name in job.formulations:
            records = run_many(((puzzle, entry.name) for entry, _, puzzle, _ in variants), name, config,
                               options, process)
            for (entry, pid, puzzle, transform), record in zip(variants, records, strict=True):
                row = record.to_dict()
                if transform is not None and record.solution is not None:
                    original = transform.unmap_solution(np.asarray(record.solution))
                    row["solution"] = original.tolist()
                row.update(common, role="run", size=size_label(puzzle), givens=puzzle.num_givens,
                           permutation=pid, reference_match=_matches(entry.solution, row["solution"]))
                if bar is not None:
                    bar.update()
                yield row
        yield _noise_row(reference, options, process, common)
    if bar is not None:
        bar.close()


def _matches(reference, solution) -> bool | None:
    if reference is None or solution is None:
        return None
    return bool(np.array_equal(np.asarray(reference), np.asarray(solution)))


def _noise_row(puzzle, options: SolveOptions, process, common: dict) -> dict:
    record = run(puzzle, NOISE_FORMULATION, NOISE_SOLVER, options, process=process)
    row = record.to_dict()
    row.update(common, role="noise", size="9x9", givens=puzzle.num_givens, permutation=0,
               reference_match=None)
    return row


def _safe_version(info) -> str:
    try:
        return solver_version(info.name)
    except Exception as exc:
        return f"unavailable: {exc}"


def write_rows_atomically(rows, path: str | Path) -> int:
    """Write the rows as JSON lines to ``path`` via a temporary file; return the count."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    count = 0
    try:
        with tmp.open("w") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
                count += 1
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return count
