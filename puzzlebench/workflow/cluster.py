"""Checks of a cluster profile's settings before Snakemake submits anything.

``profiles/slurm`` reads the SLURM partition and account from the environment
(``slurm_partition: "'$SBATCH_PARTITION'"``); Snakemake expands the variables only
when it evaluates a job's resources, and an unset one stays as the literal text
``$SBATCH_PARTITION``, which ``sbatch`` rejects for every job.  This module finds
such references up front, so the user gets one line naming the setting and the
variable instead.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from ..errors import PuzzleError

_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def unset_variables(value: object, environ: Mapping[str, str]) -> list[str]:
    """The environment variables ``value`` refers to (``$NAME`` or ``${NAME}``) that are not set."""
    if not isinstance(value, str):
        return []
    names = [braced or bare for braced, bare in _VARIABLE.findall(value)]
    return [name for name in names if name not in environ]


def check_default_resources(raw: Mapping[str, object], environ: Mapping[str, str] | None = None) -> None:
    """Refuse a default resource whose value names an unset environment variable.

    ``raw`` maps resource names to the values as written in the profile or on the
    command line (``--default-resources``).  An empty variable counts as set: an
    empty ``SBATCH_ACCOUNT`` means the cluster has no accounts.
    """
    environ = os.environ if environ is None else environ
    for name, value in raw.items():
        missing = unset_variables(value, environ)
        if missing:
            raise PuzzleError(f"default resource {name} reads the environment variable {missing[0]}, "
                              f"which is not set: export {missing[0]}=<value>, or pass "
                              f"--default-resources {name}=<value>")


def largest_cpu_request(threads: int, cores: int | None, group_size: int, jobs: int) -> int:
    """The most CPUs one SLURM job of the workflow asks for: a batch job's ``threads``, or, with
    ``group_size`` batch jobs grouped into one SLURM job (``--groups batch=G --group-components
    G=N``), as many side by side as ``--cores`` allows, ``min(cores, threads x N)`` (Snakemake sums
    the threads of the grouped jobs that run at once, up to ``--cores``)."""
    if group_size <= 1 or not cores:
        return threads
    return max(threads, min(cores, threads * min(group_size, jobs)))


def partition_cpus(partition: str | None, run=None) -> tuple[str, int] | None:
    """(partition, the most CPUs any of its nodes has) from ``sinfo``; the default partition when
    ``partition`` is None; None when sinfo cannot tell (not installed, or no such partition)."""
    import subprocess
    run = run or subprocess.run
    try:
        done = run(["sinfo", "--noheader", "--Node", "--format", "%P %c"], capture_output=True, text=True,
                   timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    nodes = [line.split() for line in done.stdout.splitlines() if len(line.split()) == 2]
    if done.returncode != 0 or not nodes:
        return None
    if partition is None:
        partition = next((name.rstrip("*") for name, _ in nodes if name.endswith("*")), None)
    cpus = [int(count.rstrip("+")) for name, count in nodes if name.rstrip("*") == partition and
            count.rstrip("+").isdigit()]
    return (partition, max(cpus)) if cpus else None


def check_cpu_request(requested: int, threads: int, cores: int | None, partition: tuple[str, int] | None) -> None:
    """Refuse a workflow whose SLURM jobs would ask for more CPUs than any node of the partition
    has: SLURM keeps such a job pending (reason PartitionConfig) and snakemake waits for ever."""
    if partition is None or requested <= partition[1]:
        return
    name, cpus = partition
    if threads > cpus:
        raise PuzzleError(f"a batch job asks for threads = {threads} CPUs, but the nodes of partition {name} "
                          f"have at most {cpus}: pass --config threads={cpus}")
    raise PuzzleError(f"a SLURM job would ask for {requested} CPUs (--cores {cores}), but the nodes of "
                      f"partition {name} have at most {cpus}: pass --cores {cpus}")


def slurm_partition(raw: object, environ: Mapping[str, str] | None = None) -> str | None:
    """The partition a ``slurm_partition`` default resource names (``"'$SBATCH_PARTITION'"`` in the
    profile: the variable expanded, the quotes dropped), or None."""
    if raw is None:
        return None
    environ = os.environ if environ is None else environ
    value = _VARIABLE.sub(lambda m: environ.get(m[1] or m[2], ""), str(raw)).strip("'\" ")
    return value or None
