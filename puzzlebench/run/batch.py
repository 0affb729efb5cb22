"""A batch job: one (instance set, solver, seed) with one or more formulations, or a chunk of it.

Imports and the solver child process are paid once per job.  Every row is a RunRecord
plus its RunContext (the instance's set, size, number of givens, permutation id,
reference solution, repeat and place in the job's order) and the Provenance of the run.

The order is fair: for each instance (and permuted copy), the job's (formulation, repeat)
runs are shuffled with a generator seeded by :func:`order_seed`, a digest of the job's
keys, so no formulation always runs first and the same job always runs in the same order;
each row records its ``job_position`` and the ``order_seed``.  Before the first timed run an
unrecorded warm-up pays what first calls cost (imports, the solver library, caches, the
allocator): every formulation of the job built and solved once on the job's smallest
puzzle, through the same solver process, and one reference solve.  The job also solves a
fixed reference puzzle at its start and end (``role = "noise"``) as a health check of the
machine.  A run whose formulation does not apply to the puzzle, or whose model does not
build or decode, is a ``skipped`` row, and the job goes on.  The rows go between the header and end
line of a chunk file (:mod:`puzzlebench.store.chunks`), written atomically: to a temporary file,
renamed into place when the job is complete.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np

from ..errors import PuzzleError
from ..registry import get_formulation, solvers
from ..solvers.contract import SolveOptions
from ..store import chunks
from ..store.provenance import cpu_pressure_total, stamp
from ..store.records import RunContext
from ..system.atomic import WRITE_ERRORS
from ..system.processes import OWNER, owner, remove_leftovers
from .jobs import Job
from .runner import run, run_sequence, solver_version
from .worker import SolverProcess

NOISE_PUZZLE = ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2."
NOISE_FORMULATION, NOISE_SOLVER = "binary", "highs"
NOISE_RUNS = 2  # at the start and at the end of every job
WARM_UP_LIMIT = 1.0
"""Seconds each warm-up solve may take at most (it is never recorded)."""

__all__ = ["Job", "run_job", "write_rows_atomically"]


def size_label(puzzle) -> str:
    rows, cols = puzzle.shape
    return f"{rows}x{cols}"


def noise_puzzle():
    from ..puzzles import Sudoku
    return Sudoku(np.array([0 if ch == "." else int(ch) for ch in NOISE_PUZZLE]).reshape(9, 9),
                  name="noise-reference")


def select_entries(job: Job) -> list:
    """The entries of the job's chunk of its set."""
    from ..io.sets import get_set
    return job.select(get_set(job.instance_set).entries())


def _variants(entry, job: Job):
    """(permutation id, puzzle, transform or None): the original, then the permuted copies."""
    yield 0, entry.puzzle, None
    if job.permutations:
        from ..transforms import permuted_copies
        for pid, transform, puzzle in permuted_copies(entry.puzzle, job.permutations, job.seed):
            yield pid, puzzle, transform


def order_seed(job: Job) -> int:
    """The seed of the job's run order: a digest of what the job runs (set, formulations, solver,
    seed, chunk, permutations, repeats, puzzles), so the same job shuffles the same way."""
    key = json.dumps([job.instance_set, list(job.formulations), job.solver, job.seed, job.chunk, job.chunks,
                      job.permutations, job.repeats, list(job.names)])
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


def run_order(job: Job, variants: list, seed: int) -> list[tuple]:
    """The job's timed runs in order: per variant (instance or permuted copy), in set order, its
    (formulation, repeat) pairs shuffled by a generator seeded with ``seed``."""
    rng = np.random.default_rng(seed)
    pairs = [(name, repeat) for name in job.formulations for repeat in range(job.repeats)]
    return [(variant, *pairs[i]) for variant in variants for i in rng.permutation(len(pairs))]


def _applies(name: str, puzzle) -> bool:
    """Whether formulation ``name`` takes ``puzzle``; False when its check fails (the runs record why)."""
    try:
        return bool(get_formulation(puzzle.puzzle, name).applies(puzzle))
    except Exception:  # noqa: BLE001 -- a plug-in's failing check is its runs' error, not the job's
        return False


def warm_up(formulations, entries: list, config, options: SolveOptions, process: SolverProcess) -> None:
    """Build and solve each of ``formulations`` once on the smallest puzzle of ``entries`` it applies
    to, and the noise reference once, through ``process``, each solve at most :data:`WARM_UP_LIMIT`
    seconds; nothing is recorded (see the module doc)."""
    quick = replace(options, time_limit=min(options.time_limit, WARM_UP_LIMIT))
    by_size = sorted((e.puzzle for e in entries), key=lambda p: p.shape[0] * p.shape[1])
    for name in formulations:
        puzzle = next((p for p in by_size if _applies(name, p)), None)
        if puzzle is not None:
            run(puzzle, name, config, quick, process=process)
    run(noise_puzzle(), NOISE_FORMULATION, NOISE_SOLVER, quick, process=process)


