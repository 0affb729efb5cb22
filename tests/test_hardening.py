"""Issue 21: inputs refused at the door (exit 2, one line naming the key, nothing written), bounded
work, nothing lost or doubled, no orphans.  Each test failed before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError
from puzzlebench.registry import get_solver
from puzzlebench.solvers.configs import SolverConfig, ensure_runnable
from puzzlebench.workflow.planner import plan

ROOT = Path(__file__).resolve().parents[1]
PUZZLEBENCH = [sys.executable, "-m", "puzzlebench"]
JOB = {"instance_set": "sudoku/seed", "formulations": ["binary"], "solver": "highs", "seed": 0, "chunk": 0,
       "chunks": 1, "time_limit": 5, "max_instances": 1, "adapter": "highs"}
STUDY = {"instance_sets": ["sudoku/seed"], "formulations": ["binary"], "solvers": ["highs"], "max_instances": 1}


def refused_in_one_line(done: subprocess.CompletedProcess, *words: str) -> str:
    """The one stderr line of a refusal (exit 2, no traceback), which names every one of ``words``."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, (done.returncode, done.stderr[-1500:])
    assert "Traceback" not in done.stderr and all(word in lines[0] for word in words), lines[0]
    return lines[0]


def run_cli(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*PUZZLEBENCH, *args], capture_output=True, text=True, timeout=timeout, **kwargs)


# -- item 2: a job given to `batch --job` is checked with the rules of the config it came from -----------------

@pytest.mark.parametrize("change, named", [
    ({"time_limit": float("nan")}, "time_limit"), ({"time_limit": float("inf")}, "time_limit"),
    ({"time_limit": "5"}, "time_limit"), ({"time_limit": -1}, "time_limit"), ({"seed": -1}, "seed"),
    ({"seed": 2**31}, "seed"), ({"chunk": 5}, "chunk"), ({"chunks": 0}, "chunks"), ({"formulations": []}, "formulations"),
    ({"permutations": 10**8}, "permutations"), ({"threads": 0}, "threads"), ({"max_instances": -3}, "max_instances"),
    ({"group": "integer"}, "group"), ({"solver_options": {"presolve": [1]}}, "solver_options"),
    ({"solver": "x/../../y"}, "solver"), ({"adapter": "scip"}, "highs"),            # item 4: SCIP's runs as "highs"
    ({"solver": "scip-cp", "adapter": "highs"}, "scip-cp"),
    ({"solver_options": {"time_limit": 1}}, "time_limit"),                          # item 3: the harness's limit
    ({"formulations": ["binary", "binary"]}, "formulations"), ({"adapter": "nosuch"}, "unknown solver 'nosuch'"),
])
def test_a_bad_job_is_refused_in_one_line_and_writes_nothing(tmp_path, change, named):
    job = json.dumps({**JOB, **change})  # NaN and Infinity as Python's json writes them
    done = run_cli("batch", "--job", job, "-o", str(tmp_path / "out.jsonl"), timeout=90)
    refused_in_one_line(done, named)
    assert list(tmp_path.iterdir()) == []


def test_a_job_the_planner_made_is_accepted():
    for job in plan(STUDY):
        assert type(job).from_json(job.to_json()) == job


def test_batch_options_are_checked_as_a_job(tmp_path):
    done = run_cli("batch", "--set", "sudoku/seed", "--formulation", ",", "--solver", "highs",
                   "-o", str(tmp_path / "out.jsonl"))
    refused_in_one_line(done, "formulations")
    assert list(tmp_path.iterdir()) == []


# -- item 3: solver option values against the solver's own types and ranges, before any job --------------------

