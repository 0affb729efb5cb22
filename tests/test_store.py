"""The data path: job -> chunk file -> store (typed, one outcome per run) -> analysis."""

from __future__ import annotations

import dataclasses
import json
import shutil
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from puzzlebench.analysis import run_analysis
from puzzlebench.analysis.outcomes import instance_times, load_runs, prepare_runs

from puzzlebench import registry
from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError
from puzzlebench.io.sets import get_set
from puzzlebench.puzzles import Sudoku
from puzzlebench.run.batch import run_job, select_entries, write_rows_atomically
from puzzlebench.run.jobs import Job
from puzzlebench.run.runner import run
from puzzlebench.store import chunks
from puzzlebench.store.records import RunContext, RunRecord
from puzzlebench.solvers.contract import SolveOptions
from puzzlebench.store.results import (
    SCHEMA,
    SCHEMA_VERSION,
    frame_from_rows,
    gather,
    read_store,
)
from puzzlebench.workflow.planner import plan

ROOT = Path(__file__).resolve().parents[1]
OUTPUTS = ("runs.parquet", "runs.csv", "noise.csv", "anomalies.csv")


def record(instance: str, status: str, *, solver: str = "highs", formulation: str = "binary", grid=None,
           verified=None, violations=(), message: str = "", reference_known: bool = False) -> dict:
    """One run row as ``batch`` writes it (a RunRecord plus its RunContext)."""
    rec = RunRecord(instance=instance, puzzle="sudoku", formulation=formulation, solver=solver,
                    solver_version="1", seed=0, threads=1, time_limit=10.0, status=status, message=message,
                    wall_time=None if status == "skipped" else 0.5,
                    solver_time=None if status == "skipped" else 0.4, build_time=0.1, solution=grid,
                    verified=verified, violations=list(violations))
    context = RunContext("sudoku/x", "run", "9x9", 30, 0, reference_known)
    return {**rec.to_dict(), **asdict(context)}


def write_chunk(path: Path, rows: list[dict]) -> Path:
    """A whole chunk file holding ``rows`` (its header plans exactly them)."""
    lines = [chunks.header({}, [chunks.run_key(r) for r in rows], 0), *rows, chunks.end(len(rows))]
    write_rows_atomically(lines, path)
    return path


GRID = [[1]]


def bad_runs() -> list[dict]:
    """A valid run, and one of each run the analysis must not count as solved."""
    return [
        record("e", "optimal", grid=GRID, verified=True),                                       # solved
        record("a", "infeasible", reference_known=True),                                        # the set has a solution
        record("f", "infeasible", solver="scip"), record("f", "optimal", solver="cbc", grid=GRID, verified=True),
        record("b", "optimal"),                                                                  # no grid
        record("c", "optimal", grid=GRID, verified=False, violations=["row 1 has 3 twice"]),
        record("d", "skipped", message="model could not be built: ValueError: need at least one array to "
                                       "concatenate"),
        record("g", "infeasible", solver="cbc"),                                                 # nothing contradicts it
        record("h", "error", message="solver process died (signal 9)"),
    ]


def test_store_decides_each_outcome_and_no_bad_run_counts_as_solved(tmp_path):
    runs, anomalies = gather([write_chunk(tmp_path / "chunk.jsonl", bad_runs())], tmp_path / "results")
    outcome = dict(zip(runs["instance"] + "/" + runs["solver"], runs["outcome"]))
    assert outcome == {"e/highs": "solved", "a/highs": "false_infeasible", "f/scip": "false_infeasible",
                       "f/cbc": "solved", "b/highs": "no_grid", "c/highs": "wrong", "d/highs": "skipped",
                       "g/cbc": "infeasible_proved", "h/highs": "error"}
    listed = pd.read_csv(tmp_path / "results/anomalies.csv")
    assert sorted(zip(listed["instance"], listed["kind"])) == [
        ("a", "false_infeasible"), ("b", "no_grid"), ("c", "wrong"), ("f", "false_infeasible"), ("h", "error")]
    assert "the set gives its solution" in listed.set_index("instance").loc["a", "detail"]
    assert listed.set_index("instance").loc["c", "detail"] == "row 1 has 3 twice"

    prepared = prepare_runs(load_runs(tmp_path / "results/runs.parquet"))
    assert "d" not in set(prepared["instance"])                        # skipped: out of every comparison
    solved = set(prepared.loc[prepared["solved"], "instance"] + "/" + prepared.loc[prepared["solved"], "solver"])
    assert solved == {"e/highs", "f/cbc", "g/cbc"}
    assert (prepared.loc[~prepared["solved"], "time"] == 10.0).all()  # all at the time limit
    per_instance = instance_times(prepared)
    assert set(per_instance.loc[per_instance["solved"], "instance"]) == {"e", "f", "g"}

    run_analysis(tmp_path / "results/runs.parquet", tmp_path / "results")
    table = pd.read_csv(tmp_path / "results/tables/configurations.csv").set_index(["formulation", "solver"])
    highs = table.loc[("binary", "highs")]
    assert highs[["runs", "solved", "wrong", "false_infeasible", "no_grid", "error", "skipped"]].tolist() == \
        [5, 1, 1, 1, 1, 1, 1]
    assert table["solved"].sum() == 3 and table["skipped"].sum() == 1
    best = pd.read_csv(tmp_path / "results/tables/best_vs_cpsat.csv").iloc[0]
    assert best["mip_solved"] == table.loc[tuple(best["mip_best"].split("/")), "solved"]
    summary = (tmp_path / "results/summary.md").read_text()
    assert summary.index("Anomalies: 5 (1 wrong, 2 false_infeasible, 1 no_grid, 1 error") < summary.index("## Setup")
    assert "Skipped runs (not made, see their message): 1" in summary


