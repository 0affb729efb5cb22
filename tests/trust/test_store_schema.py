"""The store's schema and files (puzzlebench/store/results.py, docs/workflow.md, "the store"): the typed columns of
every run, the refusal of rows and stores it cannot type, and what gather writes (issue 26)."""

from __future__ import annotations

import json
import os
import typing
from dataclasses import MISSING, fields
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from store_rows import row

from puzzlebench.errors import PuzzleError
from puzzlebench.store import chunks, results as store
from puzzlebench.store.provenance import Provenance
from puzzlebench.store.records import RunContext, RunRecord
from puzzlebench.store.results import (
    COLUMNS,
    OUTCOMES,
    SCHEMA,
    SCHEMA_VERSION,
    build_table,
    frame_from_rows,
    gather,
    read_store,
    read_table,
    table_from_rows,
)

PARTS = (RunRecord, RunContext, Provenance)
TYPES = {"instance": pa.string(), "seed": pa.int64(), "time_limit": pa.float64(), "wall_time": pa.float64(),
         "nodes": pa.int64(), "root_solved": pa.bool_(), "solution": pa.string(), "verified": pa.bool_(),
         "violations": pa.string(), "rounds": pa.int64(), "reference_known": pa.bool_(), "permutation": pa.int64(),
         "givens": pa.int64(), "outcome": pa.string(), "schema_version": pa.int32()}


def expect_schema(row_fields) -> None:
    """(name, type, JSON text?, default) of every field: RunRecord's, RunContext's, Provenance's."""
    assert [name for name, *_ in row_fields] == [f.name for part in PARTS for f in fields(part)]
    by_name = {name: rest for name, *rest in row_fields}
    for name, kind in TYPES.items():
        if name in by_name:
            assert by_name[name][0] == kind, name
    assert {name for name, (_, as_json, _) in by_name.items() if as_json} == {"solution", "violations"}
    assert by_name["instance"][2] is MISSING and by_name["status"][2] is MISSING
    assert by_name["violations"][2] == [] and by_name["rounds"][2] == 1 and by_name["message"][2] == ""
    assert by_name["solution"][2] is None and by_name["role"][2] == "run"


def test_schema_has_every_record_field_then_outcome_and_version():
    assert SCHEMA.names == [f.name for part in PARTS for f in fields(part)] + ["outcome", "schema_version"]
    assert COLUMNS == tuple(SCHEMA.names)
    for name, kind in TYPES.items():
        assert SCHEMA.field(name).type == kind, name
    assert not SCHEMA.field("outcome").nullable and not SCHEMA.field("schema_version").nullable
    assert SCHEMA.metadata == {b"puzzlebench_schema_version": str(SCHEMA_VERSION).encode()}
    expect_schema(store.ROW_FIELDS)


def test_schema_derivation_from_the_record_types():
    """The same derivation, run inside the test (it runs at import otherwise, out of reach of a mutant)."""
    expect_schema(store._fields())
    assert store._arrow_type(int) == (pa.int64(), False)
    assert store._arrow_type(float | None) == (pa.float64(), False)
    assert store._arrow_type(typing.Optional[bool]) == (pa.bool_(), False)
    assert store._arrow_type(str) == (pa.string(), False)
    assert store._arrow_type(list[str]) == (pa.string(), True)
    assert store._arrow_type(list[list[int]] | None) == (pa.string(), True)
    with pytest.raises(KeyError):
        store._arrow_type(dict)


def test_a_row_with_only_the_required_fields_gets_every_default():
    minimal = {"instance": "a", "puzzle": "sudoku", "formulation": "binary", "solver": "highs", "solver_version": "1",
               "seed": 3, "threads": 1, "time_limit": 5, "status": "time_limit"}
    frame = frame_from_rows([minimal])
    assert list(frame.columns) == list(COLUMNS)
    got = frame.iloc[0]
    assert (got["message"], got["violations"], got["solution"], got["rounds"], got["role"], got["solver_options"],
            got["permutation"], got["outcome"], got["schema_version"]) == (
        "", "[]", "null", 1, "run", "{}", 0, "time_limit", SCHEMA_VERSION)
    assert got["time_limit"] == 5.0 and isinstance(got["time_limit"], float)
    assert pd.isna(got["wall_time"]) and pd.isna(got["verified"])
    assert table_from_rows([minimal]).schema.equals(SCHEMA)


