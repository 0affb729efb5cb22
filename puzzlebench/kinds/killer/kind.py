"""The Killer Sudoku kind (Killer-X with ``diagonal``; see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from ...io.rules import MAX_SUDOKU
from .. import Later, PuzzleKind
from ..sudoku.kind import sudoku_key
from ..sudoku.native import format_solution, solution_cell
from .check import check_killer
from .formats import layouts, readers
from .native import format_killer, read_killer
from .puzzle import KillerSudoku
from .transforms import (
    apply_killer_transform,
    killer_symmetries,
    killer_transform_count,
    random_killer_transform,
)


def killer_key(puzzle: KillerSudoku) -> tuple:
    """The Sudoku key, the cages (in any order) and the diagonal flag."""
    cages = frozenset((frozenset(cage.cells), cage.total) for cage in puzzle.cages)
    return (*sudoku_key(puzzle), cages, puzzle.diagonal)


KIND = PuzzleKind(
    name="killer", type=KillerSudoku, description="Killer Sudoku: cages with sums (Killer-X: diagonals too)",
    check=check_killer, key=killer_key,
    native_usage="killer N [RxC] [diagonal]", square=True, max_side=MAX_SUDOKU, box=True,
    flag="diagonal", flag_rule="diagonal",
    read_native=read_killer, format_native=format_killer, solution_cell=solution_cell,
    format_solution=format_solution, draw=Later(f"{__package__}.draw", "draw_killer"),
    symmetries=killer_symmetries, random_transform=random_killer_transform,
    transform_count=killer_transform_count, apply_transform=apply_killer_transform,
    describe=Later(f"{__package__}.generator", "describe_killer"), spec_type=Later(f"{__package__}.generator", "KillerSpec"),
    generate=Later(f"{__package__}.generator", "generate_killer"), specs=Later(f"{__package__}.generator", "killer_specs"),
    command=Later(f"{__package__}.generator", "killer_command"), knobs=("box", "max_cage", "diagonal"),
    certifying_formulation="combinations", solution_columns=Later("puzzlebench.kinds.common", "assignment_solution_columns"),
    formats=readers(), layouts=layouts())
