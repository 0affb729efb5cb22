"""The results store: job files gathered into one typed table, each run's outcome, and its anomalies.

``runs.parquet`` / ``runs.csv`` hold one row per run with the columns of
:data:`SCHEMA`: every field of RunRecord, RunContext and Provenance (in that
order; adding a field to one of them adds the column), then ``outcome`` and
``schema_version``.  ``solution`` and ``violations`` are JSON text.
``noise.csv`` holds the jobs' reference solves; ``anomalies.csv`` every run
whose outcome is in :data:`ANOMALIES`; ``store.json`` (the workflow's marker
that a gather succeeded) the counts.  The four store files are links through
``.store/current`` to the folder of the last gather, switched in one rename
(:func:`_publish`), so a reader never sees two gathers' files side by side.

The outcome of a run is decided here, once (:func:`decide_outcomes`):

* ``solved``: status optimal/feasible with a grid the checker accepts;
* ``infeasible_proved``: status infeasible, and no reference solution and no
  run of the same puzzle (any formulation, solver, seed or permutation) shows a valid grid;
* ``wrong``: a grid the checker rejects (whatever the status); not an anomaly for a run of a
  relaxation (its ``relaxation`` column True: ``@formulation(..., relaxation=True)``, recorded with the
  run), whose grids may break a rule it leaves out;
* ``false_infeasible``: status infeasible while a valid grid exists (the
  reference solution, or another run's accepted grid);
* ``no_grid``: status optimal/feasible with no grid returned;
* ``time_limit``, ``error``: the status;
* ``skipped``: the run was not made (reason in ``message``): the formulation does not
  apply or does not build, the solver cannot take the model, or a commercial solver's
  size-limited licence refuses it; or the formulation's decode failed on the solver's point.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import types
import typing
from dataclasses import MISSING, fields
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from ..errors import PuzzleError
from ..system.atomic import WRITE_ERRORS, current_umask
from ..system.processes import OWNER, owner, remove_leftovers
from .chunks import Chunk, read_chunk, read_records, refuse_duplicates
from .provenance import Provenance
from .records import RunContext, RunRecord

SCHEMA_VERSION = 5  # 2: root_lp_time; 3: model_hash, model_fingerprint, repeat, job_position, order_seed,
#   cpu_pressure, load_average; 4: relaxation (null for rows of job files written before it);
#   5: conversion_time (likewise null)
ROW_PARTS = (RunRecord, RunContext, Provenance)
OUTCOMES = ("solved", "infeasible_proved", "wrong", "false_infeasible", "no_grid", "time_limit", "error",
            "skipped")
SOLVED_OUTCOMES = ("solved", "infeasible_proved")
ANOMALIES = ("wrong", "false_infeasible", "no_grid", "error")
ANOMALY_COLUMNS = ["kind", "instance_set", "instance", "permutation", "formulation", "solver", "seed",
                   "status", "detail"]
MANIFEST = "store.json"
"""The workflow's mark that a gather succeeded (``puzzlebench gather --manifest``)."""
_ARROW_TYPES = {str: pa.string(), int: pa.int64(), float: pa.float64(), bool: pa.bool_()}


def _arrow_type(hint) -> tuple[pa.DataType, bool]:
    """The Arrow type of a field's type hint, and whether the value is stored as JSON text (lists)."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        hint = args[0]
    if typing.get_origin(hint) is list:
        return pa.string(), True
    return _ARROW_TYPES[hint], False


def _fields():
    """(name, Arrow type, JSON text?, default) of every row field, RunRecord's first."""
    out = []
    for part in ROW_PARTS:
        hints = typing.get_type_hints(part)
        for f in fields(part):
            kind, as_json = _arrow_type(hints[f.name])
            default = f.default if f.default is not MISSING else (
                f.default_factory() if f.default_factory is not MISSING else MISSING)
            out.append((f.name, kind, as_json, default))
    return out


ROW_FIELDS = _fields()
JSON_COLUMNS = tuple(name for name, _, as_json, _ in ROW_FIELDS if as_json)
SCHEMA = pa.schema([pa.field(name, kind) for name, kind, _, _ in ROW_FIELDS]
                   + [pa.field("outcome", pa.string(), nullable=False),
                      pa.field("schema_version", pa.int32(), nullable=False)],
                   metadata={"puzzlebench_schema_version": str(SCHEMA_VERSION)})