def test_a_frame_has_the_schemas_types_whatever_its_values():
    """to_frame types a column by the schema, not by its values: ints ``Int64`` and flags ``boolean``,
    with or without a gap (``pd.NA``); doubles float64 (a gap NaN)."""
    minimal = {"instance": "a", "puzzle": "sudoku", "formulation": "binary", "solver": "highs", "solver_version": "1",
               "seed": 3, "threads": 1, "time_limit": 5, "status": "time_limit"}
    gaps = frame_from_rows([minimal, {**minimal, "instance": "b", "nodes": 7, "verified": True, "cpu_count": 4}])
    full = frame_from_rows([{**minimal, "nodes": 7, "verified": True, "cpu_count": 4}])
    for frame in (gaps, full):
        for name, kind in {"seed": "Int64", "nodes": "Int64", "cpu_count": "Int64", "permutation": "Int64",
                           "verified": "boolean", "reference_known": "boolean", "relaxation": "boolean",
                           "schema_version": "Int32", "wall_time": "float64", "time_limit": "float64"}.items():
            assert str(frame[name].dtype) == kind, name
    assert gaps["nodes"].tolist() == [pd.NA, 7] and gaps["verified"].tolist() == [pd.NA, True]
    assert gaps["seed"].tolist() == [3, 3] and gaps["relaxation"].isna().all()
    assert store.to_frame(table_from_rows([minimal])).dtypes.equals(gaps.dtypes)


def test_lists_are_stored_as_json_text():
    frame = frame_from_rows([row(verified=False, violations=["row 1 has 2 twice", "box 1 has 2 twice"])])
    assert json.loads(frame["violations"][0]) == ["row 1 has 2 twice", "box 1 has 2 twice"]
    assert json.loads(frame["solution"][0]) == [[1]]


@pytest.mark.parametrize("rows, problem", [
    ([row(), {**row(), "colour": "red", "bogus": 1}], "<rows>: row 2: unknown field(s) bogus, colour"),
    ([row(), {k: v for k, v in row().items() if k != "solver"}], "<rows>: row 2: no 'solver' field"),
    ([{k: v for k, v in row().items() if k != "seed"}, row()], "<rows>: row 1: no 'seed' field"),
    ([row(), {**row(), "seed": "abc"}], "<rows>: column 'seed': Could not convert 'abc' with type str"),
    ([{**row(), "verified": "yes"}], "<rows>: column 'verified': "),
])
def test_rows_the_schema_cannot_type_are_refused_by_row_or_column(rows, problem):
    with pytest.raises(PuzzleError) as caught:
        frame_from_rows(rows)
    assert str(caught.value).startswith(problem) and "\n" not in str(caught.value)


def test_no_rows_make_an_empty_store_with_the_full_schema():
    for table in (build_table([]), table_from_rows([])):
        assert table.num_rows == 0 and table.schema.equals(SCHEMA)


# --- reading a store ---------------------------------------------------------------------------

def write_chunk(path: Path, rows: list[dict], noise: list[dict] = ()) -> Path:
    """A whole chunk file of ``rows`` and ``noise``; its job is named after the file (two chunks of one
    job are refused as copies)."""
    lines = [chunks.header({"chunk": path.stem}, [chunks.run_key(r) for r in rows], len(noise)), *noise, *rows,
             chunks.end(len(rows) + len(noise))]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def runs_and_noise() -> tuple[list[dict], list[dict]]:
    runs = [row("a", verified=True), row("b", "infeasible"), row("c", "error", message="died"),
            row("d", verified=False, violations=["row 1 has 1 twice"])]
    noise = [row("ref", verified=True, role="noise"), row("ref", verified=True, role="noise", solver="scip")]
    return runs, noise


@pytest.fixture
def gathered(tmp_path) -> Path:
    runs, noise = runs_and_noise()
    gather([write_chunk(tmp_path / "c1.jsonl", runs[:2], noise), write_chunk(tmp_path / "c2.jsonl", runs[2:])],
           tmp_path / "out" / "deep", manifest=tmp_path / "out" / "deep" / "store.json")
    return tmp_path / "out" / "deep"


