"""The Snakemake workflow, its batch jobs, the watchdog and the results store."""

from __future__ import annotations

import dataclasses
import faulthandler
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from puzzlebench import registry
from puzzlebench.errors import PuzzleError
from puzzlebench.io import read_puzzle
from puzzlebench.run.batch import Job, run_job, write_rows_atomically
from puzzlebench.run.runner import build
from puzzlebench.run.worker import SolverProcess, answer, result_of
from puzzlebench.store import chunks
from puzzlebench.solvers.base import Attempt
from puzzlebench.solvers.contract import SolveOptions
from puzzlebench.store.results import find_anomalies, frame_from_rows, gather
from puzzlebench.workflow.planner import plan, settings

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile")]
TINY = {"instance_sets": ["sudoku/seed"], "formulations": ["binary", "binary-reduced"],
        "solvers": ["highs", "cbc"], "seeds": [0], "repeats": 1, "time_limit": 20}


def write_config(tmp_path, **overrides) -> Path:
    config = {**TINY, "results": str(tmp_path / "results"), **overrides}
    path = tmp_path / "study.yaml"
    path.write_text(json.dumps(config))  # JSON is YAML
    return path


def snakemake(tmp_path, config: Path, *extra, **kwargs):
    return subprocess.run([*SNAKEMAKE, "--cores", "2", "--directory", str(tmp_path), "--configfile",
                           str(config), *extra], capture_output=True, text=True, **kwargs)