COLUMNS = tuple(SCHEMA.names)


def _typed(rows: list[dict], where: str) -> pa.Table:
    """The rows (dicts of one job file) as a table of the row fields, typed; PuzzleError naming
    ``where`` and the column for a missing required field, an unknown field or a bad value."""
    known = {name for name, *_ in ROW_FIELDS}
    for number, row in enumerate(rows, 1):
        if unknown := sorted(set(row) - known):
            raise PuzzleError(f"row {number}: unknown field(s) {', '.join(unknown)}", path=where)
    columns = {}
    for name, kind, as_json, default in ROW_FIELDS:
        if default is MISSING and (absent := next((i for i, r in enumerate(rows, 1) if name not in r), None)):
            raise PuzzleError(f"row {absent}: no {name!r} field", path=where)
        values = [row.get(name, default) for row in rows]
        if as_json:
            values = [json.dumps(v) for v in values]
        try:
            columns[name] = pa.array(values, type=kind)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError) as err:
            raise PuzzleError(f"column {name!r}: {str(err).splitlines()[0]}", path=where) from None
    return pa.table(columns)


def decide_outcomes(runs: pd.DataFrame) -> np.ndarray:
    """The outcome of every run (see the module doc), from ``status``, ``verified``,
    ``reference_known`` and, across the rows of the same (role, instance_set, instance), ``verified``."""
    status = runs["status"]
    verified = runs["verified"]
    accepted = verified.eq(True)
    grid_exists = accepted.groupby([runs["role"], runs["instance_set"], runs["instance"]]).transform("any")
    grid_exists |= runs["reference_known"].eq(True)
    found = status.isin(("optimal", "feasible"))
    infeasible = status.eq("infeasible")
    return np.select(
        [status.eq("skipped"), verified.eq(False), status.eq("error"), status.eq("time_limit"),
         found & accepted, found, infeasible & grid_exists, infeasible],
        ["skipped", "wrong", "error", "time_limit", "solved", "no_grid", "false_infeasible",
         "infeasible_proved"], default="error")


def build_table(chunks) -> pa.Table:
    """One typed table (:data:`SCHEMA`) of the rows of ``chunks`` (:class:`~puzzlebench.store.chunks.Chunk`),
    with every run's outcome decided over all of them."""
    parts = [_typed(chunk.rows, chunk.path) for chunk in chunks]
    table = pa.concat_tables(parts) if parts else _typed([], "")
    frame = table.select(["status", "verified", "reference_known", "instance_set", "instance", "role"]).to_pandas()
    outcome = decide_outcomes(frame)
    table = table.append_column(SCHEMA.field("outcome"), pa.array(outcome, pa.string()))
    table = table.append_column(SCHEMA.field("schema_version"),
                                pa.array(np.full(len(table), SCHEMA_VERSION, np.int32)))
    return table.cast(SCHEMA)


_NULLABLE = {pa.int64(): pd.Int64Dtype(), pa.int32(): pd.Int32Dtype(), pa.bool_(): pd.BooleanDtype()}


def to_frame(table: pa.Table) -> pd.DataFrame:
    """The store as a DataFrame whose types follow the schema, not the values: every integer column
    pandas' nullable ``Int64`` (``Int32`` for ``schema_version``) and every flag ``boolean``, a gap
    ``pd.NA``; doubles stay ``float64`` (a gap NaN) and text is pandas' string type."""
    return table.to_pandas(types_mapper=_NULLABLE.get)


def table_from_rows(rows: list[dict]) -> pa.Table:
    """The store of in-memory rows (RunRecord dicts, with or without their context), outcomes decided."""
    return build_table([Chunk("<rows>", None, list(rows))])


def frame_from_rows(rows: list[dict]) -> pd.DataFrame:
    """:func:`table_from_rows` as a DataFrame."""
    return to_frame(table_from_rows(rows))