def test_gather_writes_the_runs_the_noise_and_the_anomalies(gathered, tmp_path):
    runs = pq.read_table(gathered / "runs.parquet")
    assert runs.schema.equals(SCHEMA, check_metadata=False)
    assert runs["instance"].to_pylist() == ["a", "b", "c", "d"]
    assert runs["outcome"].to_pylist() == ["solved", "infeasible_proved", "error", "wrong"]
    noise = pd.read_csv(gathered / "noise.csv")
    assert noise["solver"].tolist() == ["highs", "scip"] and noise["outcome"].eq("solved").all()
    assert {"role", "solution", "violations"}.isdisjoint(noise.columns) and "instance_set" in noise.columns
    assert (gathered / "anomalies.csv").read_text().splitlines()[0] == (
        "kind,instance_set,instance,permutation,formulation,solver,seed,status,detail")
    anomalies = pd.read_csv(gathered / "anomalies.csv")
    assert anomalies[["kind", "instance", "detail"]].values.tolist() == [
        ["error", "c", "died"], ["wrong", "d", "row 1 has 1 twice"]]
    assert json.loads((gathered / "store.json").read_text()) == {
        "schema_version": SCHEMA_VERSION, "job_files": 2, "runs": 4, "noise": 2, "anomalies": 2,
        "outcomes": {**{o: 0 for o in OUTCOMES}, "solved": 1, "infeasible_proved": 1, "error": 1, "wrong": 1}}
    assert sorted(p.name for p in gathered.iterdir() if p.name != ".store") == sorted(
        ["runs.parquet", "runs.csv", "noise.csv", "anomalies.csv", "store.json"])


def test_gather_returns_the_runs_and_anomalies_it_wrote(tmp_path):
    runs, noise = runs_and_noise()
    frame, anomalies = gather([write_chunk(tmp_path / "c.jsonl", runs, noise)], tmp_path / "out")
    assert frame["instance"].tolist() == ["a", "b", "c", "d"] and list(frame.columns) == list(COLUMNS)
    assert anomalies["kind"].tolist() == ["error", "wrong"]
    assert not (tmp_path / "out" / "store.json").exists()


def test_parquet_and_csv_read_back_alike_and_typed(gathered):
    parquet, csv = read_store(gathered / "runs.parquet"), read_store(str(gathered / "runs.csv"))
    pd.testing.assert_frame_equal(parquet, csv)
    assert list(parquet.columns) == list(COLUMNS)
    assert parquet["message"].tolist() == ["", "", "died", ""]        # empty text stays text, not null
    assert read_table(gathered / "runs.csv").schema.equals(SCHEMA)


def test_json_lines_are_read_as_a_store_without_their_noise_rows(tmp_path):
    runs, noise = runs_and_noise()
    chunk = write_chunk(tmp_path / "c.jsonl", runs[:2], noise)
    plain = tmp_path / "solve.ndjson"
    plain.write_text(json.dumps(row("z", verified=True, instance_set="sudoku/z")) + "\n")
    single = tmp_path / "one.json"
    single.write_text(json.dumps(row("y", instance_set="sudoku/y")) + "\n")
    table = read_table([chunk, plain, single])
    assert table["instance"].to_pylist() == ["a", "b", "z", "y"] and table.schema.equals(SCHEMA)
    assert read_table(single)["instance"].to_pylist() == ["y"]
    assert read_store(str(chunk))["outcome"].tolist() == ["solved", "infeasible_proved"]


def test_a_store_is_checked_against_this_schema(gathered, tmp_path):
    table = pq.read_table(gathered / "runs.parquet")
    cases = {
        "older.parquet": (table.drop_columns(["outcome"]), "no schema_version/outcome column: a store written by an "
                          "older puzzlebench; rebuild it with `puzzlebench gather`"),
        "unversioned.parquet": (table.drop_columns(["schema_version"]), "no schema_version/outcome column"),
        "newer.parquet": (table.set_column(COLUMNS.index("schema_version"), "schema_version",
                                           pa.array([SCHEMA_VERSION, 9, SCHEMA_VERSION, 1], pa.int32())),
                          f"schema version [1, {SCHEMA_VERSION}, 9], this puzzlebench reads {SCHEMA_VERSION}; "
                          "rebuild it with `puzzlebench gather`"),
        "narrow.parquet": (table.drop_columns(["nodes", "seed"]),
                           "no column(s) seed, nodes; rebuild it with `puzzlebench gather`"),
    }
    for name, (bad, problem) in cases.items():
        pq.write_table(bad, tmp_path / name)
        with pytest.raises(PuzzleError) as caught:
            read_store(tmp_path / name)
        assert str(caught.value) == f"{tmp_path / name}: {problem}" if name != "unversioned.parquet" else \
            problem in str(caught.value)


