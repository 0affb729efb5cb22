"""The KenKen (Calcudoku) kind (see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from .. import Later, PuzzleKind
from .check import check_kenken
from .formats import readers
from .native import format_kenken, format_kenken_solution, read_native, solution_cell
from .puzzle import MAX_SIZE, KenKen, describe, puzzle_key
from .transforms import (
    apply_kenken_transform,
    kenken_symmetries,
    kenken_transform_count,
    random_kenken_transform,
)

KIND = PuzzleKind(
    name="kenken", type=KenKen, description="KenKen (Calcudoku): a Latin square in cages with a target and +, -, x or /",
    check=check_kenken, key=puzzle_key,
    native_usage="kenken N", square=True, max_side=MAX_SIZE,
    read_native=read_native, format_native=format_kenken, solution_cell=solution_cell,
    format_solution=format_kenken_solution, draw=Later(f"{__package__}.draw", "draw_kenken"),
    symmetries=kenken_symmetries, random_transform=random_kenken_transform,
    transform_count=kenken_transform_count, apply_transform=apply_kenken_transform,
    describe=describe, spec_type=Later(f"{__package__}.generator", "KenKenSpec"),
    generate=Later(f"{__package__}.generator", "generate_kenken"), specs=Later(f"{__package__}.generator", "kenken_specs"),
    command=Later(f"{__package__}.generator", "kenken_command"), knobs=("max_cage",),
    certifying_formulation="binary", solution_columns=Later("puzzlebench.kinds.common", "assignment_solution_columns"),
    formats=readers())