@pytest.mark.parametrize("formulation", ["binary", "binary-reduced", "propagated"])
def test_a_filled_sudoku_is_solved_under_every_formulation(formulation):
    """binary-reduced makes a filled grid a model without columns: HiGHS's empty model is solved by
    the empty point and the grid decodes from the givens, as under binary (it was no_grid before)."""
    solution = get_set("sudoku/seed").entries()[0].solution
    rec = run(Sudoku(solution, name="full"), formulation, "highs", SolveOptions(time_limit=10))
    assert rec.status == "optimal" and rec.solution == solution.tolist() and rec.verified
    runs = frame_from_rows([{**rec.to_dict(), "instance_set": "sudoku/full"}])
    assert runs["outcome"].tolist() == ["solved"]
    assert rec.lp_iterations is None or rec.lp_iterations >= 0


def test_schema_is_typed_and_csv_reads_like_parquet(tmp_path):
    gather([write_chunk(tmp_path / "chunk.jsonl", bad_runs())], tmp_path)
    table = pq.read_table(tmp_path / "runs.parquet")
    assert table.schema.equals(SCHEMA, check_metadata=False)
    from dataclasses import fields

    from puzzlebench.store.provenance import Provenance
    assert SCHEMA.names == [f.name for part in (RunRecord, RunContext, Provenance) for f in fields(part)] + [
        "outcome", "schema_version"]                                  # a new record field is a new column
    assert set(table["schema_version"].to_pylist()) == {SCHEMA_VERSION}
    parquet, csv = read_store(tmp_path / "runs.parquet"), read_store(tmp_path / "runs.csv")
    assert list(parquet.columns) == list(csv.columns) == SCHEMA.names
    pd.testing.assert_frame_equal(parquet, csv)
    legacy = tmp_path / "old.parquet"
    pq.write_table(table.drop_columns(["outcome", "schema_version"]), legacy)
    with pytest.raises(PuzzleError, match="older puzzlebench"):
        read_store(legacy)


# --- chunk files prove they are whole ---------------------------------------------------------