def test_a_store_with_extra_or_reordered_columns_reads_as_the_schema(gathered, tmp_path):
    table = pq.read_table(gathered / "runs.parquet")
    shuffled = table.select(list(reversed(COLUMNS))).append_column("extra", pa.array([1, 2, 3, 4]))
    pq.write_table(shuffled, tmp_path / "shuffled.parquet")
    got = read_table(tmp_path / "shuffled.parquet")
    assert got.schema.equals(SCHEMA) and got.equals(read_table(gathered / "runs.parquet"))


@pytest.mark.parametrize("paths, problem", [
    ([], "no results given"),
    (["missing.parquet"], "{tmp}/missing.parquet: no such file"),
    (["a.parquet", "b.parquet"], "give one store (.parquet or .csv) or JSON-lines files (.jsonl), not a mix"),
    (["a.parquet", "c.jsonl"], "give one store (.parquet or .csv) or JSON-lines files (.jsonl), not a mix"),
    (["bad.parquet"], "{tmp}/bad.parquet: unreadable store: Could not open Parquet input source"),
    (["bad.csv"], "{tmp}/bad.csv: unreadable store: In CSV column #"),
])
def test_what_is_not_one_store_is_refused(tmp_path, paths, problem):
    for name in ("a.parquet", "b.parquet", "c.jsonl"):
        (tmp_path / name).write_text("")
    (tmp_path / "bad.parquet").write_text("not parquet")
    (tmp_path / "bad.csv").write_text("instance,seed\nx,notanint\n")
    with pytest.raises(PuzzleError) as caught:
        read_table([tmp_path / p for p in paths])
    assert str(caught.value).startswith(problem.format(tmp=tmp_path))


def test_a_csv_store_of_an_older_puzzlebench_is_refused(gathered, tmp_path):
    frame = pd.read_csv(gathered / "runs.csv").drop(columns=["outcome"])
    frame.to_csv(tmp_path / "old.csv", index=False)
    with pytest.raises(PuzzleError, match="older puzzlebench"):
        read_store(tmp_path / "old.csv")


# --- gather writes all or nothing ----------------------------------------------------------------

