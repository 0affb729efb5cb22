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


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PATH_STARTS = ("puzzlebench/", "formulations/", "analysis/", "instances/", "tests/", "benchmarks/", "studies/",
               "docs/", "profiles/", ".ci/")


def prose(text: str) -> str:
    """The text outside fenced code blocks."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", prose(path.read_text()), flags=re.M)}


def test_the_readme_is_an_overview():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines: move the detail to docs/"
    for page in ROOT.glob("docs/*.md"):
        if page.name != "README.md":
            assert f"(docs/{page.name})" in "\n".join(lines), f"README.md does not link docs/{page.name}"


def links() -> list[tuple[Path, str]]:
    return [(path, target) for path in DOCS
            for target in re.findall(r"\]\(([^)\s]+)\)", prose(path.read_text()))
            if not re.match(r"[a-z]+:", target)]


def test_links_and_anchors_point_to_what_exists():
    found = links()
    assert len(found) > 30
    for path, target in found:
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{path.relative_to(ROOT)}: link {target} names no file"
        if anchor:
            assert linked.suffix == ".md" and anchor in anchors(linked), \
                f"{path.relative_to(ROOT)}: link {target}: no heading with that anchor"


def named_paths() -> list[tuple[Path, str]]:
    named = []
    for path in DOCS:
        for quoted in re.findall(r"`([^`\s]+)`", path.read_text()):
            quoted = quoted.rstrip(".,:;)").split("::")[0]
            example = re.search(r"(^|/)my-", quoted)    # made by the docs' own examples (my-killers, my-models)
            if quoted.startswith(PATH_STARTS) and not example and not re.search(r"[<>*?{}\[\]]|\.\.\.|…|NAME", quoted):
                named.append((path, quoted))
    return named


def test_every_repository_path_the_docs_name_exists():
    named = named_paths()
    assert len(named) > 50
    missing = sorted({f"{path.relative_to(ROOT)}: {quoted}" for path, quoted in named
                      if not (ROOT / quoted).exists()})
    assert not missing, "paths the docs name that are not in the repository:\n" + "\n".join(missing)


def test_the_summary_s_files_section_names_paths_of_the_results_folder(tmp_path):
    """summary.md's "Files" section names each table file by its path in the results folder."""
    from puzzlebench.analysis.report import files_section
    tables = tmp_path / "results" / "tables"
    section = files_section({"configurations": [tables / "configurations.csv", tables / "configurations.md",
                                                tables / "supplement" / "configurations.tex"]}, {})
    assert "`tables/configurations.csv`" in section and "`tables/supplement/configurations.tex`" in section
    assert "`supplement/configurations.tex`" not in section.replace("`tables/supplement/", "")


def test_documented_overrides_run_as_written_after_the_set_up_command():
    """After the set-up command `results/` holds the default study: a documented ``snakemake --config``
    example that changes the grid (and names no study file) gives its own ``results=`` folder, or the
    workflow refuses it (puzzlebench.workflow.study.check_results_folder)."""
    import shlex

    from test_documented_overrides import OVERRIDES

    from puzzlebench.workflow.study import GRID_KEYS
    checked = 0
    for where, command, refusal in OVERRIDES:
        words = shlex.split(command, comments=True)
        if refusal is not None or "--configfile" in words:
            continue
        values = dict(word.partition("=")[::2] for word in words[words.index("--config") + 1:]
                      if "=" in word and not word.startswith("-"))
        if set(values) & set(GRID_KEYS):
            checked += 1
            assert values.get("results", "results").rstrip("/") not in ("results", ""), \
                f"{where}: {command} would be refused after the default run: give it results=results/NAME"
    assert checked >= 3
