"""The Sudoku kind: what the generic code asks of a Sudoku (see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from ...io.rules import MAX_SUDOKU
from .. import Later, PuzzleKind
from .check import _check_sudoku
from .formats import layouts, readers
from .native import format_solution, format_sudoku, read_sudoku, solution_cell
from .puzzle import Sudoku
from .transforms import (
    apply_sudoku_transform,
    random_sudoku_transform,
    sudoku_symmetries,
    sudoku_transform_count,
)


def sudoku_key(puzzle: Sudoku) -> tuple:
    """Shape, box shape and givens."""
    return (puzzle.shape, puzzle.box_rows, puzzle.box_cols, puzzle.givens.tobytes())


KIND = PuzzleKind(
    name="sudoku", type=Sudoku, description="N x N Sudoku with br x bc boxes",
    check=_check_sudoku, key=sudoku_key,
    native_usage="sudoku N [RxC]", square=True, max_side=MAX_SUDOKU, box=True,
    read_native=read_sudoku, format_native=format_sudoku, solution_cell=solution_cell,
    format_solution=format_solution, draw=Later(f"{__package__}.draw", "draw_sudoku"),
    symmetries=sudoku_symmetries, random_transform=random_sudoku_transform,
    transform_count=sudoku_transform_count, apply_transform=apply_sudoku_transform,
    describe=Later("puzzlebench.kinds.common", "describe_givens"), spec_type=Later(f"{__package__}.generator", "SudokuSpec"),
    generate=Later(f"{__package__}.generator", "generate_sudoku"), specs=Later(f"{__package__}.generator", "sudoku_specs"),
    command=Later(f"{__package__}.generator", "sudoku_command"), knobs=("box", "clues", "blank_fraction", "difficulty"),
    certifying_formulation="binary", solution_columns=Later("puzzlebench.kinds.common", "assignment_solution_columns"),
    formats=readers(), layouts=layouts())
