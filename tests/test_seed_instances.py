"""The seed instances shipped in instances/<puzzle>/seed/ parse and their solutions are valid."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from puzzlebench.checker import check
from puzzlebench.io import detect_format, read_puzzles, read_solution, read_solutions
from puzzlebench.puzzles import Takuzu

INSTANCES = Path(__file__).parent.parent / "instances"
SEED_SETS = {"sudoku": ["fjmc_blog2025", "matlab_cleve"], "killer": ["fjmc_blog2026"],
             "kakuro": ["fjmc_blog2026"], "takuzu": ["fjmc_blog2026"]}
CASES = [(puzzle, name) for puzzle, names in SEED_SETS.items() for name in names]


def _puzzle_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.txt") if not p.name.endswith(("solution.txt", "solutions.txt")))


@pytest.mark.parametrize("puzzle", SEED_SETS)
def test_set_yaml_and_source(puzzle):
    folder = INSTANCES / puzzle / "seed"
    meta = yaml.safe_load((folder / "set.yaml").read_text())
    assert meta["puzzle"] == puzzle and meta["format"] == "native"
    assert meta["count"] == len(_puzzle_files(folder)) == len(SEED_SETS[puzzle])
    assert meta["source"] and meta["licence"] and isinstance(meta["options"], dict)
    source = (folder / "SOURCE.md").read_text()
    assert "transcribed" in source.lower() and "fjmartincampo.com/blog/" in source


@pytest.mark.parametrize("puzzle, name", CASES)
def test_seed_puzzle_and_solution(puzzle, name):
    folder = INSTANCES / puzzle / "seed"
    options = yaml.safe_load((folder / "set.yaml").read_text())["options"]
    path = folder / f"{name}.txt"
    assert detect_format(path) == "native"
    [entry] = read_puzzles(path, options=options)
    assert entry.puzzle.puzzle == puzzle and entry.name == "1"
    solution = read_solution(folder / f"{name}.solution.txt", entry.puzzle)
    assert check(entry.puzzle, solution) == []


def test_seed_contents():
    sudoku = {p.stem: read_puzzles(p)[0].puzzle for p in _puzzle_files(INSTANCES / "sudoku/seed")}
    assert {k: p.num_givens for k, p in sudoku.items()} == {"fjmc_blog2025": 30, "matlab_cleve": 21}
    killer = read_puzzles(INSTANCES / "killer/seed/fjmc_blog2026.txt")[0].puzzle
    assert len(killer.cages) == 32 and killer.cage_sums.sum() == 405 and killer.num_givens == 0
    kakuro = read_puzzles(INSTANCES / "kakuro/seed/fjmc_blog2026.txt")[0].puzzle
    assert kakuro.white.sum() == 13 and len(kakuro.runs) == 8
    takuzu = read_puzzles(INSTANCES / "takuzu/seed/fjmc_blog2026.txt")[0].puzzle
    assert takuzu.num_givens == 21 and not takuzu.distinct_lines


def test_all_17_kakuro_solutions():
    folder = INSTANCES / "kakuro/seed"
    kakuro = read_puzzles(folder / "fjmc_blog2026.txt")[0].puzzle
    solutions = read_solutions(folder / "fjmc_blog2026.all_solutions.txt", kakuro)
    assert len(solutions) == 17
    assert len({s.tobytes() for s in solutions}) == 17
    assert all(check(kakuro, s) == [] for s in solutions)
    pictured = read_solution(folder / "fjmc_blog2026.solution.txt", kakuro)
    assert (solutions[6] == pictured).all()


def test_takuzu_seed_solution_also_has_distinct_lines():
    folder = INSTANCES / "takuzu/seed"
    puzzle = read_puzzles(folder / "fjmc_blog2026.txt", options={"distinct_lines": True})[0].puzzle
    assert isinstance(puzzle, Takuzu) and puzzle.distinct_lines
    solution = read_solution(folder / "fjmc_blog2026.solution.txt", puzzle)
    assert check(puzzle, solution) == [] and np.unique(solution, axis=0).shape[0] == 8
