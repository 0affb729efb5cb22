"""Job files (chunks): JSON lines that prove they are whole.

A chunk file written by ``puzzlebench batch`` is::

    {"role": "job", "format": 2, "job": {...}, "runs": [[formulation, instance, permutation, repeat], ...], "noise": 2}
    {"role": "noise", ...}      one row per line: a RunRecord plus its RunContext and Provenance
    {"role": "run", ...}
    ...
    {"role": "end", "rows": N}

The header lists every run the job was planned to make (and how many noise
references); the end line counts the rows between the two.  :func:`read_chunk`
refuses, with one line naming the file (and line) and the problem, a file
whose rows are unreadable, missing, extra or duplicated, or that has no end
line (cut short).  JSON lines without a header (``puzzlebench solve --json``)
are read as plain records by :func:`read_records`.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass

from ..errors import PuzzleError

CHUNK_FORMAT = 2  # 2: a run's key has its repeat
HEADER, END = "job", "end"
ROW_ROLES = ("run", "noise")


def run_key(row: dict) -> tuple[str, str, int, int]:
    """What tells the runs of one job apart: (formulation, instance, permutation, repeat)."""
    return row.get("formulation"), row.get("instance"), row.get("permutation", 0), row.get("repeat", 0)


def header(job: dict, runs: list[tuple[str, str, int, int]], noise: int) -> dict:
    return {"role": HEADER, "format": CHUNK_FORMAT, "job": job, "runs": [list(k) for k in runs], "noise": noise}


def end(rows: int) -> dict:
    return {"role": END, "rows": rows}


@dataclass
class Chunk:
    path: str
    job: dict | None          # None for plain records without a header
    rows: list[dict]          # the run and noise rows, in file order


def _lines(path) -> list[tuple[int, dict]]:
    """(line number, object) for every non-blank line; an unreadable one is a PuzzleError."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except UnicodeDecodeError as err:
        raise PuzzleError(f"not UTF-8 text ({err.reason})", path=str(path)) from None
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as err:
            raise PuzzleError(f"unreadable row ({err.msg} at column {err.colno}): the file is cut or "
                              f"corrupt; rerun its job", path=str(path), line=number) from None
        if not isinstance(value, dict):
            raise PuzzleError("unreadable row: not a JSON object", path=str(path), line=number)
        out.append((number, value))
    return out


def read_chunk(path) -> Chunk:
    """The rows of a chunk file, checked against its header and end line (see the module doc)."""
    lines = _lines(path)
    where = {"path": str(path)}
    if not lines or lines[0][1].get("role") != HEADER:
        raise PuzzleError("no job header on the first line: not a chunk file written by this puzzlebench "
                          "(or cut at its start); rerun its job", **where)
    head = lines[0][1]
    if head.get("format") != CHUNK_FORMAT:
        raise PuzzleError(f"chunk format {head.get('format')!r}, this puzzlebench reads {CHUNK_FORMAT}; "
                          f"rerun its job", **where, line=lines[0][0])
    if len(lines) < 2 or lines[-1][1].get("role") != END:
        raise PuzzleError(f"no end line: the file is cut short after {len(lines) - 1} row(s); rerun its job",
                          **where)
    body = lines[1:-1]
    if (stated := lines[-1][1].get("rows")) != len(body):
        raise PuzzleError(f"the end line counts {stated} row(s), the file holds {len(body)}", **where,
                          line=lines[-1][0])
    planned = Counter(tuple(k) for k in head.get("runs", []))
    seen: Counter = Counter()
    noise = 0
    for number, row in body:
        role = row.get("role")
        if role == "noise":
            noise += 1
            continue
        if role != "run":
            raise PuzzleError(f"row with role {role!r} (expected one of {', '.join(ROW_ROLES)})", **where,
                              line=number)
        key = run_key(row)
        seen[key] += 1
        if key not in planned:
            raise PuzzleError(f"row {key} is not one of the job's planned runs", **where, line=number)
        if seen[key] > planned[key]:
            raise PuzzleError(f"duplicate row {key}", **where, line=number)
    if missing := list((planned - seen).elements()):
        raise PuzzleError(f"{len(missing)} of {sum(planned.values())} planned run(s) missing, the first "
                          f"{missing[0]}", **where)
    if noise != head.get("noise", 0):
        raise PuzzleError(f"{noise} noise reference row(s), the header plans {head.get('noise', 0)}", **where)
    return Chunk(str(path), head.get("job"), [row for _, row in body])


def read_records(path) -> Chunk:
    """A chunk file (checked, as :func:`read_chunk`) or JSON lines of plain run records."""
    lines = _lines(path)
    if lines and lines[0][1].get("role") == HEADER:
        return read_chunk(path)
    return Chunk(str(path), None, [row for _, row in lines])


STORE_KEY = ("instance_set", "instance", "permutation", "formulation", "solver", "seed", "repeat")
"""What tells two runs of a store apart (a run key): the same key twice is the same run stored twice
(``repeat``, where a row has it, numbers the repeated runs of one instance)."""


def refuse_duplicates(chunks: list[Chunk]) -> None:
    """PuzzleError naming both files when two chunks are one file given twice, hold the same job
    (a chunk and a copy of it under another name), or share a run key (:data:`STORE_KEY`)."""
    seen_paths: dict[str, str] = {}
    seen_jobs: dict[str, str] = {}
    seen_runs: dict[tuple, str] = {}
    for chunk in chunks:
        real = os.path.realpath(chunk.path)
        if real in seen_paths:
            raise PuzzleError(f"{chunk.path} is given twice ({seen_paths[real]} is the same file): its runs "
                              f"would be stored twice")
        seen_paths[real] = chunk.path
        if chunk.job is not None:
            job = json.dumps(chunk.job, sort_keys=True)
            if job in seen_jobs:
                raise PuzzleError(f"{seen_jobs[job]} and {chunk.path} hold the same job: one is a copy of "
                                  f"the other; give one of them")
            seen_jobs[job] = chunk.path
        for row in chunk.rows:
            if row.get("role", "run") != "run":
                continue
            key = tuple(row.get(name) for name in STORE_KEY)
            if key in seen_runs:
                where = f"{chunk.path} holds it twice" if seen_runs[key] == chunk.path else \
                    f"{seen_runs[key]} and {chunk.path} both hold it"
                raise PuzzleError(f"the run {dict(zip(STORE_KEY, key))} is not unique ({where}): a run is "
                                  f"stored once")
            seen_runs[key] = chunk.path