def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every file under ``folder`` (the store's generation folder included): its bytes, or a link's target."""
    return {str(p.relative_to(folder)): str(p.readlink()) if p.is_symlink() else p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_symlink() or p.is_file()}


def test_a_refused_chunk_writes_nothing(gathered, tmp_path):
    before = snapshot(gathered)
    runs, _ = runs_and_noise()
    bad = write_chunk(tmp_path / "bad.jsonl", runs)
    bad.write_text(bad.read_text().replace('"rows": 4', '"rows": 3'))
    with pytest.raises(PuzzleError, match="the end line counts 3 row"):
        gather([tmp_path / "c1.jsonl", bad], gathered, manifest=gathered / "store.json")
    assert snapshot(gathered) == before


def test_a_row_the_schema_refuses_names_its_chunk_and_writes_nothing(gathered, tmp_path):
    before = snapshot(gathered)
    bad = write_chunk(tmp_path / "typed.jsonl", [{**row("q"), "seed": "x"}])
    with pytest.raises(PuzzleError) as caught:
        gather([bad], gathered)
    assert str(caught.value).startswith(f"{bad}: column 'seed'")
    assert snapshot(gathered) == before


def test_a_failed_write_leaves_the_previous_store_and_no_temporary_file(gathered, tmp_path):
    before = snapshot(gathered)
    runs, noise = runs_and_noise()
    chunk = write_chunk(tmp_path / "new.jsonl", runs[:1], noise)
    with pytest.raises(OSError):
        gather([chunk], gathered, manifest=tmp_path / "no such folder" / "store.json")
    assert snapshot(gathered) == before
    assert not list(tmp_path.glob("**/.*tmp*"))


def test_the_store_files_are_links_through_the_current_generation(gathered):
    """Readers see ``<results>/<name>`` -> ``.store/current/<name>``, ``current`` -> one generation
    folder holding every store file and the counts (store.json), the same as the manifest's."""
    import os
    import re

    from puzzlebench.system.processes import OWNER
    generations = gathered / store.GENERATIONS
    generation = os.readlink(generations / store.CURRENT)
    assert re.fullmatch(OWNER + r"-\w+", generation), generation
    assert {name: os.readlink(gathered / name) for name in store.STORE_FILES} == {
        name: f"{store.GENERATIONS}/{store.CURRENT}/{name}" for name in store.STORE_FILES}
    assert sorted(p.name for p in (generations / generation).iterdir()) == sorted([*store.STORE_FILES,
                                                                                    store.MANIFEST])
    assert json.loads((generations / generation / store.MANIFEST).read_text()) == json.loads(
        (gathered / "store.json").read_text())


def test_a_new_gather_switches_generation_and_removes_the_old_one_and_dead_leftovers(gathered, tmp_path):
    import os
    import socket
    import subprocess

    generations = gathered / store.GENERATIONS
    first = os.readlink(generations / store.CURRENT)
    finished = subprocess.Popen(["true"])
    finished.wait()
    dead = f"{finished.pid}@{socket.gethostname()}"  # a process of this machine that is gone
    leftovers = [gathered / f".runs.csv.tmp-{dead}", generations / f".current.tmp-{dead}", generations / f"{dead}-x1"]
    leftovers[0].write_text("partial")
    leftovers[1].symlink_to("nowhere")
    leftovers[2].mkdir()
    runs, noise = runs_and_noise()
    gather([write_chunk(tmp_path / "new.jsonl", runs[:1], noise)], gathered)
    second = os.readlink(generations / store.CURRENT)
    assert second != first and not (generations / first).exists()
    assert not any(path.exists() or path.is_symlink() for path in leftovers)
    assert sorted(p.name for p in generations.iterdir()) == sorted([store.CURRENT, second])
    assert pq.read_table(gathered / "runs.parquet")["instance"].to_pylist() == ["a"]
    assert json.loads((generations / second / store.MANIFEST).read_text())["runs"] == 1


def test_a_store_file_that_fails_to_write_leaves_no_generation_and_the_current_one(gathered):
    import os

    generations = gathered / store.GENERATIONS
    before = os.readlink(generations / store.CURRENT)

    def fails(path):
        path.write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        store._publish(gathered, {"runs.parquet": fails})
    assert sorted(p.name for p in generations.iterdir()) == sorted([store.CURRENT, before])
    assert os.readlink(generations / store.CURRENT) == before


@pytest.mark.parametrize("umask, mode", [(0o022, 0o755), (0o027, 0o750), (0o077, 0o700)])
def test_the_store_generation_follows_the_umask_as_every_other_output(tmp_path, umask, mode):
    """mkdtemp makes the generation folder 0700; under umask 022 others could not read runs.csv."""
    runs, noise = runs_and_noise()
    old = os.umask(umask)
    try:
        gather([write_chunk(tmp_path / "c.jsonl", runs, noise)], tmp_path / "out")
    finally:
        os.umask(old)
    generation = (tmp_path / "out" / ".store" / "current").resolve()
    assert generation.stat().st_mode & 0o777 == mode
    assert os.umask(old) == old                    # the umask is as it was



@pytest.mark.parametrize("code, named", [(28, True), (122, True), (27, True), (30, True), (5, True), (13, False)])
def test_a_store_file_that_cannot_be_written_is_named(gathered, code, named):
    """A full disk (ENOSPC), quota (EDQUOT), size limit (EFBIG), read-only (EROFS) or failing disk (EIO)
    names the store file; another error (EACCES) passes as it is; the current generation stays."""
    import os

    from puzzlebench.errors import PuzzleError
    before = os.readlink(gathered / store.GENERATIONS / store.CURRENT)

    def fails(path):
        path.write_text("half")
        raise OSError(code, os.strerror(code))

    with pytest.raises(PuzzleError if named else OSError) as caught:
        store._publish(gathered, {"runs.csv": fails})
    if named:
        assert str(caught.value) == f"{gathered / 'runs.csv'}: cannot write it: {os.strerror(code)}"
    else:
        assert not isinstance(caught.value, PuzzleError) and caught.value.errno == code
    assert os.readlink(gathered / store.GENERATIONS / store.CURRENT) == before
