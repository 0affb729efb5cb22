"""The validation of an instance set before it is benchmarked (``validate``, ``import``).

Every file of the set is parsed (a bad file is reported as ``file:line: problem`` and the next
one read), the parsed count compared with ``set.yaml``'s ``count``, every reference solution
checked with the independent rule checker (:func:`puzzlebench.checker.check`; a puzzle whose set
lists several distinct valid solutions is "not unique") and, when asked, each puzzle certified to
have exactly one solution by counting solutions up to 2 with no-good cuts (:class:`Uniqueness`).
:class:`SetReport` tallies the findings and gives the exit code: 2 when a file or the set's
definition is bad, else 1 when a solution or uniqueness check failed, else 0.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass


@dataclass
class SetReport:
    """The tallies of one set's validation."""

    name: str
    files: int = 0
    bad_files: int = 0
    bad_definition: bool = False
    puzzles: int = 0
    solutions: int = 0
    bad_solutions: int = 0
    mismatched: int = 0
    unique: int = 0
    not_unique: int = 0
    uncertified: int = 0

    def add_count(self, found: int, status: str) -> str | None:
        """Tally one uniqueness count (``found`` solutions, up to 2, the search's ``status``); the
        problem when the puzzle is not certified unique."""
        if status != "optimal":
            self.uncertified += 1
            return f"uniqueness not certified: the search ended with {status} after {found} solution(s)"
        if found != 1:
            self.not_unique += 1
            return "has no solution" if found == 0 else "has more than one solution"
        self.unique += 1
        return None

    @property
    def exit_code(self) -> int:
        if self.bad_files or self.bad_definition:
            return 2
        return 1 if self.bad_solutions or self.mismatched or self.not_unique or self.uncertified else 0

    def summary(self, checked_unique: bool) -> str:
        parts = [f"{self.puzzles} puzzle(s) in {self.files} file(s)"]
        if self.bad_files:
            parts.append(f"{self.bad_files} bad file(s)")
        if self.solutions:
            parts.append(f"{self.solutions - self.bad_solutions}/{self.solutions} reference solutions valid")
        else:
            parts.append("no reference solutions")
        if checked_unique:
            parts.append(f"{self.unique}/{self.puzzles} unique")
            if self.uncertified:
                parts.append(f"{self.uncertified} not certified")
            if self.mismatched:
                parts.append(f"{self.mismatched} reference(s) differ from the unique solution")
        verdict = "ok" if self.exit_code == 0 else "FAILED"
        return f"{self.name}: {verdict}: {', '.join(parts)}"


class Uniqueness:
    """Certifies uniqueness by counting solutions up to 2 in one solver process."""

    def __init__(self, formulation: str, solver: str, time_limit: float):
        from .worker import SolverProcess
        from ..solvers.contract import SolveOptions
        self.formulation = formulation
        self.solver = solver
        self.options = SolveOptions(time_limit=time_limit)
        self.process = SolverProcess()

    def count(self, puzzle):
        """(solutions found, up to 2; their grids; "optimal" when the count is proven)."""
        from .runner import count_solutions
        return count_solutions(puzzle, self.formulation, self.solver, 2, self.options, self.process)

    def close(self) -> None:
        self.process.close()


def validate_set(instance_set, say, uniqueness: Uniqueness | None = None) -> SetReport:
    """Validate one set, calling ``say(line)`` for every problem found."""
    import numpy as np
    from tqdm import tqdm

    from ..checker import check
    from ..errors import PuzzleError

    report = SetReport(instance_set.name, files=len(instance_set.files))
    if not instance_set.files:
        say(f"{instance_set.path}: no puzzle files in the set")
        report.bad_definition = True
    entries = []
    for path in instance_set.files:
        try:
            entries += instance_set.read_file(path)
        except PuzzleError as err:
            say(str(err.locate(str(path))))
            report.bad_files += 1
    report.puzzles = len(entries)
    expected = instance_set.meta.get("count")
    if expected is not None and not report.bad_files and expected != len(entries):
        say(f"{instance_set.path / 'set.yaml'}: count is {expected} "
            f"but the files hold {len(entries)} puzzles")
        report.bad_definition = True
    bar = tqdm(entries, desc=instance_set.name, unit="puzzle", file=sys.stderr, leave=False,
               disable=not sys.stderr.isatty())
    for entry in bar:
        where = f"{instance_set.name}/{entry.name}"
        valid = []
        for k, solution in enumerate(entry.solutions, start=1):
            violations = check(entry.puzzle, solution)
            label = "reference solution" + (f" {k} of {len(entry.solutions)}" if len(entry.solutions) > 1 else "")
            report.solutions += 1
            report.bad_solutions += bool(violations)
            for violation in violations:
                say(f"{where}: {label}: {violation}")
            if not violations and not any(np.array_equal(solution, seen) for seen in valid):
                valid.append(solution)
        if len(valid) > 1:
            say(f"{where}: {len(valid)} listed solutions: not unique")
            if uniqueness is not None:
                report.not_unique += 1
            continue
        if uniqueness is None:
            continue
        found, grids, status = uniqueness.count(entry.puzzle)
        problem = report.add_count(found, status)
        if problem is not None:
            say(f"{where}: {problem}")
        if found == 1 and status == "optimal" and valid and not np.array_equal(grids[0], valid[0]):
            report.mismatched += 1
            say(f"{where}: the only solution found differs from the reference solution")
    return report
