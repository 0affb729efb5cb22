"""The docs and the install: README.md is short and points into docs/; every link, anchor and file path the
docs name exists; the runtime install carries no test tools, and the README's test command installs the
extras .ci/run installs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_TOOLS = {"pytest", "hypothesis", "playwright", "mutmut"}


def requirement_name(requirement: str) -> str:
    return re.match(r"[A-Za-z0-9_.\-]+", requirement).group(0).lower().replace("_", "-")


def test_the_runtime_install_carries_no_test_tools():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {requirement_name(r) for r in project["dependencies"]}
    assert runtime, "pyproject.toml lists no runtime dependencies"
    assert not runtime & TEST_TOOLS, f"runtime dependencies include test tools: {sorted(runtime & TEST_TOOLS)}"
    dev = {requirement_name(r) for r in project["optional-dependencies"]["dev"]}
    assert TEST_TOOLS <= dev, f"the dev extra lacks {sorted(TEST_TOOLS - dev)}"
    assert "mutmut==3.8.1" in project["optional-dependencies"]["dev"], "mutmut is pinned (check.py drives its internals)"


def extras(text: str) -> set[str]:
    """The extras of the install the tests run in: the one ``pip install -e '.[...]'`` that names ``dev``."""
    found = {frozenset(group.split(",")) for group in re.findall(r"pip install (?:--quiet )?-e '\.\[([^\]]*)\]'", text)}
    (tests,) = [group for group in found if "dev" in group]
    return set(tests)


def test_the_readme_test_command_installs_what_ci_installs():
    readme = extras((ROOT / "README.md").read_text())
    ci = extras((ROOT / ".ci/run").read_text())
    assert readme == ci, (readme, ci)
    assert {"dev", "pyomo"} <= readme, "the tests need the test tools (dev) and Pyomo"