def _check_version(table: pa.Table, path) -> pa.Table:
    if "schema_version" not in table.column_names or "outcome" not in table.column_names:
        raise PuzzleError("no schema_version/outcome column: a store written by an older puzzlebench; "
                          "rebuild it with `puzzlebench gather`", path=str(path))
    versions = set(table["schema_version"].unique().to_pylist())
    if versions - {SCHEMA_VERSION}:
        raise PuzzleError(f"schema version {sorted(versions)}, this puzzlebench reads {SCHEMA_VERSION}; "
                          f"rebuild it with `puzzlebench gather`", path=str(path))
    if missing := [c for c in COLUMNS if c not in table.column_names]:
        raise PuzzleError(f"no column(s) {', '.join(missing)}; rebuild it with `puzzlebench gather`",
                          path=str(path))
    return table.select(list(COLUMNS)).cast(SCHEMA)


def read_table(paths) -> pa.Table:
    """The runs in ``paths``: one Parquet or CSV store, or JSON-lines files (chunk files of
    ``batch``, their noise references left out, or the records of ``solve --json``), typed as
    :data:`SCHEMA`."""
    paths = [Path(p) for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths)]
    if not paths:
        raise PuzzleError("no results given")
    for path in paths:
        if not path.is_file():
            raise PuzzleError("no such file", path=str(path))
    suffixes = {p.suffix for p in paths}
    if suffixes <= {".jsonl", ".json", ".ndjson"}:
        chunks = [read_records(p) for p in paths]
        refuse_duplicates(chunks)
        table = build_table(chunks)
        return table.filter(pa.array(table["role"].to_pandas().eq("run")))
    if len(paths) > 1:
        raise PuzzleError("give one store (.parquet or .csv) or JSON-lines files (.jsonl), not a mix")
    path = paths[0]
    try:
        if path.suffix == ".parquet":
            table = pq.read_table(path)
        else:
            options = pa_csv.ConvertOptions(column_types=SCHEMA, strings_can_be_null=False)
            table = pa_csv.read_csv(path, convert_options=options)
    except (pa.ArrowInvalid, OSError) as err:
        raise PuzzleError(f"unreadable store: {str(err).splitlines()[0]}", path=str(path)) from None
    return _check_version(table, path)


def read_store(paths) -> pd.DataFrame:
    """:func:`read_table` as a DataFrame."""
    return to_frame(read_table(paths))