class _Pressure:
    """The share of the wall time since the last call during which some task waited for a CPU."""

    def __init__(self):
        self.last = (time.monotonic(), cpu_pressure_total())

    def share(self) -> float | None:
        now = (time.monotonic(), cpu_pressure_total())
        (t0, p0), (t1, p1) = self.last, now
        self.last = now
        if p0 is None or p1 is None or t1 <= t0:
            return None
        return round(min(1.0, max(0.0, (p1 - p0) / (t1 - t0))), 4)


def run_job(job: Job, progress: bool = True):
    """Yield the lines of the job's chunk file: header, one row (a dict) per run and noise
    reference, end line."""
    config = job.solver_config
    entries = select_entries(job)
    for entry in entries:
        for name in job.formulations:
            get_formulation(entry.puzzle.puzzle, name)
    options = SolveOptions(threads=job.threads, seed=job.seed, time_limit=job.time_limit)
    provenance = stamp(json.dumps({s.name: _safe_version(s) for s in solvers()}))
    reference = noise_puzzle()
    variants = [(entry, pid, puzzle, transform) for entry in entries
                for pid, puzzle, transform in _variants(entry, job)]
    seed = order_seed(job)
    order = run_order(job, variants, seed)
    planned = [(name, entry.name, pid, repeat) for (entry, pid, _, _), name, repeat in order]
    yield chunks.header(asdict(job), planned, NOISE_RUNS)
    bar = None
    if progress and sys.stderr.isatty() and len(planned) > 1:
        from tqdm import tqdm  # imported only when a bar is shown
        bar = tqdm(total=len(planned), desc=f"{job.instance_set} {config.name}", unit="run", file=sys.stderr)
    with SolverProcess() as process:
        warm_up(job.formulations, entries, config, options, process)
        pressure = _Pressure()
        yield _noise_row(reference, options, process, job, provenance, pressure)
        records = run_sequence(((puzzle, entry.name, name) for (entry, _, puzzle, _), name, _ in order), config,
                               options, process)
        for position, (((entry, pid, puzzle, transform), _, repeat), record) in enumerate(
                zip(order, records, strict=True)):
            row = record.to_dict()
            if transform is not None and record.solution is not None:
                original = transform.unmap_solution(np.asarray(record.solution))
                row["solution"] = original.tolist()
            context = RunContext(job.instance_set, "run", size_label(puzzle), puzzle.num_givens, pid,
                                 bool(entry.solutions), _matches(entry.solutions, row["solution"]),
                                 repeat=repeat, job_position=position, order_seed=seed,
                                 cpu_pressure=pressure.share())
            row.update(asdict(context), **provenance)
            if bar is not None:
                bar.update()
            yield row
        yield _noise_row(reference, options, process, job, provenance, pressure)
    if bar is not None:
        bar.close()
    yield chunks.end(len(planned) + NOISE_RUNS)


def _matches(references, solution) -> bool | None:
    """Whether ``solution`` equals one of the reference solutions (None without either)."""
    if not len(references) or solution is None:
        return None
    return any(np.array_equal(np.asarray(reference), np.asarray(solution)) for reference in references)


def _noise_row(puzzle, options: SolveOptions, process, job: Job, provenance: dict, pressure: _Pressure) -> dict:
    record = run(puzzle, NOISE_FORMULATION, NOISE_SOLVER, options, process=process)
    context = RunContext(job.instance_set, "noise", "9x9", puzzle.num_givens, 0, order_seed=order_seed(job),
                         cpu_pressure=pressure.share())
    return {**record.to_dict(), **asdict(context), **provenance}


def _safe_version(info) -> str:
    try:
        return solver_version(info.name)
    except Exception as exc:
        return f"unavailable: {exc}"


TEMPORARY = r"\..+\.jsonl\.tmp-" + OWNER
"""The temporary chunk file of a running job, named by its owner (:func:`puzzlebench.system.processes.owner`)."""


def write_rows_atomically(rows, path: str | Path) -> int:
    """Write the rows (dicts: for a job, the lines :func:`run_job` yields) as JSON lines to
    ``path`` via a temporary file; return the number of lines."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(path.parent, TEMPORARY)  # of jobs killed with SIGKILL here (SIGTERM cleans up itself)
    tmp = path.with_name(f".{path.name}.tmp-{owner()}")
    count = 0
    try:
        with tmp.open("w") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
                count += 1
        os.replace(tmp, path)
    except OSError as err:
        if err.errno not in WRITE_ERRORS:
            raise
        raise PuzzleError(f"cannot write it: {err.strerror}", path=str(path)) from None
    finally:
        tmp.unlink(missing_ok=True)
        if hasattr(rows, "close"):  # a job stopped early (SIGTERM) closes its solver process now
            rows.close()
    return count