@pytest.mark.parametrize("adapter, options, named", [
    ("cpsat", {"max_deterministic_time": -5}, "non-negative"),        # CP-SAT's check on an empty model
    ("cpsat", {"max_time_in_seconds": -5}, "time limit"),             # the harness's own settings, named
    ("cpsat", {"num_workers": 4}, "threads"), ("cpsat", {"random_seed": 3}, "seed"),
    ("cbc", {"sec": -1}, "time limit"), ("cbc", {"SECONDS": 30}, "time limit"), ("cbc", {"randomC": 3}, "seed"),
    ("cbc", {"maxNodes": -5}, "valid range"),
    ("scip", {"randomization/randomseedshift": 99999999999999}, "seed"),
    ("scip", {"presolving/maxrounds": 99999999999999}, "too large"), ("scip", {"limits/time": 5}, "time limit"),
    ("scip", {"lp/threads": 2}, "threads"),
    ("highs", {"threads": 99}, "threads"), ("highs", {"random_seed": 1}, "seed"),
    ("highs", {"mip_max_nodes": -1}, "lower bound"),                  # HiGHS's own range, not a type complaint
    ("gurobi", {"TimeLimit": 5}, "time limit"), ("xpress", {"XPRS_MAXTIME": 5}, "time limit"),
    ("cplex", {"threads": 2}, "threads"), ("copt", {"RandSeed": 1}, "seed"),
    ("copt", {"HeurLevel": 9}, "range"),                              # COPT would clamp it to 3 silently
])
def test_solver_option_values_are_checked_by_the_solver_before_any_run(adapter, options, named):
    if get_solver(adapter).installed():
        pytest.fail(f"{adapter} is not installed: pip install -e '.[commercial]'")
    with pytest.raises(PuzzleError, match=named) as refused:
        ensure_runnable(SolverConfig(f"{adapter}-x", adapter, options))
    assert "\n" not in str(refused.value) and str(next(iter(options))) in str(refused.value)


def test_config_check_refuses_a_bad_solver_option_before_any_job(tmp_path):
    study = tmp_path / "study.yaml"
    study.write_text(json.dumps({**STUDY, "solvers": ["cp"], "solver_configs": {
        "cp": {"solver": "cpsat", "options": {"max_deterministic_time": -5}}}}))
    refused_in_one_line(run_cli("config", "check", str(study)), "max_deterministic_time", str(study))


# -- item 4: a configuration cannot relabel one solver as another -------------------------------------------

@pytest.mark.parametrize("configs", [{"highs": {"solver": "scip"}}, {"cbc": {"solver": "cbc", "options": {"cuts": "off"}}},
                                     {"scip-cp": {"solver": "highs"}}])
def test_a_configuration_may_not_take_an_adapters_name(configs):
    name = next(iter(configs))
    with pytest.raises(PuzzleError, match=f"solver_configs.{name}"):
        plan({**STUDY, "solvers": [name], "solver_configs": configs})


@pytest.mark.parametrize("solver, label", [("scip", "highs"), ("highs", "scip-cp"), ("scip", "scip-cp"),
                                           ("highs", "a;b")])
def test_solver_name_cannot_relabel_a_solver(tmp_path, solver, label):
    puzzle = ROOT / "instances/sudoku/seed"
    first = sorted(p for p in puzzle.iterdir() if p.suffix == ".txt" and ".solution" not in p.name)[0]
    for verb in (["solve", str(first)], ["batch", "--set", "sudoku/seed", "--formulation", "binary",
                                         "-o", str(tmp_path / "o.jsonl")]):
        assert main([*verb, "--solver", solver, "--solver-name", label]) == 2
    assert not (tmp_path / "o.jsonl").exists()


# -- item 5: a study that plans no runs is refused before anything is written -----------------------------

SNAKEMAKE = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile")]


