"""puzzlebench workflow: the grid instance sets x formulations x solvers x seeds.

    snakemake --cores 2                                   # the default config
    snakemake --cores 2 --config time_limit=30 seeds=[0,1,2]
    snakemake --cores 2 --configfile my-study.yaml

Each job solves one (set, solver, seed) chunk with every selected formulation in
one process (or one formulation, with group_formulations: false) and writes its records atomically; `gather` builds results/runs.parquet and
results/runs.csv, and lists wrong answers and disagreements in anomalies.csv.
"""

import os
import sys

from puzzlebench.errors import PuzzleError
from puzzlebench.workflow import job_runtime_minutes, plan, settings, solver_arguments, solver_configs

configfile: os.path.join(workflow.basedir, "config.yaml")

try:
    CFG = settings(config)
    JOBS = plan(config)
    SOLVERS = solver_configs(CFG)
except PuzzleError as err:
    sys.exit(f"puzzlebench: config error: {err}")

RESULTS = CFG["results"]
JOB_BY_PATH = {job.path(RESULTS): job for job in JOBS}
PYTHON = sys.executable

wildcard_constraints:
    puzzle=r"[^/]+",
    set=r"[^/]+",
    solver=r"[^/]+",
    seed=r"\d+",
    chunk=r"\d+",
    chunks=r"\d+",
    group=r"(?:[^/]+/)?",  # empty, or "<formulation>/" with group_formulations: false


def job_of(wildcards):
    return JOB_BY_PATH[
        f"{RESULTS}/runs/{wildcards.puzzle}/{wildcards.set}/"
        f"{wildcards.solver}/seed{wildcards.seed}/{wildcards.group}chunk{wildcards.chunk}of{wildcards.chunks}.jsonl"
    ]


FIGURE_KINDS = {
    "profiles": "Performance profiles",
    "ecdf": "Solved within time",
    "scatter": "Pairwise comparison",
    "boxes": "Time per run",
    "scaling": "Scaling with size",
    "variability": "Performance variability",
}


rule all:
    input:
        f"{RESULTS}/runs.parquet",
        f"{RESULTS}/runs.csv",
        f"{RESULTS}/anomalies.csv",
        f"{RESULTS}/summary.md",


rule batch:
    output:
        RESULTS + "/runs/{puzzle}/{set}/{solver}/seed{seed}/{group}chunk{chunk}of{chunks}.jsonl",
    threads: CFG["threads"]
    # the biggest jobs first, so that the last ones to finish are short and no core idles long
    priority: lambda wc: job_of(wc).work
    resources:
        runtime=lambda wc: job_runtime_minutes(job_of(wc), CFG),
        mem_mb=2000,
    params:
        formulations=lambda wc: ",".join(job_of(wc).formulations),
        time_limit=CFG["time_limit"],
        permutations=CFG["permutations"],
        max_instances=CFG["max_instances"],
        solver=lambda wc: solver_arguments(SOLVERS[wc.solver]),
    log:
        RESULTS + "/logs/{puzzle}/{set}/{solver}/seed{seed}/{group}chunk{chunk}of{chunks}.log",
    shell:
        "{PYTHON:q} -m puzzlebench batch --set {wildcards.puzzle}/{wildcards.set} "
        "--formulation {params.formulations:q} {params.solver:q} --seed {wildcards.seed} "
        "--chunk {wildcards.chunk}/{wildcards.chunks} --permutations {params.permutations} "
        "--time-limit {params.time_limit} --threads {threads} --max-instances {params.max_instances} "
        "-o {output:q} 2> {log:q}"


rule gather:
    input:
        [job.path(RESULTS) for job in JOBS],
    output:
        runs=f"{RESULTS}/runs.parquet",
        csv=f"{RESULTS}/runs.csv",
        noise=f"{RESULTS}/noise.csv",
        anomalies=f"{RESULTS}/anomalies.csv",
    run:
        from puzzlebench.store import gather

        runs, anomalies = gather(input, RESULTS)
        if len(anomalies):
            print(f"WARNING: {len(anomalies)} anomalies (wrong answers, disagreements or errors): "
                  f"see {output.anomalies}", file=sys.stderr)


rule analysis:
    """Tables, figures and summary.md from the results store (rerun alone: snakemake analysis)."""
    input:
        runs=f"{RESULTS}/runs.parquet",
        noise=f"{RESULTS}/noise.csv",
    output:
        summary=report(f"{RESULTS}/summary.md", category="Summary"),
        tables=report(directory(f"{RESULTS}/tables"), patterns=["{name}.csv"],
                      caption="analysis/captions/tables.rst", category="Tables"),
        **{kind: report(directory(f"{RESULTS}/figures/{kind}"), patterns=["{puzzle}.png"],
                        caption=f"analysis/captions/{kind}.rst", category=title, labels={"puzzle": "{puzzle}"})
           for kind, title in FIGURE_KINDS.items()},
    params:
        shift=CFG.get("analysis", {}).get("shift", 0.01),
    shell:
        "{PYTHON:q} -m puzzlebench analyze {input.runs:q} -o {RESULTS:q} --noise {input.noise:q} "
        "--shift {params.shift}"
