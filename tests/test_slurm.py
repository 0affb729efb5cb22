"""The workflow through profiles/slurm on a real one-node SLURM cluster, against a local run.

The fixture starts munged, slurmctld and slurmd from Debian's slurm-wlm and munge packages
(.ci/run installs them) with a generated slurm.conf: one node (this machine), state and logs in
a temporary folder, free ports, configless slurmd, no accounting storage, so ``sacct`` fails as it does on many
small clusters.  Every daemon is stopped by its process id when the module's tests end, pass
or fail, and dies with the test process if that is killed (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import ctypes
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from puzzlebench.store.chunks import STORE_KEY

pytestmark = [pytest.mark.slow, pytest.mark.slurm]

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile")]
STUDY = {"instance_sets": ["sudoku/seed", "takuzu/seed"], "formulations": ["binary"],
         "solvers": ["highs", "cpsat"], "seeds": [0], "time_limit": 20}
BATCH_JOBS = 2 * 2  # sets x solvers
KEY = list(STORE_KEY)  # one row per run: repeats (config.yaml runs 2) are runs of their own
# columns that differ between two runs of the same study by design
TIMINGS = {"wall_time", "solver_time", "build_time", "cpu_pressure", "load_average"}  # and the machine's load then
PROVENANCE = {"puzzlebench_version", "git_commit", "solver_versions", "python_version", "cpu_model",
              "cpu_count", "hostname", "platform", "date"}
TOOLS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel")
PARTITION = "pbtest"
NODE_CPUS = 2  # fewer than the profile's cores: 4, as on a cluster of 2-CPU nodes (and this machine)
# where slurmd (configless) and srun look without SLURM_CONF: the jobstep plugin drops SLURM_* from
# the job's environment, so the srun inside each job reads the config slurmd links at RUN_CONF
MUNGE_SOCKET = "/run/munge/munge.socket.2"
RUN_CONF = "/run/slurm/conf"


def _die_with_parent():
    """Run in the child before exec: the kernel sends SIGTERM when the test process dies."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.3)
    raise AssertionError(f"timed out after {seconds:.0f} s waiting for {what}")


def _slurm_conf(folder: Path, node: str, port: int) -> str:
    memory_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20 * 9 // 10
    return "\n".join([
        "ClusterName=puzzlebench-test",
        f"SlurmctldHost={socket.gethostname()}(127.0.0.1)",
        "SlurmUser=root", "SlurmdUser=root",
        f"SlurmctldPort={port}", f"SlurmdPort={_free_port()}",
        "SlurmctldParameters=enable_configless",  # slurmd fetches this file and links it at RUN_CONF
        "AuthType=auth/munge", "CredType=cred/munge",
        f"StateSaveLocation={folder}/state", f"SlurmdSpoolDir={folder}/spool",
        f"SlurmctldPidFile={folder}/slurmctld.pid", f"SlurmdPidFile={folder}/slurmd.pid",
        f"SlurmctldLogFile={folder}/slurmctld.log", f"SlurmdLogFile={folder}/slurmd.log",
        "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none", "MpiDefault=none",
        "SelectType=select/cons_tres", "SelectTypeParameters=CR_Core_Memory",
        "AccountingStorageType=accounting_storage/none", "JobAcctGatherType=jobacct_gather/none",
        "JobCompType=jobcomp/none", "ReturnToService=2",
        "MinJobAge=300",  # finished jobs stay listed by squeue for 5 minutes (SLURM's default)
        f"NodeName={node} NodeAddr=127.0.0.1 CPUs={NODE_CPUS} RealMemory={memory_mb} State=UNKNOWN",
        f"PartitionName={PARTITION} Nodes={node} Default=YES MaxTime=INFINITE State=UP",
    ]) + "\n"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The environment for a one-node SLURM cluster's clients (SLURM_CONF, partition, account)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    assert not missing, f"SLURM test needs {', '.join(missing)}: apt-get install slurm-wlm munge (.ci/run does)"
    folder = tmp_path_factory.mktemp("slurm")
    folder.chmod(0o755)  # munged requires a socket folder everyone can traverse
    for sub in ("state", "spool"):
        (folder / sub).mkdir()
    key = folder / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    for path in ("/etc/slurm/slurm.conf", RUN_CONF):
        assert not Path(path).exists(), f"{path} exists: a SLURM cluster is set up here already"
    Path(MUNGE_SOCKET).parent.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    (folder / "slurm.conf").write_text(_slurm_conf(folder, "pbnode", port))
    env = {**os.environ, "SLURM_CONF": str(folder / "slurm.conf"),
           "SBATCH_PARTITION": PARTITION, "SBATCH_ACCOUNT": ""}  # empty: this cluster has no accounts
    munged = ["munged", "-F", "-f", f"--socket={MUNGE_SOCKET}", f"--key-file={key}",
              f"--pid-file={folder}/munged.pid", f"--seed-file={folder}/munged.seed",
              f"--log-file={folder}/munged.log"]
    # a munged the system runs already (apt's postinst starts one under systemd) serves the test too
    system_munged = Path(MUNGE_SOCKET).exists()
    if system_munged:
        alive = subprocess.run(["munge", "-n"], capture_output=True, timeout=30).returncode == 0
        assert alive, f"{MUNGE_SOCKET} exists but no munged answers on it"
    commands = [*([] if system_munged else [munged]),
                ["slurmctld", "-D", "-i"],
                ["slurmd", "-D", "-N", "pbnode", "--conf-server", f"127.0.0.1:{port}"]]
    configless = {key: value for key, value in env.items() if key != "SLURM_CONF"}
    daemons = []
    try:
        for command in commands:
            with open(folder / f"{command[0]}.out", "w") as out:
                daemons.append(subprocess.Popen(command, env=configless if command[0] == "slurmd" else env,
                                                stdout=out, stderr=subprocess.STDOUT,
                                                preexec_fn=_die_with_parent))
            if command[0] == "munged":
                _wait_for(Path(MUNGE_SOCKET).exists, 20, "munged's socket")

        def node_idle():
            state = subprocess.run(["sinfo", "-h", "-o", "%T"], env=env, capture_output=True, text=True)
            return state.stdout.strip() == "idle"
        _wait_for(node_idle, 60, "the SLURM node to come up")
        yield env
    finally:
        subprocess.run(["scancel", "--full", "--user", "root"], env=env, capture_output=True, timeout=30)
        for daemon in reversed(daemons):
            daemon.terminate()
            try:
                daemon.wait(timeout=20)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()
        if Path(RUN_CONF).is_symlink() and str(folder) in os.readlink(RUN_CONF):
            Path(RUN_CONF).unlink()


