"""The kinds sit below the stages and the dispatchers: a kind's modules import the toolkit
(``puzzlebench.toolkit``), never the code that asks the kinds (io's formats and layouts, the checker,
drawing, symmetry and generation dispatchers, the registries) or a stage of the pipeline.  Imports for type checkers only
(``if TYPE_CHECKING:``) are not imports at run time and are not counted."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KINDS = ROOT / "puzzlebench" / "kinds"
ABOVE_THE_KINDS = ("puzzlebench.io", "puzzlebench.checker", "puzzlebench.draw", "puzzlebench.transforms", "puzzlebench.generators",
                   "puzzlebench.run", "puzzlebench.solvers", "puzzlebench.store", "puzzlebench.workflow",
                   "puzzlebench.commands", "puzzlebench.cli", "puzzlebench.registry", "puzzlebench.analysis",
                   "puzzlebench.formulations")


def run_time_imports(source: str, package: str) -> list[tuple[int, str]]:
    """(line, absolute module) of each import of ``source`` (a module of ``package``) outside
    ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(source)
    skipped = {id(node) for block in ast.walk(tree)
               if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
               for statement in block.body for node in ast.walk(statement)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found += [(node.lineno, module if node.module else f"{module}.{alias.name}") for alias in node.names]
    return found


def from_above(source: str, package: str) -> list[str]:
    return [f"{line}: {module}" for line, module in run_time_imports(source, package)
            if any(module == name or module.startswith(name + ".") for name in ABOVE_THE_KINDS)]


def package_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1])


@pytest.mark.parametrize("path", sorted(KINDS.rglob("*.py")), ids=lambda p: str(p.relative_to(KINDS)))
def test_a_kind_imports_nothing_that_asks_the_kinds(path):
    assert from_above(path.read_text(), package_of(path)) == []


def test_the_check_sees_an_import_from_above_but_not_one_for_type_checkers():
    source = ("from typing import TYPE_CHECKING\nfrom ...toolkit.generation import Generated\n"
              "from ... import draw\nif TYPE_CHECKING:\n    from ...generators.uniqueness import UniquenessOracle\n"
              "def f():\n    from ...run.runner import run\n")
    assert from_above(source, "puzzlebench.kinds.sudoku") == ["3: puzzlebench.draw", "7: puzzlebench.run.runner"]


@pytest.mark.parametrize("path", sorted((ROOT / "puzzlebench" / "toolkit").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT / "puzzlebench" / "toolkit")))
def test_the_toolkit_imports_no_kind(path):
    below = [f"{line}: {module}" for line, module in run_time_imports(path.read_text(), package_of(path))
             if module.startswith("puzzlebench.") and not module.startswith(("puzzlebench.toolkit", "puzzlebench.errors"))]
    assert below == []


def test_the_kinds_take_part_in_the_layouts_io_reads():
    """The layout names a kind may declare a part of (the toolkit's, below the kinds) are io's modules."""
    import puzzlebench.io as io
    from puzzlebench.io.format_registry import OWN_FORMATS, PLACES
    from puzzlebench.toolkit.syntax import LAYOUTS

    assert io.LAYOUTS == LAYOUTS
    assert set(OWN_FORMATS) == set(PLACES) == {"native", *LAYOUTS}
    assert all(getattr(io, name.replace("-", "_")).__name__ == f"puzzlebench.io.{name.replace('-', '_')}"
               for name in OWN_FORMATS)