def test_tiny_config_runs_through_snakemake(tmp_path):
    done = snakemake(tmp_path, write_config(tmp_path), timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    runs = pd.read_parquet(tmp_path / "results/runs.parquet")
    assert len(runs) == 2 * 2 * 2  # 2 instances x 2 formulations x 2 solvers
    assert set(runs["formulation"]) == {"binary", "binary-reduced"}
    assert set(runs["solver"]) == {"highs", "cbc"}
    assert runs["verified"].all() and (runs["status"] == "optimal").all()
    for column in ("instance_set", "size", "givens", "permutation", "puzzlebench_version", "git_commit",
                   "solver_version", "python_version", "cpu_model", "hostname", "date"):
        assert runs[column].notna().all(), column
    assert (runs["size"] == "9x9").all() and (runs["instance_set"] == "sudoku/seed").all()
    assert pd.read_csv(tmp_path / "results/runs.csv").shape == runs.shape
    noise = pd.read_csv(tmp_path / "results/noise.csv")
    assert len(noise) == 2 * 2  # a reference solve at the start and end of each job (one per solver)
    assert pd.read_csv(tmp_path / "results/anomalies.csv").empty
    assert (runs["outcome"] == "solved").all()

    # a chunk cut mid-line: gather refuses it and leaves the previous store and summary as they were
    outputs = ["runs.parquet", "runs.csv", "noise.csv", "anomalies.csv", "summary.md"]
    before = {name: (tmp_path / "results" / name).read_bytes() for name in outputs}
    chunk = sorted((tmp_path / "results/runs").rglob("*.jsonl"))[0]
    text = chunk.read_text()
    chunk.write_text(text[: len(text) // 2])
    failed = snakemake(tmp_path, write_config(tmp_path), timeout=600)
    assert failed.returncode != 0 and f"{chunk}:" in failed.stderr and "unreadable row" in failed.stderr
    assert {name: (tmp_path / "results" / name).read_bytes() for name in outputs} == before


def test_one_job_per_formulation_runs_through_snakemake(tmp_path):
    done = snakemake(tmp_path, write_config(tmp_path, group_formulations=False), timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    runs = pd.read_parquet(tmp_path / "results/runs.parquet")
    assert len(runs) == 2 * 2 * 2 and runs["verified"].all()
    files = sorted((tmp_path / "results/runs").rglob("*.jsonl"))
    assert len(files) == 2 * 2  # formulations x solvers
    for path in files:
        records = [json.loads(line) for line in path.read_text().splitlines()]
        assert {r["formulation"] for r in records if r["role"] == "run"} == {path.parent.name}


def test_killed_run_resumes_without_duplicates(tmp_path):
    config = write_config(tmp_path, instance_sets=["sudoku/seed", "takuzu/seed"],
                          formulations=["binary", "xor-distinct"], solvers=["highs", "scip"])
    first = subprocess.Popen([*SNAKEMAKE, "--cores", "1", "--directory", str(tmp_path), "--configfile",
                              str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    runs_dir = tmp_path / "results/runs"
    deadline = time.time() + 300
    while time.time() < deadline and len(list(runs_dir.rglob("*.jsonl"))) < 1:
        time.sleep(0.2)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    finished_before = len(list(runs_dir.rglob("*.jsonl")))
    assert 1 <= finished_before < 6, "the kill must land mid-run"
    second = snakemake(tmp_path, config, "--rerun-incomplete", "--unlock", timeout=120)
    assert second.returncode == 0, second.stderr[-2000:]
    second = snakemake(tmp_path, config, "--rerun-incomplete", timeout=600)
    assert second.returncode == 0, second.stderr[-2000:]
    runs = pd.read_parquet(tmp_path / "results/runs.parquet")
    assert not runs.duplicated(list(chunks.STORE_KEY)).any()
    assert len(runs) == 2 * 1 * 2 + 1 * 2 * 2  # sudoku: 2 puzzles x binary; takuzu: 1 x both; 2 solvers


def test_plan_expands_the_grid_and_chunks_large_sets():
    jobs = plan({"instance_sets": ["sudoku/top95"], "formulations": {"sudoku": ["binary"]},
                 "solvers": ["highs", "cbc"], "seeds": [0, 1], "chunk_size": 40})
    assert len(jobs) == 2 * 2 * 3  # solvers x seeds x ceil(95 / 40) chunks
    assert sorted(j.instances for j in jobs if j.solver == "highs" and j.seed == 0) == [31, 32, 32]
    assert len({j.path("r") for j in jobs}) == len(jobs)


def test_plan_rejects_unknown_keys_and_solvers():
    with pytest.raises(PuzzleError, match="unknown config key"):
        settings({"instance_sets": ["*/seed"], "time_limt": 3})
    with pytest.raises(PuzzleError, match="unknown solver"):
        plan({"instance_sets": ["*/seed"], "solvers": ["nosuchsolver"]})
    with pytest.raises(PuzzleError):
        plan({"instance_sets": ["nosuch/set"]})


def test_plan_without_grouping_has_one_job_per_formulation():
    config = {"instance_sets": ["sudoku/top95"], "formulations": {"sudoku": ["binary", "propagated"]},
              "solvers": ["highs"], "chunk_size": 40}
    grouped, single = plan(config), plan({**config, "group_formulations": "false"})
    assert [j.formulations for j in grouped] == [("binary", "propagated")] * 5  # 190 runs / 40
    assert sorted(j.formulations for j in single) == [("binary",)] * 3 + [("propagated",)] * 3
    assert all(f"/seed0/{j.group}/chunk" in j.path("r") for j in single)
    assert len({j.path("r") for j in grouped + single}) == len(grouped) + len(single)
    with pytest.raises(PuzzleError, match="group_formulations"):
        settings({**config, "group_formulations": "maybe"})


def test_solver_formulations_restrict_a_solver_to_its_formulations():
    config = {"instance_sets": ["sudoku/seed"], "formulations": {"sudoku": ["binary", "propagated"]},
              "solvers": ["highs", "cpsat"], "solver_formulations": {"cpsat": ["propagated"]}}
    by_solver = {job.solver: job.formulations for job in plan(config)}
    assert by_solver == {"highs": ("binary", "propagated"), "cpsat": ("propagated",)}
    single = plan({**config, "group_formulations": False})
    assert sorted((j.solver, j.formulations) for j in single) == [
        ("cpsat", ("propagated",)), ("highs", ("binary",)), ("highs", ("propagated",))]
    assert plan({**config, "solver_formulations": {"scip": ["binary"]}}) == plan(
        {**config, "solver_formulations": {}})  # a solver not run restricts nothing
    with pytest.raises(PuzzleError, match="solver_formulations: unknown solver"):
        plan({**config, "solver_formulations": {"scipp": ["binary"]}})
    with pytest.raises(PuzzleError, match="unknown formulation 'binry'"):
        plan({**config, "solver_formulations": {"cpsat": "binry"}})


def test_plan_rejects_unknown_formulation_names():
    with pytest.raises(PuzzleError, match="unknown formulation 'binry'"):
        plan({"instance_sets": ["*/seed"], "formulations": ["binary", "binry"]})
    with pytest.raises(PuzzleError, match="unknown formulation 'combinations' for sudoku"):
        plan({"instance_sets": ["*/seed"], "formulations": {"sudoku": ["combinations"]}})
    with pytest.raises(PuzzleError, match="unknown puzzle 'sodoku'"):
        plan({"instance_sets": ["*/seed"], "formulations": {"sodoku": "all"}})


@pytest.mark.parametrize("path", ["config.yaml", *sorted(p.name for p in (ROOT / "studies").glob("*.yaml"))])
def test_shipped_configs_plan(path):
    import yaml
    config = yaml.safe_load((ROOT / path if path == "config.yaml" else ROOT / "studies" / path).read_text())
    jobs = plan(config)
    assert jobs and all(job.formulations for job in jobs)


def test_batch_job_rows_and_permutations(tmp_path):
    job = Job("takuzu/seed", "binary", "highs", seed=3, permutations=2, time_limit=20)
    rows = list(run_job(job, progress=False))
    runs = [r for r in rows if r["role"] == "run"]
    assert [r["permutation"] for r in runs] == [0, 1, 2]
    assert all(r["verified"] for r in runs)
    solutions = {json.dumps(r["solution"]) for r in runs}
    assert len(solutions) == 1, "each permuted solution maps back to the same original grid"
    assert [r["role"] for r in rows].count("noise") == 2
    path = tmp_path / "out.jsonl"
    assert write_rows_atomically(iter(rows), path) == len(rows)
    assert not list(tmp_path.glob(".*tmp*"))


def test_failed_job_leaves_no_partial_file(tmp_path):
    def rows():
        yield {"a": 1}
        raise RuntimeError("crash mid-job")
    with pytest.raises(RuntimeError):
        write_rows_atomically(rows(), tmp_path / "out.jsonl")
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def model():
    return build(read_puzzle(ROOT / "instances/sudoku/seed/matlab_cleve.txt").puzzle, "binary").model


def _register(monkeypatch, name, solve):
    monkeypatch.setitem(registry._SOLVERS, name, registry.SolverInfo(name, "test adapter", solve,
                                                                      lambda: "test", "mip"))


def _hang(model, options):
    time.sleep(3600)


def _segfault(model, options):
    faulthandler.disable()  # a deliberate crash: no traceback dump in the test output
    os.kill(os.getpid(), signal.SIGSEGV)


def _raise(model, options):
    raise MemoryError("out of memory in the adapter")


def test_hanging_adapter_is_killed_at_the_limit(monkeypatch, model):
    _register(monkeypatch, "hang", _hang)
    with SolverProcess(grace=0.5) as process:
        start = time.perf_counter()
        result = process.solve("hang", model, SolveOptions(time_limit=1.0))
        elapsed = time.perf_counter() - start
        assert result.status == "time_limit" and "killed" in result.message
        assert 1.0 <= elapsed < 10
        _register(monkeypatch, "highs-again", registry.get_solver("highs").solve)
        assert process.solve("highs-again", model, SolveOptions()).status == "optimal"


def test_crashing_adapter_becomes_an_error_record(monkeypatch, model):
    _register(monkeypatch, "segfault", _segfault)
    _register(monkeypatch, "raises", _raise)
    with SolverProcess() as process:
        crashed = process.solve("segfault", model, SolveOptions(time_limit=10))
        # signal 11, or 6 when a loaded library (absl in OR-Tools) turns SIGSEGV into an abort
        assert crashed.status == "error" and "solver process died (signal" in crashed.message
        raised = process.solve("raises", model, SolveOptions(time_limit=10))
        assert raised.status == "error" and "out of memory" in raised.message
        assert process.solve("highs", model, SolveOptions()).status == "optimal"


def test_the_parent_reads_the_log_of_what_the_child_solved(monkeypatch, model):
    """The child answers with the adapter's attempt (its reading and log); the parent finishes it (reads
    the log's figures), so that work never delays the child's next solve.  A finish that fails is an
    error result that keeps the log."""
    highs = registry.get_solver("highs")
    attempt = answer(highs, model, SolveOptions())
    assert isinstance(attempt, Attempt) and "Presolve reductions" in attempt.log
    assert attempt.reading.presolved_rows is None  # HiGHS gives its presolved size only in the log
    alone = highs.solve(model, SolveOptions())
    finished = result_of("highs", attempt)
    assert (finished.status, finished.presolved_rows, finished.presolved_cols, finished.root_solved) \
        == (alone.status, alone.presolved_rows, alone.presolved_cols, alone.root_solved) != ("optimal", None, None, False)
    with SolverProcess() as process:
        assert process.solve("highs", model, SolveOptions()).status == "optimal"  # the child runs from here on
        finish = type(highs.adapter).finish
        monkeypatch.setattr(type(highs.adapter), "finish",
                            lambda self, attempt: dataclasses.replace(finish(self, attempt), message="parent"))
        assert process.solve("highs", model, SolveOptions()).message == "parent"

        def broken(self, attempt):
            raise KeyError("no such figure")
        monkeypatch.setattr(type(highs.adapter), "finish", broken)
        failed = process.solve("highs", model, SolveOptions())
    assert failed.status == "error" and "KeyError" in failed.message and "Presolve reductions" in failed.log


def test_a_batch_sends_each_array_once_and_no_mask_comes_back(monkeypatch):
    """Issue 38: each array of a model (the matrix, the bounds, ...) that equals the one of the model the
    solver process solved before goes without it (the child puts its own back), a fresh child gets them
    all again; the reading comes back without the model's integrality mask (the parent puts it back, so
    finish still rounds).  Each result is the model's alone."""
    import puzzlebench.run.worker as worker
    from puzzlebench.io import read_puzzles
    entries = read_puzzles(Path(__file__).parents[1] / "instances/sudoku/magictour1465/puzzles3_magictour_top1465.txt")
    models = [build(e.puzzle, "binary").model for e in entries[:3]]
    other = build(entries[0].puzzle, "integer").model
    sent = []
    frame = worker._frame
    monkeypatch.setattr(worker, "_frame", lambda obj: sent.append(
        {name for name, value in vars(obj[1]).items() if isinstance(value, (np.ndarray, sp.csr_matrix))}) or frame(obj))
    with SolverProcess() as process:
        results = [process.solve("highs", m, SolveOptions()) for m in [*models, other, models[0], models[0]]]
        process.close()
        results.append(process.solve("highs", models[1], SolveOptions()))
    whole = {"A", "row_lower", "row_upper", "col_lower", "col_upper", "integrality", "objective",
             "all_different_rows", "product_rows"}
    assert sent[0] == sent[6] == whole  # the first model, and the first a fresh child gets
    assert sent[1] == sent[2] == {"col_lower"}  # the givens' bounds: all a Sudoku batch sends
    assert sent[3] == sent[4] == whole - {"all_different_rows", "product_rows"}  # other arrays (empty ones equal)
    assert sent[5] == set()  # the same model again
    highs = registry.get_solver("highs")
    for model, result in zip([*models, other, models[0], models[0], models[1]], results, strict=True):
        alone = highs.solve(model, SolveOptions())
        assert result.status == alone.status == "optimal" and np.array_equal(result.x, alone.x)
        assert np.array_equal(result.x[model.integrality], np.round(result.x[model.integrality]))
    framing = SolverProcess()
    first = framing._framed(("highs", SolverProcess.portable(models[0]), SolveOptions()))[1]
    _, second, _, same = framing._framed(("highs", SolverProcess.portable(models[1]), SolveOptions()))
    assert second.A is None and worker.whole(second, same, first).A is first.A  # the child puts it back
    reply = worker.reply_to("highs", SolverProcess.portable(models[0]), SolveOptions())
    attempt, mask_held, _ = reply.message()
    assert reply.apart and mask_held and attempt.reading.integrality is None


def test_the_solver_process_reads_highs_results_apart_each_log_its_own_solve(monkeypatch):
    """Issue 38: the solver process reads a HiGHS solve's result in its second thread while the next solve
    runs (on another of its Highs objects), and passes the next model into a free one meanwhile: each result
    is the model's alone, with the log of its solve only (one solving report, the figures of a solve in
    process) and its own options."""
    from puzzlebench.io import read_puzzles
    from puzzlebench.solvers.highs import HighsAdapter
    resume = HighsAdapter.resume

    def marked(self, prepared, options):  # the solver process (forked) inherits it: its log says so
        os.write(1, b"(loaded ahead)\n")
        return resume(self, prepared, options)
    monkeypatch.setattr(HighsAdapter, "resume", marked)
    entries = read_puzzles(Path(__file__).parents[1] / "instances/sudoku/magictour1465/puzzles3_magictour_top1465.txt")
    models = [build(e.puzzle, "binary").model for e in entries[:14]]
    highs = registry.get_solver("highs")
    assert highs.adapter.reads_apart
    # six in flight with options that change from one solve to the next, then eight alike, two in flight as a
    # batch runs (passed in ahead while the solve before runs)
    options = [SolveOptions(seed=i % 2, solver_options={"mip_heuristic_effort": 0.05 * (1 + i % 3)})
               for i in range(6)] + [SolveOptions(seed=1)] * 8
    with SolverProcess() as process:
        for model, opts in zip(models[:6], options[:6]):
            process.submit("highs", model, opts)
        results = [process.collect()[0] for _ in models[:6]]
        for k, (model, opts) in enumerate(zip(models[6:], options[6:])):
            process.submit("highs", model, opts)
            if k:
                results.append(process.collect()[0])
        results.append(process.collect()[0])
    for model, opts, result in zip(models, options, results, strict=True):
        alone = highs.solve(model, opts)
        assert result.status == alone.status == "optimal" and np.array_equal(result.x, alone.x)
        assert (result.nodes, result.lp_iterations, result.presolved_rows, result.presolved_cols) \
            == (alone.nodes, alone.lp_iterations, alone.presolved_rows, alone.presolved_cols)
        assert result.log.count("Solving report") == 1 and result.log.count("Presolve reductions") == 1
    assert not any("(loaded ahead)" in result.log for result in results[:6])  # no free object held their options
    assert any("(loaded ahead)" in result.log for result in results[6:])
    # each Highs object a solve takes holds that solve's options, set once per object in a batch
    adapter = highs.adapter
    for opts in [*options, options[0], SolveOptions()]:
        session = adapter.start(opts)
        adapter.apply_options(session, opts)
        effort = opts.solver_options.get("mip_heuristic_effort", 0.05)
        assert (session.highs.getOptionValue("random_seed")[1], session.highs.getOptionValue("mip_heuristic_effort")[1]) \
            == (opts.seed, effort)
        adapter.close(session)


def test_a_request_the_solver_process_cannot_read_ends_it_as_an_error(monkeypatch):
    """Issue 38: the solver process receives requests in a thread of its own; one it cannot unpickle (a
    class its parent imported after starting it) ends the process as before: that solve is an ``error``
    ("solver process died"), not a wait until its time limit, and a fresh process solves the next."""
    import sys
    import types

    late = types.ModuleType("puzzlebench_late_module")

    class Late:
        pass
    Late.__module__, Late.__qualname__ = late.__name__, "Late"
    late.Late = Late
    model = build(read_puzzle(ROOT / "instances/sudoku/seed/matlab_cleve.txt").puzzle, "binary").model
    with SolverProcess() as process:
        assert process.solve("highs", model, SolveOptions()).status == "optimal"  # the child runs from here on
        monkeypatch.setitem(sys.modules, late.__name__, late)
        unreadable = dataclasses.replace(model, presolve_info={"late": Late()})
        start = time.monotonic()
        failed = process.solve("highs", unreadable, SolveOptions(time_limit=30.0))
        assert failed.status == "error" and "solver process died" in failed.message
        assert time.monotonic() - start < 10
        assert process.solve("highs", model, SolveOptions()).status == "optimal"


def test_a_reading_apart_that_fails_is_an_error_with_its_log(monkeypatch):
    """Issue 38: a read step that raises in the solver process's second thread is that solve's ``error``,
    with the solve's log; the next solve is unaffected."""
    highs = registry.get_solver("highs")
    model = build(read_puzzle(ROOT / "instances/sudoku/seed/matlab_cleve.txt").puzzle, "binary").model
    read = type(highs.adapter).read
    calls = []

    def read_once_broken(self, session, loaded):
        calls.append(1)
        if len(calls) == 1:
            raise KeyError("no such figure")
        return read(self, session, loaded)
    monkeypatch.setattr(type(highs.adapter), "read", read_once_broken)
    with SolverProcess() as process:
        process.submit("highs", model, SolveOptions())
        process.submit("highs", model, SolveOptions())
        failed, solved = process.collect()[0], process.collect()[0]
    assert failed.status == "error" and "KeyError" in failed.message and "Solving report" in failed.log
    assert solved.status == "optimal" and solved.x is not None


def test_answers_before_a_solve_that_holds_the_gil_are_sent_before_it_starts(monkeypatch):
    """Issue 38: a solve whose library holds Python's GIL (here a C call through ``ctypes.PyDLL``, which does
    not release it) starts only once the replies read apart before it are sent: the HiGHS solve before it
    is answered within its own time limit, not killed while the next solve blocks the replying thread."""
    import ctypes

    from puzzlebench.solvers.contract import SolverResult

    def holds_the_gil(model, options):
        ctypes.PyDLL(None).usleep(4_000_000)  # 4 s in C with the GIL held
        return SolverResult("infeasible")
    monkeypatch.setitem(registry._SOLVERS, "gil-holder",
                        registry.SolverInfo("gil-holder", "holds the GIL for 4 s", holds_the_gil, lambda: "0", "mip"))
    model = build(read_puzzle(ROOT / "instances/sudoku/seed/matlab_cleve.txt").puzzle, "binary").model
    with SolverProcess() as process:
        process.submit("highs", model, SolveOptions(time_limit=1.0))  # killed 3 s after it starts at the latest
        process.submit("gil-holder", model, SolveOptions())
        first, second = process.collect()[0], process.collect()[0]
    assert (first.status, second.status) == ("optimal", "infeasible")


def test_anomalies_list_wrong_answers_and_disagreements(tmp_path):
    base = {"instance_set": "s/x", "permutation": 0, "seed": 0, "formulation": "f", "message": "",
            "role": "run", "solution": None, "violations": [], "puzzle": "sudoku", "solver_version": "1",
            "threads": 1, "time_limit": 10.0}
    rows = [
        {**base, "instance": "a", "solver": "good", "status": "optimal", "verified": True, "solution": [[1]]},
        {**base, "instance": "a", "solver": "bad", "status": "infeasible", "verified": None},
        {**base, "instance": "b", "solver": "good", "status": "optimal", "verified": False, "solution": [[1]],
         "violations": ["row 1 has 3 twice"]},
        {**base, "instance": "c", "solver": "good", "status": "error", "verified": None, "message": "boom"},
    ]
    path = tmp_path / "job.jsonl"
    lines = [chunks.header({}, [chunks.run_key(r) for r in rows], 0), *rows, chunks.end(len(rows))]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    runs, anomalies = gather([path], tmp_path / "out")
    assert sorted(anomalies["kind"]) == ["error", "false_infeasible", "wrong"]
    assert anomalies.set_index("kind").loc["wrong", "detail"] == "row 1 has 3 twice"
    assert anomalies.set_index("kind").loc["false_infeasible", "solver"] == "bad"
    assert find_anomalies(runs.iloc[:1]).empty
    relaxed = runs.assign(puzzle="sudoku", formulation="binary")
    assert "wrong" in set(find_anomalies(relaxed)["kind"])
    assert np.isin(["runs.parquet", "runs.csv", "noise.csv", "anomalies.csv"],
                   [p.name for p in (tmp_path / "out").iterdir()]).all()


def test_rejected_grids_of_a_relaxation_are_not_anomalies(monkeypatch):
    """The runner records the formulation's relaxation flag with the run; the store reads it from the
    rows, so the anomalies come out the same once the formulation is no longer registered."""
    from puzzlebench.registry import FormulationInfo
    from puzzlebench.run.runner import run
    binary = registry.get_formulation("sudoku", "binary")
    monkeypatch.setitem(registry._FORMULATIONS, ("sudoku", "loose"),
                        FormulationInfo("sudoku", "loose", "a relaxation", binary.build, relaxation=True))
    puzzle = read_puzzle(ROOT / "instances/sudoku/seed/matlab_cleve.txt").puzzle
    loose, tight = (run(puzzle, name, "highs", SolveOptions(time_limit=20)).to_dict() for name in ("loose", "binary"))
    assert (loose["relaxation"], tight["relaxation"]) == (True, False)
    monkeypatch.delitem(registry._FORMULATIONS, ("sudoku", "loose"))
    rejected = {"instance_set": "s/x", "status": "optimal", "verified": False, "violations": ["box 1 has 3 twice"],
                "solution": [[1]]}
    runs = frame_from_rows([{**loose, **rejected}, {**tight, **rejected},
                            {**loose, "instance": "b", "instance_set": "s/x", "status": "error", "verified": None,
                             "solution": None, "message": "crashed"}])
    assert list(runs["outcome"]) == ["wrong", "wrong", "error"]  # the outcome stays wrong
    anomalies = find_anomalies(runs)
    assert list(zip(anomalies["formulation"], anomalies["kind"])) == [("binary", "wrong"), ("loose", "error")]


def test_queued_solves_survive_a_killed_and_a_crashed_child(monkeypatch, model):
    """Solves submitted ahead go to a fresh child when the one before them hangs or crashes."""
    _register(monkeypatch, "hang", _hang)
    _register(monkeypatch, "segfault", _segfault)
    with SolverProcess(grace=0.5) as process:
        for name, limit in (("highs", 20), ("hang", 1.0), ("highs", 20), ("segfault", 20), ("highs", 20)):
            process.submit(name, model, SolveOptions(time_limit=limit))
        results = [process.collect() for _ in range(5)]
        assert not process.busy
    assert [r.status for r, _ in results] == ["optimal", "time_limit", "optimal", "error", "optimal"]
    assert 1.0 <= results[1][1] < 10, "the hanging solve's clock starts when the child is free for it"
    assert all(wall >= 0 for _, wall in results)


def test_a_run_is_resolved_once(monkeypatch):
    """The runner resolves a run's configuration and formulation once and passes that down: ``configured``
    once per run (once for a whole sequence) and ``get_formulation`` once per run, whatever the run goes
    through (a pipelined solve, a lazy loop, a formulation that does not apply)."""
    from puzzlebench.registry import FormulationInfo
    from puzzlebench.run import runner
    binary = registry.get_formulation("sudoku", "binary")
    monkeypatch.setitem(registry._FORMULATIONS, ("sudoku", "never"),
                        FormulationInfo("sudoku", "never", "applies to none", binary.build, applies=lambda p: False))
    calls = {"configured": 0, "get_formulation": 0}

    def counting(name):
        function = getattr(runner, name)

        def counted(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)
        return counted
    for name in calls:
        monkeypatch.setattr(runner, name, counting(name))
    sudoku = read_puzzle(ROOT / "instances/sudoku/seed/matlab_cleve.txt").puzzle
    takuzu = read_puzzle(ROOT / "instances/takuzu/seed/fjmc_blog2026.txt").puzzle
    options = SolveOptions(time_limit=20)
    with SolverProcess() as process:
        record = runner.run(sudoku, "binary", "highs-ipm", options, process=process)
        assert calls == {"configured": 1, "get_formulation": 1}
        assert (record.status, record.solver, record.solver_adapter, record.solver_options, record.relaxation) == (
            "optimal", "highs-ipm", "highs", '{"mip_lp_solver": "ipm"}', False)
        calls.update(configured=0, get_formulation=0)
        items = [(sudoku, "a", "binary"), (takuzu, "b", "lazy-distinct"), (sudoku, "c", "never"),
                 (sudoku, "d", "binary")]
        records = list(runner.run_sequence(items, "highs", options, process))
    assert calls == {"configured": 1, "get_formulation": len(items)}
    assert [(r.instance, r.formulation, r.status) for r in records] == [
        ("a", "binary", "optimal"), ("b", "lazy-distinct", "optimal"), ("c", "never", "skipped"),
        ("d", "binary", "optimal")]
    assert records[2].message.startswith("formulation never does not apply") and records[2].relaxation is False


def test_pipelined_runs_match_single_runs():
    """run_many gives the records run gives (lazy loop and a failing build included, in order)."""
    from puzzlebench.run.runner import run, run_many
    sudoku = [read_puzzle(ROOT / "instances/sudoku/seed" / f).puzzle for f in ("matlab_cleve.txt", "fjmc_blog2025.txt")]
    takuzu = read_puzzle(ROOT / "instances/takuzu/seed/fjmc_blog2026.txt").puzzle
    options = SolveOptions(time_limit=20)
    with SolverProcess() as process:
        for puzzles, formulation in ((sudoku * 2, "binary"), ([takuzu, takuzu], "lazy-distinct")):
            many = list(run_many([(p, f"p{i}") for i, p in enumerate(puzzles)], formulation, "highs", options,
                                 process))
            single = [run(p, formulation, "highs", options, instance=f"p{i}", process=process)
                      for i, p in enumerate(puzzles)]
            assert [r.instance for r in many] == [f"p{i}" for i in range(len(puzzles))]
            for a, b in zip(many, single):
                assert (a.status, a.solution, a.verified, a.rounds) == (b.status, b.solution, b.verified, b.rounds)
                assert a.wall_time >= 0 and a.build_time > 0
        out = run_many([(sudoku[0], "ok"), (takuzu, "wrong puzzle"), (sudoku[1], "never")], "binary-reduced",
                       "highs", options, process)
        assert next(out).instance == "ok"
        with pytest.raises(PuzzleError):
            next(out)
        assert not process.busy


@pytest.mark.slow
def test_a_small_run_says_no_difference_only_where_it_was_shown(tmp_path):
    """Issue 32's check on a real run over killer/janko-x (propagation solves most of it, so many pairs
    are untested) and kakuro/janko: "equivalent" only for a tested pair whose interval lies inside its
    band, every inconclusive claim of a tested pair with the instances it would need, and the words
    follow the verdicts."""
    from puzzlebench.analysis.verdicts import MIN_EFFECT
    config = write_config(tmp_path, instance_sets=["killer/janko-x", "kakuro/janko"], max_instances=8, repeats=2,
                          formulations={"killer": ["binary", "combinations", "propagated"],
                                        "kakuro": ["binary", "combinations", "propagated"]},
                          solvers=["highs", "cpsat"], time_limit=5)
    done = snakemake(tmp_path, config, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    findings = json.loads((tmp_path / "results/findings.json").read_text())
    assert findings["format"] == 2 and findings["families"]
    claims = findings["claims"]
    verdicts = {c["verdict"] for c in claims}
    assert "tied" not in verdicts and {"inconclusive", "preprocessing"} <= verdicts
    for claim in claims:
        if claim["verdict"] == "equivalent":
            g = max(claim["noise"] or 1.0, MIN_EFFECT)
            assert claim["p_value"] is not None and 1 / g <= claim["ci"][0] <= claim["ci"][1] <= g, claim
            assert "no difference beyond the noise" in claim["text"]
        else:
            assert "no difference" not in claim["text"], claim["text"]
        if claim["verdict"] == "inconclusive":
            assert "not enough evidence (n = " in claim["text"]
            if claim["p_value"] is not None:
                assert isinstance(claim["instances_needed"], int) and claim["instances_needed"] > claim["n"], claim
    summary = (tmp_path / "results/summary.md").read_text()
    assert "no difference beyond the noise and the test" not in summary
