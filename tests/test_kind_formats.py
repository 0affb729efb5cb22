"""Readers that belong to one kind live in that kind's folder and are registered by it (issue 35).

The six formats that hold one built-in kind's puzzles moved from ``puzzlebench/io/`` into
``puzzlebench/kinds/<kind>/``; the registry (:func:`puzzlebench.io.kind_formats`) offers them, and
detection still picks each where it did.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import puzzlebench.io
from puzzlebench.io import FORMATS, detect_format, detecting, kind_formats, read_puzzles, read_solutions

DATA = Path(__file__).parent / "data"
IO = Path(puzzlebench.io.__file__).parent
MOVED = {  # format -> (kind, module, example file or text)
    "sudoku-csv": ("sudoku", "sudoku_csv", DATA / "wild" / "sudoku-csv" / "sudoku_small.csv"),
    "killer-csv": ("killer", "killer_csv", DATA / "csv" / "killers.csv"),
    "killer-labels": ("killer", "killer_labels", DATA / "wild" / "killer" / "1.txt"),
    "kakuro-csv": ("kakuro", "kakuro_csv", DATA / "csv" / "kakuro_6x6.csv"),
    "gecode-kakuro": ("kakuro", "gecode_kakuro", DATA / "wild" / "kakuro" / "kakuro_head.cpp"),
    "binairo-task": ("takuzu", "binairo_task", "a1d11dx\n"),
}


def test_no_single_kind_format_module_is_left_in_io():
    assert not [module for _, module, _ in MOVED.values() if (IO / f"{module}.py").exists()]
    assert not any(hasattr(puzzlebench.io, module) for _, module, _ in MOVED.values())


@pytest.mark.parametrize("fmt", MOVED)
def test_the_kind_registers_its_format(fmt):
    kind, module, _ = MOVED[fmt]
    registered_kind, reader = kind_formats()[fmt]
    assert registered_kind == kind
    assert reader.__name__ == f"puzzlebench.kinds.{kind}.{module}"
    assert Path(reader.__file__).parent == IO.parent / "kinds" / kind


@pytest.mark.parametrize("fmt", MOVED)
def test_detection_still_picks_each_moved_format(fmt, tmp_path):
    kind, _, example = MOVED[fmt]
    if isinstance(example, str):
        example = tmp_path / "p.txt"
        example.write_text(MOVED[fmt][2])
    assert detect_format(example) == fmt
    entries = read_puzzles(example)
    assert entries and all(e.puzzle.puzzle == kind for e in entries)


def test_formats_and_detection_keep_their_order():
    assert FORMATS == ("native", "lines", "janko", "tatham", "dzn", "kakuro-csv", "killer-csv", "sudoku-csv", "grid",
                       "killer-json", "killer-labels", "sudoku-yaml", "gecode-kakuro", "binairo-task", "keen",
                       "kenken-json", "kenken-letters")
    assert [fmt for fmt, _, _ in detecting("line")] == ["kakuro-csv", "killer-csv", "sudoku-csv", "killer-labels",
                                                         "binairo-task"]
    assert [fmt for fmt, _, _ in detecting("source")] == ["gecode-kakuro"]
    assert [fmt for fmt, _, _ in detecting("text")] == ["keen", "kenken-json", "kenken-letters"]


def test_killer_solutions_are_read_from_sudoku_csv(tmp_path):
    killer = read_puzzles(DATA / "csv" / "killers.csv")[0]
    solution = tmp_path / "s.csv"
    solution.write_text("puzzle,solution\n" + "0" * 16 + "," + "".join(map(str, killer.solution.ravel())) + "\n")
    assert (read_solutions(solution, killer.puzzle)[0] == killer.solution).all()
