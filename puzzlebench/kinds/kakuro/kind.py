"""The Kakuro kind (see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from ...io.text import MAX_SIDE
from .. import Later, PuzzleKind
from .check import _check_kakuro
from .formats import layouts, readers
from .native import format_kakuro, format_solution, read_kakuro, solution_cell
from .puzzle import Kakuro
from .transforms import (
    apply_kakuro_transform,
    kakuro_symmetries,
    kakuro_transform_count,
    random_kakuro_transform,
)


def kakuro_key(puzzle: Kakuro) -> tuple:
    """Shape, white cells and both clue layers."""
    return (puzzle.shape, puzzle.white.tobytes(), puzzle.across.tobytes(), puzzle.down.tobytes())


KIND = PuzzleKind(
    name="kakuro", type=Kakuro, description="Kakuro: runs of distinct digits 1..9 with sums",
    check=_check_kakuro, key=kakuro_key,
    native_usage="kakuro ROWS COLS", max_side=MAX_SIDE,
    read_native=read_kakuro, format_native=format_kakuro, solution_cell=solution_cell,
    format_solution=format_solution, draw=Later(f"{__package__}.draw", "draw_kakuro"),
    symmetries=kakuro_symmetries, random_transform=random_kakuro_transform,
    transform_count=kakuro_transform_count, apply_transform=apply_kakuro_transform,
    describe=Later(f"{__package__}.generator", "describe_kakuro"), spec_type=Later(f"{__package__}.generator", "KakuroSpec"),
    generate=Later(f"{__package__}.generator", "generate_kakuro"), specs=Later(f"{__package__}.generator", "kakuro_specs"),
    command=Later(f"{__package__}.generator", "kakuro_command"), knobs=("density",),
    certifying_formulation="combinations", solution_columns=Later(f"{__package__}.generator", "kakuro_solution_columns"),
    open_cells=Later(f"{__package__}.generator", "kakuro_open_cells"),
    formats=readers(), layouts=layouts())
