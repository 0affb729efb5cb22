"""The results store: job files gathered into one tidy table, and its anomalies.

``runs.parquet`` / ``runs.csv`` hold one row per run (every RunRecord field plus
set, size, givens, permutation and provenance); ``noise.csv`` holds the repeated
reference solves; ``anomalies.csv`` lists wrong answers (a grid the checker
rejects), cross-solver disagreements (one run says infeasible while another
finds a valid grid for the same instance) and solver errors.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd

ANOMALY_COLUMNS = ["kind", "instance_set", "instance", "permutation", "formulation", "solver", "seed",
                   "status", "detail"]


def read_job_files(paths) -> pd.DataFrame:
    rows = []
    for path in paths:
        with open(path) as fh:
            rows += [json.loads(line) for line in fh if line.strip()]
    return pd.DataFrame(rows)


def find_anomalies(runs: pd.DataFrame) -> pd.DataFrame:
    """Wrong answers, cross-solver disagreements and errors, one row each."""
    out = []
    from .registry import formulations
    relaxations = {(f.puzzle, f.name) for f in formulations() if f.relaxation}  # rejected grids expected
    relaxed = pd.Series([(p, f) in relaxations for p, f in zip(runs["puzzle"], runs["formulation"])]
                        if "puzzle" in runs else False, index=runs.index, dtype=bool)
    for r in runs[(runs["verified"] == False) & ~relaxed].itertuples():  # noqa: E712 (None means no grid)
        out.append(("wrong", r.instance_set, r.instance, r.permutation, r.formulation, r.solver, r.seed,
                    r.status, "; ".join(r.violations)[:500]))
    for r in runs[runs["status"] == "error"].itertuples():
        out.append(("error", r.instance_set, r.instance, r.permutation, r.formulation, r.solver, r.seed,
                    r.status, str(r.message)[:500]))
    key = ["instance_set", "instance", "permutation"]
    solved = runs[runs["verified"] == True].groupby(key).size().rename("valid_grids")  # noqa: E712
    infeasible = runs[runs["status"] == "infeasible"].merge(solved.reset_index(), on=key)
    for r in infeasible.itertuples():
        out.append(("disagreement", r.instance_set, r.instance, r.permutation, r.formulation, r.solver,
                    r.seed, r.status, f"infeasible, but {r.valid_grids} other run(s) found a valid grid"))
    return pd.DataFrame(out, columns=ANOMALY_COLUMNS)


def _atomic(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    write(tmp)
    os.replace(tmp, path)


def gather(paths, out_dir) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Write runs.parquet, runs.csv, noise.csv and anomalies.csv into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    table = read_job_files(paths)
    runs = table[table["role"] == "run"].drop(columns="role").reset_index(drop=True)
    noise = table[table["role"] == "noise"].drop(columns=["role", "solution", "violations"])
    flat = runs.assign(solution=runs["solution"].map(json.dumps), violations=runs["violations"].map(json.dumps))
    _atomic(out_dir / "runs.parquet", lambda p: flat.to_parquet(p, index=False))
    _atomic(out_dir / "runs.csv", lambda p: flat.to_csv(p, index=False))
    _atomic(out_dir / "noise.csv", lambda p: noise.to_csv(p, index=False))
    anomalies = find_anomalies(runs) if len(runs) else pd.DataFrame(columns=ANOMALY_COLUMNS)
    _atomic(out_dir / "anomalies.csv", lambda p: anomalies.to_csv(p, index=False))
    return runs, anomalies
