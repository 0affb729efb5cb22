"""Where a study's results go, and the guard that keeps one study from overwriting another.

A study file (``--configfile studies/NAME.yaml``) that names no ``results`` folder writes to
``results/NAME/``; the default config (no study file) to ``results/``; ``results`` in the study
file or on the command line (``--config results=...``) wins.  The first run of a study records its
grid in ``<results>/study.yaml``; a later run with another grid into the same folder is refused
(rerunning the same study resumes it).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ..errors import PuzzleError
from ..system.atomic import write_whole

STUDY_FILE = "study.yaml"
GRID_KEYS = ("instance_sets", "max_instances", "sample", "formulations", "solvers", "solver_configs",
             "solver_formulations", "seeds", "repeats", "permutations", "time_limit", "threads")
"""The config keys that decide which runs a study makes (not where or in how many jobs)."""


def results_folder(config: dict, study_files, command_line: dict) -> str:
    """The study's results folder (see the module doc); ``study_files`` are the ``--configfile`` paths,
    ``command_line`` the ``--config`` values."""
    study_files = [Path(p) for p in study_files or ()]
    named = "results" in (command_line or {}) or any(
        "results" in (yaml.safe_load(path.read_text()) or {}) for path in study_files if path.is_file())
    if named or not study_files:
        return config.get("results", "results")   # as given: the schema refuses null or "" in one line
    return f"results/{study_files[-1].stem}"


def grid(config: dict) -> dict:
    """The keys of ``config`` that decide its runs."""
    return {key: config[key] for key in GRID_KEYS if key in config}


def check_results_folder(results: str, config: dict) -> None:
    """PuzzleError when ``results`` holds another study's runs (its recorded grid differs)."""
    path = Path(results) / STUDY_FILE
    if not path.is_file():
        return
    recorded = yaml.safe_load(path.read_text()) or {}
    current = yaml.safe_load(yaml.safe_dump(grid(config))) or {}
    differs = sorted(k for k in set(recorded) | set(current) if recorded.get(k) != current.get(k))
    if differs:
        raise PuzzleError(f"{results}/ holds the runs of another study ({path}: {', '.join(differs)} "
                          f"differ); give this one its own folder (--config results=results/NAME, or a "
                          f"study file --configfile NAME.yaml), or remove {results}/ to start over")


def check_writable(results: str) -> None:
    """PuzzleError (one line) when the results folder could not be made or written to (a read-only
    file system or folder, a path through a file, no permission).  It leaves nothing behind (a dry
    run may call it): it writes and removes a file in the folder, or in its nearest existing parent."""
    import tempfile
    folder = Path(results).absolute()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        if not folder.is_dir():
            raise NotADirectoryError(20, "a file is in the way", str(folder))
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".puzzlebench-write-test-"):
            pass
    except OSError as err:
        raise PuzzleError(f"results folder {results}/ cannot be written ({err.strerror or err}): choose "
                          f"another with --config results=PATH, or make it writable") from None


def record_study(results: str, config: dict) -> None:
    """Write ``<results>/study.yaml`` (the grid) unless it exists."""
    path = Path(results) / STUDY_FILE
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, "# The grid of the study whose runs this folder holds (puzzlebench.workflow.study).\n"
                        + yaml.safe_dump(grid(config), sort_keys=True))
