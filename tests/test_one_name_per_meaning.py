"""One name per meaning (issue 36, item 5): no module constant is called plain ``KINDS`` beside the
``kinds`` package, no module is called ``setup`` beside the packaging ``setup.py``, the identity
modules all mean a model's identity, the Kakuro clue run is not ``puzzlebench.Run`` beside the
``puzzlebench.run`` package, and the text a generated set's SOURCE.md gives comes from fields, not
from docstrings."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import puzzlebench

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(p for folder in ("puzzlebench", "formulations", "analysis") for p in (ROOT / folder).rglob("*.py"))


def test_no_module_constant_is_called_plain_kinds():
    named = [str(path.relative_to(ROOT)) for path in SOURCES
             for node in ast.parse(path.read_text()).body if isinstance(node, ast.Assign)
             for target in node.targets if isinstance(target, ast.Name) and target.id in ("KINDS", "DEFAULT_KINDS")]
    assert named == []


def test_no_module_shares_a_name_with_the_packaging_or_means_another_identity():
    stems = {path.relative_to(ROOT).as_posix() for path in SOURCES}
    assert not [s for s in stems if s.endswith("/setup.py")]
    assert [s for s in stems if Path(s).stem == "identity"] == ["puzzlebench/model/identity.py"]


def test_the_kakuro_run_has_its_own_name():
    from puzzlebench.kinds.kakuro.puzzle import KakuroRun
    assert puzzlebench.KakuroRun is KakuroRun and not hasattr(puzzlebench, "Run")


@pytest.mark.parametrize("kind", ["sudoku", "killer", "kakuro", "takuzu", "kenken"])
def test_a_sets_procedure_comes_from_fields_not_docstrings(kind, monkeypatch):
    import importlib

    from puzzlebench.generators import procedure, uniqueness
    from puzzlebench.kinds import get_kind
    generator = importlib.import_module(f"puzzlebench.kinds.{kind}.generator")
    spec_type = get_kind(kind).spec_type()
    spec = spec_type.__new__(spec_type)  # procedure() asks only the spec's type
    before = procedure(spec)
    assert generator.PROCEDURE.strip() in before and uniqueness.CERTIFICATE.strip() in before
    monkeypatch.setattr(generator, "__doc__", "edited")
    monkeypatch.setattr(uniqueness, "__doc__", "edited")
    assert procedure(spec) == before


def test_a_formulations_constraints_come_from_a_field_not_its_docstring(monkeypatch):
    from puzzlebench.registry import formulations
    registered = formulations()
    assert registered and all(info.constraints for info in registered), \
        [f"{info.puzzle}/{info.name}" for info in registered if not info.constraints]
    for info in registered:
        before = info.constraints
        monkeypatch.setattr(info.build, "__doc__", "edited")
        assert info.constraints == before
