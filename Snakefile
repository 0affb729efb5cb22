"""puzzlebench workflow: the grid instance sets x formulations x solvers x seeds.

    snakemake --cores 2                                   # the default config
    snakemake --cores 2 --config time_limit=30 seeds=[0,1,2] results=results/three-seeds
    snakemake --cores 2 --configfile my-study.yaml

Each job solves one (set, solver, seed) chunk with every selected formulation in
one process (or one formulation, with group_formulations: false) and writes its
chunk file atomically; `gather` (`puzzlebench gather`) checks every chunk is whole
and builds results/runs.parquet, runs.csv, noise.csv and anomalies.csv, all or
nothing. Those files are not Snakemake outputs (Snakemake deletes a job's
outputs before it runs and when it fails): the gather rule's output is the
marker results/store.json, written last, so a failed gather leaves the previous
store, and the summary, untouched.
"""

import os
import sys

# PUZZLEBENCH_WORKFLOW_PID: a job whose workflow is killed (kill -9 too) ends with its solver (puzzlebench.system.processes)
shell.prefix(f"set -euo pipefail; export PUZZLEBENCH_WORKFLOW_PID={os.getpid()}; ")

from snakemake.utils import min_version

from puzzlebench.errors import PuzzleError
from puzzlebench.store.results import MANIFEST
from puzzlebench.workflow.cluster import check_cpu_request, check_default_resources, largest_cpu_request, partition_cpus, \
    slurm_partition
from puzzlebench.workflow.config import command_line_values, load_study, merged
from puzzlebench.workflow.planner import job_memory_mb, job_runtime_minutes, plan, settings
from puzzlebench.workflow.study import check_results_folder, check_writable, record_study, results_folder

min_version("8.0")

configfile: os.path.join(workflow.basedir, "config.yaml")

try:  # this tree's formulations with this tree's puzzlebench: a checkout on another one's install is refused
    import puzzlebench.formulations  # noqa: F401
except PuzzleError as err:
    print(f"puzzlebench: install error: {err}", file=sys.stderr)
    sys.exit(2)

try:  # the config against puzzlebench/workflow/config.schema.yaml: one line and exit 2, as `puzzlebench config check`
    for path in workflow.configfiles:
        load_study(path)  # refuses a key given twice (Snakemake's YAML reading keeps the last)
    # --config seeds=[0,1,2] arrives as ['0', '1', '2']: the items of its lists and mappings read as numbers
    config.update(merged(config, command_line_values(workflow.config_settings.config)))
    # a study file without a results folder writes to results/<its name>/ (puzzlebench.workflow.study)
    config["results"] = results_folder(config, workflow.overwrite_configfiles,
                                       workflow.config_settings.overwrite_config)
    CFG = settings(config)
    JOBS = plan(config)
    check_results_folder(CFG["results"], CFG)
    check_writable(CFG["results"])  # before onstart writes study.yaml there
except PuzzleError as err:
    print(f"puzzlebench: config error: {err}", file=sys.stderr)
    sys.exit(2)

# e.g. profiles/slurm's slurm_partition: "'$SBATCH_PARTITION'" with SBATCH_PARTITION unset; checked where
# snakemake is started (inside a SLURM job the plugin drops SBATCH_* from the environment)
if not (workflow.remote_exec or workflow.subprocess_exec):
    try:
        check_default_resources({name: resource.raw for name, resource in
                                 (workflow.resource_settings.default_resources or {}).items()})
    except PuzzleError as err:
        print(f"puzzlebench: profile error: {err}", file=sys.stderr)
        sys.exit(2)

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


STORE = f"{RESULTS}/{MANIFEST}"

# gather and analysis only read and write small files: on a cluster they run where snakemake runs
localrules: all, gather, analysis


onstart:
    # on SLURM: a job asking for more CPUs than a node has would stay pending for ever (puzzlebench.workflow.cluster)
    if workflow.executor_plugin is not None and workflow.executor_plugin.name == "slurm":
        groups = workflow.group_settings
        group = (groups.overwrite_groups or {}).get("batch")
        raw = {name: resource.raw for name, resource in (workflow.resource_settings.default_resources or {}).items()}
        try:
            check_cpu_request(largest_cpu_request(CFG["threads"], workflow.resource_settings.cores,
                                                  int((groups.group_components or {}).get(group, 1)) if group else 1,
                                                  len(JOBS)),
                              CFG["threads"], workflow.resource_settings.cores,
                              partition_cpus(slurm_partition(raw.get("slurm_partition"))))
        except PuzzleError as err:
            print(f"puzzlebench: profile error: {err}", file=sys.stderr)
            sys.exit(2)
    record_study(RESULTS, CFG)


rule all:
    input:
        STORE,
        f"{RESULTS}/summary.md",
        f"{RESULTS}/paper/findings.tex",
        f"{RESULTS}/index.html",


rule batch:
    output:
        f"{RESULTS}/runs/{{puzzle}}/{{set}}/{{solver}}/seed{{seed}}/{{group}}chunk{{chunk}}of{{chunks}}.jsonl",
    threads: CFG["threads"]
    # the biggest jobs first, so that the last ones to finish are short and no core idles long
    priority: lambda wc: job_of(wc).work
    resources:
        runtime=lambda wc: job_runtime_minutes(job_of(wc)),
        mem_mb=lambda wc: job_memory_mb(job_of(wc)),
    params:
        job=lambda wc: job_of(wc).to_json(),
        python=PYTHON,
    log:
        f"{RESULTS}/logs/{{puzzle}}/{{set}}/{{solver}}/seed{{seed}}/{{group}}chunk{{chunk}}of{{chunks}}.log",
    shell:
        "{params.python:q} -m puzzlebench batch --job {params.job:q} --threads {threads:q} -o {output:q} 2> {log:q}"


rule gather:
    input:
        [job.path(RESULTS) for job in JOBS],
    output:
        STORE,
    log:
        f"{RESULTS}/logs/gather.log",
    params:
        python=PYTHON,
        results=lambda wc, output: os.path.dirname(output[0]),
    shell:
        "{params.python:q} -m puzzlebench gather {input:q} -o {params.results:q} --manifest {output:q} 2>&1 | tee {log:q} >&2"  # its warnings and refusals on the terminal too


rule analysis:
    """Tables, figures, paper/, summary.md and index.html from the results store (rerun alone: snakemake analysis)."""
    input:
        STORE,
    output:
        summary=report(f"{RESULTS}/summary.md", category="Summary"),
        paper=f"{RESULTS}/paper/findings.tex",
        page=f"{RESULTS}/index.html",  # the results page (analysis/page.py), self-contained
        tables=report(directory(f"{RESULTS}/tables"), patterns=["{name}.csv"],
                      caption="analysis/captions/tables.rst", category="Tables"),
        **{kind: report(directory(f"{RESULTS}/figures/{kind}"), patterns=["{name}.png"],
                        caption=f"analysis/captions/{kind}.rst", category=title, labels={"figure": "{name}"})
           for kind, title in FIGURE_KINDS.items()},
    params:
        runs=f"{RESULTS}/runs.parquet",
        noise=f"{RESULTS}/noise.csv",
        shift=CFG.get("analysis", {}).get("shift", 0.01),
        python=PYTHON,
        results=lambda wc, output: os.path.dirname(output.summary),
    log:
        f"{RESULTS}/logs/analysis.log",
    shell:
        "{params.python:q} -m puzzlebench analyze {params.runs:q} -o {params.results:q} --noise {params.noise:q} "
        "--shift {params.shift:q} 2> {log:q}"
