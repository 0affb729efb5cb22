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

from .errors import PuzzleError

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