@pytest.mark.parametrize("change, named", [
    ({"formulations": ["xor-distinct"]}, "formulations"),   # a list replaces config.yaml's mapping: Takuzu only
    ({"solvers": ["highs", "cpsat"], "solver_formulations": {"highs": ["xor-distinct"]}}, "solver_formulations.highs"),
    ({"formulations": {"sudoku": ["binary"]}, "solver_formulations": {"highs": ["integer"]}}, "solver_formulations.highs"),
])
def test_a_study_that_plans_no_runs_is_refused(tmp_path, change, named):
    study = tmp_path / "study.yaml"
    study.write_text(json.dumps({**STUDY, "results": str(tmp_path / "results"), **change}))
    refused_in_one_line(run_cli("config", "check", str(study)), named, "no run")
    done = subprocess.run([*SNAKEMAKE, "--cores", "1", "--directory", str(tmp_path), "--configfile", str(study)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert named in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "results").exists()  # no study.yaml to refuse the corrected study


# -- item 6: unreadable study files and an unwritable results folder: one line ---------------------------

@pytest.mark.parametrize("text, problem", [
    (b"instance_sets: [sudoku/seed]\nresults: r\xff\n", "study.yaml:2: not UTF-8 text (byte 0xff at column 11)"),
    (b"instance_sets: [sudoku/seed]\n[a, b]: 1\n", "study.yaml:2: a list used as a key"),
    (b"instance_sets: [sudoku/seed]\nformulations: {{sudoku: 1}: x}\n", "study.yaml:2: a mapping used as a key"),
])
def test_an_unreadable_study_file_is_one_line(tmp_path, text, problem):
    (tmp_path / "study.yaml").write_bytes(text)
    refused_in_one_line(run_cli("config", "check", "study.yaml", cwd=tmp_path), problem)


def _read_only(folder: Path) -> None:
    """Make ``folder`` unwritable even for root (the immutable flag), or by its mode for other users."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
    else:
        folder.chmod(0o555)


@pytest.mark.slow
@pytest.mark.parametrize("read_only", [True, False])
def test_an_unwritable_results_folder_is_one_line(tmp_path, read_only):
    blocked = tmp_path / "blocked"
    if read_only:
        blocked.mkdir()
        _read_only(blocked)
    else:
        blocked.write_text("a file where the results folder would go\n")
    try:
        done = subprocess.run([*SNAKEMAKE, "--cores", "1", "--directory", str(tmp_path), "--config",
                               "instance_sets=[sudoku/seed]", "max_instances=1", "solvers=[highs]",
                               "formulations=[binary]", f"results={blocked}/results"],
                              capture_output=True, text=True, timeout=300)
    finally:
        if read_only and os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(blocked)], check=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert f"puzzlebench: config error: results folder {blocked}/results/ cannot be written" in done.stderr
    assert not (blocked.is_dir() and any(blocked.iterdir()))


# -- item 8: bounded work: copies beyond the puzzle's symmetries are refused at once -----------------------

def test_transform_count_is_the_number_of_distinct_transforms():
    import numpy as np

    from puzzlebench.io.sets import get_set
    from puzzlebench.puzzles import Sudoku
    from puzzlebench.transforms import (
        SYMMETRIES,
        random_transform,
        supported_kinds,
        transform_count,
    )
    puzzles = [Sudoku(np.zeros((4, 4), int), 2, 2), Sudoku(np.zeros((6, 6), int), 2, 3)] + \
        [get_set(name).entries()[0].puzzle for name in ("killer/janko-x", "kakuro/seed", "takuzu/seed")]
    rng = np.random.default_rng(3)
    for puzzle in puzzles:
        for kinds in (SYMMETRIES, ("digits",), ("rows", "transpose"), ("cols", "bands", "stacks")):
            if not set(kinds) & set(supported_kinds(puzzle)):
                continue
            total = transform_count(puzzle, kinds)
            if total <= 5000:  # drawn 30 times over, every transform shows up
                drawn = {random_transform(puzzle, rng, kinds).signature for _ in range(30 * total)}
                assert len(drawn) == total, (puzzle.puzzle, puzzle.shape, kinds)


@pytest.mark.parametrize("count, problem", [("1000000000", "--count: must be an integer 1..10000"),
                                            ("5000", "only 3071 distinct non-identity transform(s)")])
def test_permute_refuses_more_copies_than_there_are_at_once(tmp_path, count, problem):
    puzzle = tmp_path / "one-given.txt"
    puzzle.write_text("sudoku 4 2x2\n1 . . .\n. . . .\n. . . .\n. . . .\n")
    done = run_cli("permute", str(puzzle), "--count", count, "--seed", "1", "-o", str(tmp_path / "copies"),
                   timeout=60)
    refused_in_one_line(done, problem)
    assert not (tmp_path / "copies").exists()


def test_permute_makes_every_copy_there_is(tmp_path):
    takuzu = ROOT / "instances/takuzu/seed/fjmc_blog2026.txt"  # 16 symmetries: 15 copies
    assert main(["permute", str(takuzu), "--count", "15", "--seed", "2", "-o", str(tmp_path / "all")]) == 0
    assert len(list((tmp_path / "all").glob("*~p*.txt"))) >= 15
    assert main(["permute", str(takuzu), "--count", "16", "--seed", "2", "-o", str(tmp_path / "more")]) == 2
    assert not (tmp_path / "more").exists()


def test_config_permutations_beyond_a_puzzles_symmetries_is_refused():
    from puzzlebench.transforms import MAX_COPIES
    from puzzlebench.workflow.config import schema
    assert schema()["properties"]["permutations"]["maximum"] == MAX_COPIES  # one bound for both
    with pytest.raises(PuzzleError, match="config permutations = 20: puzzle .* has only 15"):
        plan({**STUDY, "instance_sets": ["takuzu/seed"], "permutations": 20})


# -- item 9: one outcome per puzzle whatever the formulation; no sentinel counts --------------------------

def test_a_kakuro_without_white_cells_is_refused_under_every_formulation(tmp_path, capsys):
    from puzzlebench.registry import formulations
    empty = tmp_path / "empty.txt"
    empty.write_text("kakuro 2 2\n# #\n# #\n")
    lines = set()
    for info in formulations("kakuro"):
        assert main(["solve", str(empty), "--formulation", info.name]) == 2, info.name
        lines.add(capsys.readouterr().err.strip())
    assert lines == {f"puzzlebench: error: {empty}:1: the Kakuro has no white cell: nothing to fill"}


def test_solve_exits_1_when_a_solver_claims_a_solution_without_a_grid(monkeypatch, capsys):
    import dataclasses

    from puzzlebench import registry
    from puzzlebench.solvers.contract import SolverResult
    highs = registry.get_solver("highs")
    monkeypatch.setitem(registry._SOLVERS, "nogrid", dataclasses.replace(
        highs, name="nogrid", solve=lambda model, options: SolverResult("optimal", message="claims optimal"),
        adapter=None))  # a solver registered as a function
    seed = str(ROOT / "instances/sudoku/seed/matlab_cleve.txt")
    assert main(["solve", seed, "--solver", "nogrid"]) == 1
    assert "no grid" in capsys.readouterr().out


# -- item 10: gather stores every run once ------------------------------------------------------------------

@pytest.fixture(scope="module")
def chunk_file(tmp_path_factory) -> Path:
    """A real chunk file: one Sudoku, one formulation, HiGHS."""
    from puzzlebench.run.batch import run_job, write_rows_atomically
    from puzzlebench.run.jobs import Job
    path = tmp_path_factory.mktemp("chunk") / "chunk0of1.jsonl"
    write_rows_atomically(run_job(Job.from_json(json.dumps(JOB)), progress=False), path)
    return path


def _edited_copy(chunk: Path, to: Path, **job) -> Path:
    """``chunk`` with keys of its header's job changed: another job holding the same runs."""
    lines = chunk.read_text().splitlines()
    head = json.loads(lines[0])
    head["job"].update(job)
    to.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    return to


@pytest.mark.parametrize("second, problem", [
    ("same", "is given twice"), ("copy", "hold the same job"), ("edited", "both hold it")])
def test_gather_refuses_a_run_given_twice_naming_both_files(chunk_file, tmp_path, capsys, second, problem):
    import shutil
    other = {"same": lambda: chunk_file,
             "copy": lambda: Path(shutil.copy(chunk_file, tmp_path / "copy.jsonl")),
             "edited": lambda: _edited_copy(chunk_file, tmp_path / "edited.jsonl", work=7)}[second]()
    out = tmp_path / "store"
    assert main(["gather", str(chunk_file), str(other), "-o", str(out)]) == 2
    line = capsys.readouterr().err.strip()
    assert problem in line and str(chunk_file) in line and (second == "same" or str(other) in line), line
    assert not (out / "runs.parquet").exists()
    assert main(["analyze", str(chunk_file), str(other), "-o", str(tmp_path / "analysis")]) == 2
    assert problem in capsys.readouterr().err


# -- item 11: the store switches from the old state to the new in one step ---------------------------------

KILL_AT_RENAME = """
import os, signal, sys
import puzzlebench.store.results as store
calls, real = [0], os.replace
def replace(source, target):  # SIGKILL this process at rename number argv[1]
    if calls[0] == int(sys.argv[1]):
        os.kill(os.getpid(), signal.SIGKILL)
    calls[0] += 1
    real(source, target)
os.replace = replace
store.gather(sys.argv[3:], sys.argv[2], manifest=os.path.join(sys.argv[2], "store.json"))
"""


def _visible_store(out: Path) -> set:
    """The run counts each store file shows (one value when the files agree)."""
    import pandas as pd
    counts = {len(pd.read_parquet(out / "runs.parquet")), len(pd.read_csv(out / "runs.csv")),
              len(pd.read_csv(out / "noise.csv")) // 2}
    if (out / "store.json").exists():
        counts.add(json.loads((out / "store.json").read_text())["runs"])
    return counts


@pytest.mark.slow
def test_a_gather_killed_at_any_rename_leaves_the_old_store_or_the_new(chunk_file, tmp_path):
    from puzzlebench.store.results import gather
    second = _edited_copy(chunk_file, tmp_path / "seed1.jsonl", seed=1)
    rows = [json.loads(line) for line in second.read_text().splitlines()]
    second.write_text("".join(json.dumps({**row, "seed": 1} if row.get("role") in ("run", "noise") else row)
                              + "\n" for row in rows))
    out = tmp_path / "results"
    killed_at = 0
    while True:  # a fresh old store (1 run), then a gather of both chunks (2 runs) killed at rename k
        gather([chunk_file], out, out / "store.json")
        done = subprocess.run([sys.executable, "-c", KILL_AT_RENAME, str(killed_at), str(out), str(chunk_file),
                               str(second)], capture_output=True, text=True, timeout=120)
        assert done.returncode in (0, -9), done.stderr[-2000:]
        assert _visible_store(out) in ({1}, {2}), (killed_at, _visible_store(out))
        if done.returncode == 0:
            break
        killed_at += 1
    assert killed_at >= 3  # the store's files, the switch and the manifest were each a kill point
    gather([chunk_file], out, out / "store.json")  # the next gather removes what the kills left
    leftovers = [p.name for p in [*out.iterdir(), *(out / ".store").iterdir()] if ".tmp-" in p.name]
    assert leftovers == [] and len(list((out / ".store").iterdir())) == 2  # current and its folder
    assert _visible_store(out) == {1}


# -- items 12 and 13: a killed batch cleans up; a killed workflow leaves no process ------------------------

LONG_STUDY = {"instance_sets": ["sudoku/frisch25"], "formulations": ["integer"], "solvers": ["cbc"],
              "max_instances": 1, "time_limit": 300}  # CBC cannot prove a 25x25 big-M model in minutes


def _until_cbc_runs(pid: int, timeout: float = 240):
    """The descendants of ``pid`` once one of them is a CBC that a solver process started (psutil processes):
    neither a child of ``pid`` itself (Snakemake's planner runs ``cbc -quit`` and PuLP's CBC on a tiny model)
    nor a version check (``cbc -quit``, which the batch runs too)."""
    import time

    import psutil

    def solving(p) -> bool:
        try:
            return p.name() == "cbc" and p.ppid() != pid and "-quit" not in p.cmdline()
        except psutil.NoSuchProcess:
            return False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        family = psutil.Process(pid).children(recursive=True)
        if any(solving(p) for p in family):
            return family
        if not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
            break
        time.sleep(0.5)
    pytest.fail("CBC did not start")


def _long_batch(tmp_path: Path):
    out, temporary = tmp_path / "out", tmp_path / "tmpdir"
    out.mkdir()
    temporary.mkdir()
    job = json.dumps({**JOB, "instance_set": "sudoku/frisch25", "formulations": ["integer"], "solver": "cbc",
                      "adapter": "cbc", "time_limit": LONG_STUDY["time_limit"]})
    process = subprocess.Popen([*PUZZLEBENCH, "batch", "--job", job, "-o", str(out / "chunk0of1.jsonl")],
                               env={**os.environ, "TMPDIR": str(temporary)}, stderr=subprocess.PIPE, text=True)
    return process, out, temporary


@pytest.mark.slow
def test_a_batch_ended_by_sigterm_removes_its_files_and_its_solver(tmp_path):
    import psutil
    batch, out, temporary = _long_batch(tmp_path)
    family = _until_cbc_runs(batch.pid)
    assert list(out.iterdir()) and list(temporary.iterdir())  # the chunk's temporary, CBC's model
    batch.terminate()
    assert batch.wait(timeout=60) == 143
    _, alive = psutil.wait_procs(family, timeout=60)
    assert alive == [] and list(out.iterdir()) == [] and list(temporary.iterdir()) == []


@pytest.mark.slow
def test_what_a_sigkill_leaves_the_next_batch_removes(tmp_path):
    import psutil
    batch, out, temporary = _long_batch(tmp_path)
    family = _until_cbc_runs(batch.pid)
    batch.kill()
    batch.wait(timeout=60)
    _, alive = psutil.wait_procs(family, timeout=60)  # the solver process and CBC die with it
    assert alive == [] and list(out.iterdir()) and list(temporary.iterdir())
    done = run_cli("batch", "--job", json.dumps({**JOB, "solver": "cbc", "adapter": "cbc"}),
                   "-o", str(out / "other.jsonl"), env={**os.environ, "TMPDIR": str(temporary)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert [p.name for p in out.iterdir()] == ["other.jsonl"] and list(temporary.iterdir()) == []


@pytest.mark.slow
def test_kill_9_of_snakemake_leaves_no_job_shell_batch_worker_or_cbc(tmp_path):
    import psutil
    study = tmp_path / "study.yaml"
    study.write_text(json.dumps({**LONG_STUDY, "results": "results"}))
    temporary = tmp_path / "tmpdir"
    temporary.mkdir()
    workflow = subprocess.Popen([*SNAKEMAKE, "--cores", "1", "--directory", str(tmp_path), "--configfile", str(study)],
                                env={**os.environ, "TMPDIR": str(temporary)}, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    family = _until_cbc_runs(workflow.pid)
    assert {p.name() for p in family} >= {"bash", "python", "cbc"}, family  # the job's shell, batch, worker
    workflow.kill()
    workflow.wait(timeout=60)
    _, alive = psutil.wait_procs(family, timeout=60)
    assert alive == [], [(p.pid, p.name()) for p in alive]
    runs = tmp_path / "results/runs"
    assert [p for p in runs.rglob("*") if p.is_file()] == []  # no chunk, no temporary chunk
    assert [p for p in temporary.iterdir() if p.name.startswith("puzzlebench-")] == []



@pytest.mark.parametrize("change, named", [({"seeds": [0, 0]}, "seeds"), ({"formulations": ["binary", "binary"]},
                                                                         "formulations"),
                                           ({"solvers": ["highs", "highs"]}, "solvers")])
def test_a_grid_that_would_run_a_run_twice_is_refused(change, named):
    with pytest.raises(PuzzleError, match=f"config {named} = "):
        plan({**STUDY, **change})


def test_generate_refuses_a_count_no_one_could_want(tmp_path):
    done = run_cli("generate", "sudoku", "--size", "9", "--count", "1000000000", "--seed", "1", "-o",
                   str(tmp_path / "made"))
    refused_in_one_line(done, "--count", "100000")
    assert not (tmp_path / "made").exists()


@pytest.mark.slow
def test_killing_the_jobs_shell_ends_the_job_while_the_workflow_goes_on(tmp_path):
    import psutil
    study = tmp_path / "study.yaml"
    study.write_text(json.dumps({**LONG_STUDY, "seeds": [0, 1], "results": "results"}))  # two jobs, one at a time
    workflow = subprocess.Popen([*SNAKEMAKE, "--cores", "1", "--keep-going", "--directory", str(tmp_path),
                                 "--configfile", str(study)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        family = _until_cbc_runs(workflow.pid)
        next(p for p in family if p.name() == "bash").kill()
        _, alive = psutil.wait_procs(family, timeout=60)
        assert alive == [], [(p.pid, p.name()) for p in alive]
        assert workflow.poll() is None  # snakemake goes on with the other job: the watchdog did not end this one
    finally:
        workflow.kill()
        workflow.wait()
