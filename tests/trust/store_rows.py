"""Run rows as ``batch`` writes them, for the tests of the store."""

from __future__ import annotations

from dataclasses import asdict

from puzzlebench.store.records import RunContext, RunRecord

GRID = [[1]]


def row(instance: str = "p1", status: str = "optimal", *, verified=None, instance_set: str = "sudoku/a",
        role: str = "run", reference_known: bool = False, solver: str = "highs", formulation: str = "binary",
        violations=(), message: str = "", relaxation: bool | None = False) -> dict:
    """One run (a RunRecord and its RunContext); a grid goes with every verdict of the checker
    (``verified`` True or False).  ``relaxation`` None is a row written before the flag was recorded."""
    record = RunRecord(instance=instance, puzzle="sudoku", formulation=formulation, solver=solver,
                       solver_version="1", seed=0, threads=1, time_limit=10.0, status=status, message=message,
                       solution=None if verified is None else GRID, verified=verified, violations=list(violations),
                       relaxation=relaxation)
    context = RunContext(instance_set, role, "1x1", 0, 0, reference_known)
    return {**record.to_dict(), **asdict(context)}
