"""io's generic layouts ask the kinds' parts (issue 35, stage B).

A kind declares its part of each of io's layouts that hold several kinds (``PuzzleKind.layouts``): a
module of its folder that loads when the layout is used, so loading the kinds loads no part, and a
new kind needs no edit in ``puzzlebench/io``.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from types import SimpleNamespace
from typing import ClassVar

import numpy as np
import pytest
from kind_variants import variant

import puzzlebench.kinds
from puzzlebench.errors import PuzzleError
from puzzlebench.io import LAYOUTS, Entry, detect_format, format_puzzle, formats_holding, lines, read_puzzles
from puzzlebench.kinds import BUILTIN, Later, get_kind, kinds, register_kind
from puzzlebench.toolkit.text import content_lines, split_lines

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, eq=False)
class Strip:
    """A plug-in kind's puzzle: one row of digits, ``.`` a blank."""

    givens: np.ndarray
    name: str = ""
    puzzle: ClassVar[str] = "strip"

    @property
    def shape(self):
        return self.givens.shape

    @property
    def num_givens(self):
        return int((self.givens > 0).sum())


def read_strips(text, path, rules, layout):
    """The strip kind's lines: ``<1.3.>``, one a line."""
    items = []
    for line in content_lines(split_lines(text)):
        name = str(len(items) + 1)
        if not (line.text.startswith("<") and line.text.endswith(">")):
            items.append(PuzzleError("expected a strip such as <1.3.>", line=line.number))
            continue
        givens = np.array([[0 if ch == "." else int(ch) for ch in line.text[1:-1]]])
        items.append(Entry(Strip(givens, name), name, path, line.number))
    return items


STRIP_LINES = SimpleNamespace(  # the plug-in kind's part of io's lines layout
    looks_like=lambda text: text.startswith("<") and text.endswith(">"), read=read_strips,
    format_puzzle=lambda p: "<" + "".join(str(v) if v else "." for v in p.givens[0].tolist()) + ">\n")


@pytest.fixture
def strip_kind(monkeypatch):
    """A kind registered from outside io, with a part of the lines layout; the registry restored after."""
    kinds()
    monkeypatch.setattr(puzzlebench.kinds, "_KINDS", dict(puzzlebench.kinds._KINDS))
    monkeypatch.setattr(puzzlebench.kinds, "_BY_TYPE", dict(puzzlebench.kinds._BY_TYPE))
    return register_kind(variant(get_kind("takuzu"), name="strip", type=Strip, formats={},
                                 key=lambda p: (p.givens.tobytes(),), layouts={"lines": STRIP_LINES}))


def test_a_new_kind_reads_a_lines_file_through_its_part_with_no_io_edit(strip_kind, tmp_path):
    path = tmp_path / "strips.txt"
    path.write_text("# two strips\n<1.3.>\n<..21>\n")
    assert detect_format(path) == "lines"
    entries = read_puzzles(path)
    assert [type(e.puzzle) for e in entries] == [Strip, Strip]
    assert entries[1].puzzle.givens.tolist() == [[0, 0, 2, 1]] and entries[1].line == 3
    assert [e.name for e in read_puzzles(path, puzzle="strip", format="lines")] == ["1", "2"]
    assert format_puzzle(entries[0].puzzle, "lines") == "<1.3.>\n"
    assert "strip" in lines.PUZZLES and formats_holding("strip") == ["native", "lines"]
    with pytest.raises(PuzzleError, match="the lines format holds only sudoku, takuzu and strip puzzles, not kakuro"):
        read_puzzles(path, puzzle="kakuro", format="lines")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_layout_module_names_no_kind(layout):
    """A generic layout's module asks the kinds' parts: its code names no built-in kind (prose may)."""
    source = Path(import_module(f"puzzlebench.io.{layout.replace('-', '_')}").__file__).read_text()
    named = [node.value for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Constant) and node.value in BUILTIN]
    assert named == []


def test_register_kind_refuses_a_layout_io_does_not_have():
    kind = variant(get_kind("takuzu"), name="takuzu2", formats={},
                   layouts={"csv": Later("puzzlebench.kinds.takuzu.tatham")})
    with pytest.raises(PuzzleError, match=r"puzzle kind 'takuzu2': 'csv' is none of io's layouts "
                                          r"\(layouts: lines, janko, tatham, dzn, grid, killer-json, sudoku-yaml\)"):
        register_kind(kind)
    missing = variant(kind, layouts={"tatham": Later("puzzlebench.kinds.takuzu.no_such_part")})
    with pytest.raises(PuzzleError, match=r"no module for its tatham part \(puzzlebench.kinds.takuzu.no_such_part\)"):
        register_kind(missing)
    borrowed = variant(kind, layouts={"lines": "killer"})  # killer's own lines part is the sudoku kind's
    with pytest.raises(PuzzleError, match="its lines part names kind 'killer', which has no lines part of its own"):
        register_kind(borrowed)


def test_the_built_in_kinds_declare_parts_of_io_layouts_only():
    from puzzlebench.kinds import kinds
    declared = {name for kind in kinds() for name in kind.layouts}
    assert declared and declared <= set(LAYOUTS)


def test_loading_the_kinds_loads_no_part():
    probe = ("import json, sys\nfrom puzzlebench.kinds import Later, kinds\n"
             "parts = {p.module for k in kinds() for p in k.layouts.values() if isinstance(p, Later)}\n"
             "print(json.dumps([sorted(parts), sorted(parts & set(sys.modules))]))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    parts, loaded = json.loads(done.stdout)
    assert parts and loaded == []


def test_janko_refuses_a_kind_with_no_part_rather_than_read_it_as_another():
    """Before the kinds' parts, a janko text read with --puzzle kenken fell through to the Binairo reader."""
    binairo = ROOT / "tests" / "data" / "janko" / "binairo_20x20_1.txt"
    with pytest.raises(PuzzleError, match="the janko format holds only sudoku, killer, kakuro and takuzu puzzles, "
                                          "not kenken"):
        read_puzzles(binairo, puzzle="kenken")