@pytest.fixture(scope="module")
def real_chunk(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("chunk") / "chunk0of1.jsonl"
    job = Job("sudoku/seed", ("binary", "binary-reduced"), "highs", time_limit=20)
    write_rows_atomically(run_job(job, progress=False), path)
    return path


def _previous_store(tmp_path, chunk) -> dict[str, bytes]:
    out = tmp_path / "results"
    assert main(["gather", str(chunk), "-o", str(out)]) == 0
    (out / "summary.md").write_text("previous summary\n")
    return {name: (out / name).read_bytes() for name in (*OUTPUTS, "summary.md")}


@pytest.mark.parametrize("damage, message", [
    (lambda lines: lines[:-2], "no end line: the file is cut short"),
    (lambda lines: lines[:3] + lines[2:], "the end line counts"),
    (lambda lines: lines[:3] + lines[2:-1] + [json.dumps(chunks.end(len(lines) - 1))], "duplicate row"),
    (lambda lines: lines[:-2] + [lines[-1]], "the end line counts"),
    (lambda lines: lines[:-3] + [json.dumps(chunks.end(len(lines) - 4))], "planned run(s) missing"),
    (lambda lines: lines[:2] + [lines[2][: len(lines[2]) // 2]] + lines[3:], "unreadable row"),
    (lambda lines: lines[1:], "no job header"),
], ids=["cut by lines", "duplicated line", "duplicated line, count fixed", "row dropped", "rows dropped, count fixed",
        "cut mid-line", "no header"])
def test_gather_refuses_a_damaged_chunk_and_keeps_the_previous_store(tmp_path, capsys, real_chunk, damage,
                                                                     message):
    before = _previous_store(tmp_path, real_chunk)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(damage(real_chunk.read_text().splitlines())) + "\n")
    capsys.readouterr()
    assert main(["gather", str(real_chunk), str(bad), "-o", str(tmp_path / "results")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and message in err and "Traceback" not in err
    assert {name: (tmp_path / "results" / name).read_bytes() for name in before} == before


def test_gather_verb_builds_the_store(tmp_path, capsys, real_chunk):
    assert main(["gather", str(real_chunk), "-o", str(tmp_path), "--manifest", str(tmp_path / "store.json")]) == 0
    runs = pd.read_parquet(tmp_path / "runs.parquet")
    assert len(runs) == 2 * 2 and (runs["outcome"] == "solved").all()
    assert len(pd.read_csv(tmp_path / "noise.csv")) == 2
    manifest = json.loads((tmp_path / "store.json").read_text())
    assert (manifest["runs"], manifest["outcomes"]["solved"], manifest["anomalies"]) == (4, 4, 0)


def test_gather_reads_no_formulation_code(tmp_path, monkeypatch, capsys):
    """Whether a run is a relaxation's comes with its row, so gather (and the anomalies it lists) works
    with the formulations' plug-in code unavailable.  A row of a job file written before the flag (no
    ``relaxation`` field) reads as null, and its rejected grid is listed."""
    def no_plug_ins(package):
        raise AssertionError(f"gather loaded puzzlebench.{package}")
    monkeypatch.setattr(registry, "_load", no_plug_ins)
    wrong = {"grid": GRID, "verified": False, "violations": ["row 1 has 1 twice"]}
    older = record("o", "optimal", formulation="loose", **wrong)
    del older["relaxation"]
    rows = [{**record("r", "optimal", formulation="loose", **wrong), "relaxation": True},
            {**record("w", "optimal", **wrong), "relaxation": False}, older]
    assert main(["gather", str(write_chunk(tmp_path / "c.jsonl", rows)), "-o", str(tmp_path / "out")]) == 0
    assert "2 anomalies (2 wrong)" in capsys.readouterr().err
    assert pd.read_csv(tmp_path / "out" / "anomalies.csv")["instance"].tolist() == ["w", "o"]
    runs = read_store(tmp_path / "out" / "runs.parquet")
    assert runs["outcome"].tolist() == ["wrong"] * 3 and runs["relaxation"].tolist() == [True, False, pd.NA]


# --- a model that cannot be built is a skipped record; the job goes on --------------------------

@pytest.fixture
def broken_sets(tmp_path, monkeypatch):
    root = tmp_path / "instances"
    kakuro = root / "kakuro/broken"
    kakuro.mkdir(parents=True)
    shutil.copy(ROOT / "instances/kakuro/seed/fjmc_blog2026.txt", kakuro / "a_good.txt")
    (kakuro / "b_broken.txt").write_text("kakuro 2 2\n#   1\\\n\\1 .\n")  # 2 x 2: its builds fail, below
    shutil.copy(ROOT / "instances/kakuro/seed/fjmc_blog2026.txt", kakuro / "c_good.txt")
    takuzu = root / "takuzu/wide"
    takuzu.mkdir(parents=True)
    (takuzu / "t20.txt").write_text("takuzu 20 20 distinct\n" + (". " * 20 + "\n") * 20)
    shutil.copy(ROOT / "instances/takuzu/seed/fjmc_blog2026.txt", takuzu / "t8.txt")
    for folder in (kakuro, takuzu):
        (folder / "SOURCE.md").write_text("test\n")
    monkeypatch.setenv("PUZZLEBENCH_INSTANCES", str(root))
    return root


def test_unbuildable_model_is_skipped_and_the_job_goes_on(tmp_path, broken_sets, monkeypatch):
    for name in ("binary", "integer"):  # each formulation fails to build on the 2 x 2 puzzle b_broken.txt
        info = registry.get_formulation("kakuro", name)

        def build(puzzle, build=info.build):
            if puzzle.shape == (2, 2):
                np.concatenate([])  # ValueError: need at least one array to concatenate
            return build(puzzle)
        monkeypatch.setitem(registry._FORMULATIONS, ("kakuro", name), dataclasses.replace(info, build=build))
    job = Job("kakuro/broken", ("binary", "integer"), "highs", time_limit=20)
    path = tmp_path / "chunk.jsonl"
    write_rows_atomically(run_job(job, progress=False), path)
    runs, _ = gather([path], tmp_path)
    by = runs.set_index(["instance", "formulation"])
    assert len(runs) == 3 * 2
    for formulation in ("binary", "integer"):
        assert by.loc[("b_broken.txt#1", formulation), "outcome"] == "skipped"
        assert "need at least one array to concatenate" in by.loc[("b_broken.txt#1", formulation), "message"]
        for good in ("a_good.txt#1", "c_good.txt#1"):
            assert by.loc[(good, formulation), "outcome"] == "solved"


def test_formulation_declares_where_it_does_not_apply(tmp_path, broken_sets):
    jobs = plan({"instance_sets": ["takuzu/wide"], "formulations": ["integer-encoding", "binary"],
                 "solvers": ["highs"], "group_formulations": False})
    work = {job.group: job.work for job in jobs}
    assert work == {"binary": 20 * 20 + 8 * 8, "integer-encoding": 8 * 8}   # the 20x20 costs nothing
    job = next(j for j in jobs if j.group == "integer-encoding")
    path = tmp_path / "chunk.jsonl"
    write_rows_atomically(run_job(job, progress=False), path)
    runs, _ = gather([path], tmp_path)
    wide = runs[runs["instance"] == "t20.txt#1"].iloc[0]
    assert wide["outcome"] == "skipped" and wide["build_time"] != wide["build_time"]   # never built
    assert "does not apply" in wide["message"] and "at most 18 cells" in wide["message"]
    assert runs.loc[runs["instance"] == "t8.txt#1", "outcome"].tolist() == ["solved"]


# --- one job description; analyze on JSON lines --------------------------------------------------

def test_planned_job_goes_whole_to_batch(tmp_path):
    jobs = plan({"instance_sets": ["sudoku/top95"], "formulations": {"sudoku": ["binary"]},
                 "solvers": ["highs"], "chunk_size": 40, "max_instances": 90, "time_limit": 7, "threads": 2})
    assert [job.instances for job in jobs] == [30, 30, 30]
    for job in jobs:
        assert Job.from_json(job.to_json()) == job
        assert len(select_entries(job)) == job.instances
        assert (job.time_limit, job.threads, job.max_instances) == (7.0, 2, 90)
    names = [e.name for job in jobs for e in select_entries(job)]
    assert names == [e.name for e in get_set("sudoku/top95").entries()[:90]]
    from puzzlebench.cli import build_parser
    from puzzlebench.commands.batch import job_of
    whole = job_of(build_parser().parse_args(["batch", "--job", jobs[1].to_json(), "-o", "x"]))
    legacy = job_of(build_parser().parse_args(["batch", "--set", "sudoku/top95", "--formulation", "binary",
                                                "--solver", "highs", "--chunk", "1/3", "--max-instances", "90",
                                                "--time-limit", "7", "--threads", "2", "-o", "x"]))
    assert [e.name for e in select_entries(whole)] == [e.name for e in select_entries(legacy)] == names[30:60]
    with pytest.raises(PuzzleError, match="unknown key"):
        Job.from_json('{"instance_set": "sudoku/seed", "formulations": ["binary"], "solver": "highs", "x": 1}')


def test_analyze_reads_json_lines_of_batch_and_solve(tmp_path, capsys, real_chunk):
    assert main(["analyze", str(real_chunk), "-o", str(tmp_path / "from_batch")]) == 0
    assert "Anomalies: 0" in (tmp_path / "from_batch/summary.md").read_text()
    table = pd.read_csv(tmp_path / "from_batch/tables/configurations.csv")
    assert table[["formulation", "runs", "solved"]].values.tolist() == [["binary", 2, 2], ["binary-reduced", 2, 2]]
    capsys.readouterr()
    assert main(["solve", str(ROOT / "instances/sudoku/seed/fjmc_blog2025.txt"), "--all", "--json"]) == 0
    records = tmp_path / "solve.jsonl"
    records.write_text(capsys.readouterr().out)
    assert main(["analyze", str(records), "-o", str(tmp_path / "from_solve")]) == 0
    table = pd.read_csv(tmp_path / "from_solve/tables/configurations.csv")
    assert table[["runs", "solved"]].values.tolist() == [[1, 1]]


def test_docs_schema_table_lists_every_column_with_its_type():
    import re
    text = (ROOT / "docs/workflow.md").read_text()
    table = text[text.index("| columns | type | what |"):].split("\n\n")[0].splitlines()[2:]
    documented = {}
    for line in table:
        names_cell, types_cell = line.split("|")[1:3]
        names = re.findall(r"`([a-z_]+)`", names_cell)
        kinds = [k.strip().rstrip("?") for k in types_cell.split(",")]
        documented.update(zip(names, kinds if len(kinds) == len(names) else kinds * len(names)))
    assert documented == {f.name: {"bool": "bool"}.get(str(f.type), str(f.type)) for f in SCHEMA}
