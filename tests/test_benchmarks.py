"""Smoke runs of the benchmark scripts (``--quick``): they run and print their tables.

No timing is asserted: the figures depend on the machine and its load.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = {
    "build_time.py": ["### Sudoku build time", "### Sudoku binary model: PuLP modelling objects vs puzzlebench",
                      "### Sudoku binary model written in a modelling layer, 9x9"],
    "overhead.py": ["### CLI on the first 20 of magictour top1465", "### Workflow:"],
}


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_benchmark_quick_run_prints_tables(script, tmp_path):
    args = [sys.executable, str(ROOT / "benchmarks" / script), "--quick"]
    if script == "build_time.py":
        args += ["--runs", str(tmp_path / "no-such-store.parquet")]  # the share table needs a run store
    done = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    for title in SCRIPTS[script]:
        assert title in out, title
    rows = [line for line in out.splitlines() if line.startswith("|")]
    assert len(rows) >= 3 and any(set(line) <= set("|- ") for line in rows), "a Markdown table"
    assert "machine: " in out


def test_build_share_reads_a_results_store(tmp_path):
    pd = pytest.importorskip("pandas")
    runs = tmp_path / "runs.parquet"
    pd.DataFrame({"puzzle": ["sudoku", "sudoku", "takuzu"], "formulation": ["binary", "binary", "binary"],
                  "build_time": [0.001, 0.001, 0.002], "solver_time": [0.1, 0.3, None]}).to_parquet(runs)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from build_time import build_share
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    rows, total = build_share(runs)
    assert total == pytest.approx(0.002 / 0.4)
    assert rows[0][0] == "sudoku/binary" and rows[0][1] == 2 and rows[-1][0] == "**all**"