def find_anomalies(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per run whose outcome is an anomaly (wrong, false_infeasible, no_grid, error), but
    for the ``wrong`` runs of a relaxation (their ``relaxation`` column True): its grids may break a
    rule it leaves out, so the checker rejecting them is expected (the outcome stays ``wrong``).  A row
    written before the column existed (null) is not taken for a relaxation's: its wrong grid is listed."""
    relaxed = runs["relaxation"].eq(True).fillna(False)
    bad = runs[runs["outcome"].isin(ANOMALIES) & ~(runs["outcome"].eq("wrong") & relaxed)]
    valid = runs[runs["verified"].eq(True)].groupby(["instance_set", "instance"]).size()

    def detail(r) -> str:
        if r.outcome == "wrong":
            return "; ".join(json.loads(r.violations) if isinstance(r.violations, str) else r.violations)[:500]
        if r.outcome == "false_infeasible":
            others = valid.get((r.instance_set, r.instance), 0)
            return (f"infeasible, but {others} other run(s) found a valid grid"
                    + (" and the set gives its solution" if r.reference_known else ""))
        if r.outcome == "no_grid":
            return f"status {r.status} but no grid returned"
        return str(r.message)[:500]

    out = [(r.outcome, r.instance_set, r.instance, r.permutation, r.formulation, r.solver, r.seed, r.status,
            detail(r)) for r in bad.itertuples()]
    return pd.DataFrame(out, columns=ANOMALY_COLUMNS)


STORE_FILES = ("runs.parquet", "runs.csv", "noise.csv", "anomalies.csv")
GENERATIONS = ".store"
"""``<results>/.store/``: one folder per gather (``PID@HOST-<random>``) and the link ``current`` to the
store readers see; ``<results>/runs.parquet`` etc. are links through ``.store/current``."""
CURRENT = "current"
_TEMPORARY = r"\..+\.tmp-" + OWNER
_GENERATION = OWNER + r"-\w+"


def _replace_link(path: Path, target: str) -> None:
    """Make ``path`` a symbolic link to ``target`` in one step (a link made beside it, renamed over it)."""
    if path.is_symlink() and os.readlink(path) == target:
        return
    temporary = path.with_name(f".{path.name}.tmp-{owner()}")
    temporary.unlink(missing_ok=True)
    temporary.symlink_to(target)
    os.replace(temporary, path)


def _publish(out_dir: Path, writers: dict[str, typing.Callable[[Path], None]]) -> None:
    """Write the store files (``writers``: name -> function writing that file) into a new generation
    folder, then switch ``.store/current`` to it: readers of ``out_dir/<name>`` for the names of
    :data:`STORE_FILES` (links through ``current``) see the old store or the new one, whole, never a
    mix, wherever the process is killed.  Leftovers of killed gathers (temporary files and links,
    generations that never became current) and the previous generation are removed."""
    store = out_dir / GENERATIONS
    store.mkdir(parents=True, exist_ok=True)
    current = store / CURRENT
    previous = os.readlink(current) if current.is_symlink() else None
    remove_leftovers(out_dir, _TEMPORARY)
    remove_leftovers(store, _TEMPORARY)
    remove_leftovers(store, _GENERATION, keep={previous})
    generation = Path(tempfile.mkdtemp(prefix=f"{owner()}-", dir=store))
    generation.chmod(0o777 & ~current_umask())  # mkdtemp makes it 0700: others read it as every output
    try:
        for name, write in writers.items():
            try:
                write(generation / name)
            except OSError as err:
                if err.errno not in WRITE_ERRORS:
                    raise
                raise PuzzleError(f"cannot write it: {err.strerror}", path=str(out_dir / name)) from None
        _replace_link(current, generation.name)  # the one step from the old store to the new
    except BaseException:
        shutil.rmtree(generation, ignore_errors=True)
        raise
    for name in STORE_FILES:
        _replace_link(out_dir / name, f"{GENERATIONS}/{CURRENT}/{name}")
    if previous and previous != generation.name:
        shutil.rmtree(store / previous, ignore_errors=True)


def _write_manifest(path: Path, summary: dict) -> None:
    staged = _stage_manifest(path, summary)
    try:
        os.replace(staged, path)
    finally:
        staged.unlink(missing_ok=True)


def _stage_manifest(path: Path, summary: dict) -> Path:
    """Write the counts to a temporary file beside ``path`` and return it (renamed onto ``path`` by
    the caller): a manifest that cannot be written fails here, before anything is switched."""
    temporary = path.with_name(f".{path.name}.tmp-{owner()}")
    try:
        temporary.write_text(json.dumps(summary, indent=1) + "\n")
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def gather(paths, out_dir, manifest: str | Path | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Check every chunk file, then publish runs.parquet, runs.csv, noise.csv and anomalies.csv in
    ``out_dir`` in one step (:func:`_publish`), and write ``manifest`` (the counts) last, when given.

    A chunk that is not whole, or a run, job or file given twice, is a PuzzleError naming
    the files, raised before anything is written; the previous store stays as it was.
    Returns the runs and the anomalies."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    chunks = [read_chunk(p) for p in paths]
    refuse_duplicates(chunks)
    table = build_table(chunks)
    role = table["role"].to_pandas()
    runs_table = table.filter(pa.array(role.eq("run")))
    noise_table = table.filter(pa.array(role.eq("noise"))).drop_columns(["role", *JSON_COLUMNS])
    runs = to_frame(runs_table)
    anomalies = find_anomalies(runs)
    counts = runs["outcome"].value_counts()
    summary = {"schema_version": SCHEMA_VERSION, "job_files": len(paths), "runs": len(runs),
               "noise": noise_table.num_rows, "anomalies": len(anomalies),
               "outcomes": {o: int(counts.get(o, 0)) for o in OUTCOMES}}
    staged = None
    if manifest is not None:  # never left beside a store it does not count: removed now, renamed in last
        Path(manifest).unlink(missing_ok=True)
        staged = _stage_manifest(Path(manifest), summary)
    try:
        _publish(out_dir, {"runs.parquet": lambda p: pq.write_table(runs_table, p),
                           "runs.csv": lambda p: pa_csv.write_csv(runs_table, p),
                           "noise.csv": lambda p: pa_csv.write_csv(noise_table, p),
                           "anomalies.csv": lambda p: anomalies.to_csv(p, index=False),
                           MANIFEST: lambda p: _write_manifest(p, summary)})
        if staged is not None:
            os.replace(staged, manifest)
    finally:
        if staged is not None:
            staged.unlink(missing_ok=True)
    return runs, anomalies
