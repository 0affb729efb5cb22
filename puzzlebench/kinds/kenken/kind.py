"""The KenKen (Calcudoku) kind (see :class:`puzzlebench.kinds.PuzzleKind`)."""

from __future__ import annotations

from .. import PuzzleKind
from ..sudoku.generator import sudoku_solution_columns
from .check import check_kenken
from .draw import draw_kenken
from .formats import readers
from .generator import KenKenSpec, generate_kenken, kenken_command, kenken_specs
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
    format_solution=format_kenken_solution, draw=draw_kenken,
    symmetries=kenken_symmetries, random_transform=random_kenken_transform,
    transform_count=kenken_transform_count, apply_transform=apply_kenken_transform,
    describe=describe, spec_type=KenKenSpec, generate=generate_kenken, specs=kenken_specs,
    command=kenken_command, knobs=("max_cage",),
    certifying_formulation="binary", solution_columns=sudoku_solution_columns,
    formats=readers())