def _write_study(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "study.yaml"
    path.write_text(json.dumps({**STUDY, "results": str(folder / "results")}))
    return path


def _cluster_run(folder: Path, env: dict, *extra) -> list[str]:
    """The command line of a run through the shipped profile, as docs/cluster.md gives it."""
    return [*SNAKEMAKE, "--profile", str(ROOT / "profiles/slurm"), "--directory", str(folder),
            "--configfile", str(folder / "study.yaml"),
            "--cores", str(NODE_CPUS),  # this node's CPUs per SLURM job
            "--slurm-init-seconds-before-status-checks", "5",  # poll every 5 s, not 40, to keep CI short
            "--slurm-keep-successful-logs",  # evidence of the jobs that ran
            *extra]


@pytest.fixture(scope="module")
def local_runs(tmp_path_factory) -> pd.DataFrame:
    folder = tmp_path_factory.mktemp("local")
    study = _write_study(folder)
    done = subprocess.run([*SNAKEMAKE, "--cores", "2", "--directory", str(folder), "--configfile", str(study)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return pd.read_csv(folder / "results/runs.csv")


def _comparable(runs: pd.DataFrame) -> pd.DataFrame:
    """The runs without timings and provenance, in a fixed order."""
    keep = [c for c in runs.columns if c not in TIMINGS | PROVENANCE]
    return runs[keep].sort_values(KEY).reset_index(drop=True)


def _jobs(env: dict) -> dict[str, dict[str, str]]:
    """Every job the scheduler knows, by job id: its scontrol fields."""
    shown = subprocess.run(["scontrol", "show", "job", "--oneliner"], env=env, capture_output=True, text=True,
                           timeout=30)
    jobs = {}
    for line in shown.stdout.splitlines():
        fields = dict(re.findall(r"(\w+)=(\S*)", line))
        if "JobId" in fields:
            jobs[fields["JobId"]] = fields
    return jobs


def _jobs_from(folder: Path, env: dict) -> dict[str, dict[str, str]]:
    return {job_id: job for job_id, job in _jobs(env).items() if job.get("WorkDir") == str(folder)}


def test_this_cluster_has_no_accounting(cluster):
    """The premise of the status-command choice: sacct, the plugin's default, fails here."""
    done = subprocess.run(["sacct", "-X", "--noheader"], env=cluster, capture_output=True, text=True, timeout=30)
    assert done.returncode != 0 and "accounting storage is disabled" in done.stderr


def test_the_plugins_default_status_command_never_sees_jobs_end_here(cluster, tmp_path):
    """What the profile's squeue avoids: with sacct, snakemake waits on finished jobs forever."""
    _write_study(tmp_path)
    run = subprocess.Popen(_cluster_run(tmp_path, cluster, "--slurm-status-command", "sacct"), env=cluster,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_die_with_parent)
    try:
        def all_finished():
            jobs = _jobs_from(tmp_path, cluster)
            return jobs and all(job["JobState"] == "COMPLETED" for job in jobs.values())
        _wait_for(all_finished, 300, "the SLURM jobs to complete")
        time.sleep(30)  # six status polls at the 5 s interval
        assert run.poll() is None, "snakemake noticed the jobs ending"
        assert not (tmp_path / "results/runs.csv").exists()
    finally:
        run.terminate()
        try:
            run.wait(timeout=20)
        except subprocess.TimeoutExpired:
            run.kill()
            run.wait()


def test_study_through_the_slurm_profile_matches_a_local_run(cluster, local_runs, tmp_path):
    _write_study(tmp_path)
    started = time.monotonic()
    done = subprocess.run(_cluster_run(tmp_path, cluster), env=cluster, capture_output=True, text=True,
                          timeout=900, preexec_fn=_die_with_parent)
    assert done.returncode == 0, done.stderr[-3000:]
    print(f"cluster run: {time.monotonic() - started:.0f} s")

    jobs = _jobs_from(tmp_path, cluster)
    # batch jobs only (gather and analysis are local rules), grouped by the profile's group-components
    assert len(jobs) == math.ceil(BATCH_JOBS / 8), jobs
    assert all(job["JobState"] == "COMPLETED" and job["Partition"] == PARTITION for job in jobs.values())
    # the grouped batch jobs run two at a time (--cores 2), each asking for 500 MB
    assert {(job["NumCPUs"], job["MinMemoryNode"]) for job in jobs.values()} == {("2", "1000M")}
    logs = {path.stem for path in (tmp_path / ".snakemake/slurm_logs").rglob("*.log")}
    assert logs == set(jobs), "the plugin's logs name the scheduler's jobs"

    runs = pd.read_csv(tmp_path / "results/runs.csv")
    assert not runs.duplicated(KEY).any()
    pd.testing.assert_frame_equal(_comparable(runs), _comparable(local_runs))
    assert (tmp_path / "results/summary.md").exists()


def test_cancelled_cluster_job_resumes_without_lost_or_duplicated_rows(cluster, local_runs, tmp_path):
    _write_study(tmp_path)
    one_per_job = ("--group-components", "solve=1")  # one SLURM job per batch job: one to cancel
    first = subprocess.Popen(_cluster_run(tmp_path, cluster, *one_per_job), env=cluster,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_die_with_parent)
    try:
        def running_job():
            running = [i for i, job in _jobs_from(tmp_path, cluster).items() if job["JobState"] == "RUNNING"]
            return running[0] if running else None
        _wait_for(running_job, 300, "a running SLURM job")
        cancelled = running_job()
        subprocess.run(["scancel", cancelled], env=cluster, check=True, timeout=30)
        assert first.wait(timeout=600) != 0, "a cancelled job fails the run"
    finally:
        if first.poll() is None:
            first.terminate()
            first.wait(timeout=60)
    assert _jobs(cluster)[cancelled]["JobState"] == "CANCELLED"
    written = list((tmp_path / "results/runs").rglob("*.jsonl"))
    assert len(written) < BATCH_JOBS, "the cancelled job wrote nothing"

    again = subprocess.run(_cluster_run(tmp_path, cluster, *one_per_job), env=cluster, capture_output=True,
                           text=True, timeout=900, preexec_fn=_die_with_parent)
    assert again.returncode == 0, again.stderr[-3000:]
    runs = pd.read_csv(tmp_path / "results/runs.csv")
    assert not runs.duplicated(KEY).any()
    pd.testing.assert_frame_equal(_comparable(runs), _comparable(local_runs))


def test_a_job_larger_than_every_node_stops_before_submitting(cluster, tmp_path):
    """The profile's cores: 4 on a partition of 2-CPU nodes: SLURM would keep the job pending for ever
    (reason PartitionConfig); the workflow stops with one line naming the setting instead."""
    _write_study(tmp_path)
    command = _cluster_run(tmp_path, cluster)
    at = command.index("--cores")
    del command[at:at + 2]  # the profile's own cores: 4
    done = subprocess.run(command, env=cluster, capture_output=True, text=True, timeout=300,
                          preexec_fn=_die_with_parent)
    assert done.returncode == 2, done.stderr[-3000:]
    lines = [line for line in done.stderr.splitlines() if line.startswith("puzzlebench:")]
    assert lines == [f"puzzlebench: profile error: a SLURM job would ask for 4 CPUs (--cores 4), but the nodes of "
                     f"partition {PARTITION} have at most {NODE_CPUS}: pass --cores {NODE_CPUS}"], done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert _jobs_from(tmp_path, cluster) == {} and not (tmp_path / "results/study.yaml").exists()
