"""The numbers, commands and file lists, checked against the tool so they cannot go stale: the
plans `puzzlebench config check` prints, the verbs and options of the command-line block, the files
`gather` writes and the tables and files the analysis writes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from puzzlebench.analysis.figures import FIGURE_KINDS
from puzzlebench.analysis.report import TABLE_TITLES
from test_analysis import analyse, synthetic_runs
from test_store import bad_runs, write_chunk

from puzzlebench.cli import build_parser, main
from puzzlebench.store.results import MANIFEST, gather

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
DOCS = {path.name: path.read_text() for path in sorted((ROOT / "docs").glob("*.md"))}
WORKFLOW, CLI, FINDINGS = DOCS["workflow.md"], DOCS["cli.md"], DOCS["findings.md"]


def section(title: str, text: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def config_check_examples() -> list[tuple[str, str]]:
    """(study file, the output line the README quotes) of every `puzzlebench config check FILE` followed by
    a `# ...: ok: ...` line in a code block."""
    return [found for text in (README, *DOCS.values())
            for found in re.findall(r"^puzzlebench config check (\S+)[^\n]*\n# (\S+: ok: [^\n]*)$", text,
                                    flags=re.MULTILINE)]


def test_the_readme_quotes_the_default_plan():
    assert ("config.yaml", "config.yaml: ok: " + dict(config_check_examples())["config.yaml"].split(": ok: ")[1]) \
        in config_check_examples()


@pytest.mark.parametrize("study, quoted", config_check_examples())
def test_quoted_plans_are_what_config_check_prints(study, quoted, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["config", "check", study]) == 0
    assert [line for line in capsys.readouterr().out.splitlines() if ": ok: " in line] == [quoted]


def test_the_performance_section_quotes_no_current_plan_of_its_own():
    """Its end-to-end rows are measurements of the commits they name; the current plan is the quoted one."""
    performance = section("Performance", DOCS["performance.md"])
    assert "(current `config.yaml`)" not in performance
    for jobs, runs in re.findall(r"(\d+) jobs, ([\d,]+) runs", performance):
        row = next(line for line in performance.splitlines() if f"{jobs} jobs, {runs} runs" in line)
        assert re.search(r"commit [0-9a-f]{7}|before", row), row


def verb_lines() -> list[tuple[str, str]]:
    """(verb, its usage text) of the README's command-line block, continuation lines joined."""
    block = re.search(r"## Command line\n\n```\n(.*?)```", CLI, flags=re.S).group(1)
    entries = []
    for line in block.splitlines():
        usage = line.split("  #")[0]
        if usage.startswith("puzzlebench "):
            entries.append([usage.split()[1], usage])
        elif entries:
            entries[-1][1] += " " + usage.strip()
    return [tuple(entry) for entry in entries]


def test_every_verb_and_option_of_the_command_line_block_exists():
    verbs = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction").choices
    listed = {verb for verb, _ in verb_lines()}
    assert listed == set(verbs), "README lists verbs the tool lacks, or misses some"
    for verb, usage in verb_lines():
        parser = verbs[verb]
        if verb == "config":
            parser = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices["check"]
        for option in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", usage):
            assert option in parser._option_string_actions, f"{verb} {option}"


def test_the_files_gather_writes_are_the_ones_the_readme_lists(tmp_path):
    sentence = re.search(r"Otherwise it writes (.*?)\s+into a new folder", WORKFLOW, flags=re.S).group(1)
    listed = set(re.findall(r"`([^`]+)`", sentence))
    chunk = write_chunk(tmp_path / "chunk0of1.jsonl", bad_runs())
    gather([chunk], tmp_path / "store")
    shown = lambda folder: {p.name for p in folder.iterdir() if not p.name.startswith(".")}  # noqa: E731
    assert shown(tmp_path / "store") == listed                              # no store.json without --manifest
    assert (tmp_path / "store" / ".store" / "current").is_symlink()         # the generation the links go through
    gather([chunk], tmp_path / "marked", tmp_path / "marked" / MANIFEST)
    assert shown(tmp_path / "marked") == listed | {MANIFEST}
    assert f"`--manifest results/{MANIFEST}`" in WORKFLOW


def test_the_analysis_outputs_table_names_what_the_analysis_writes(tmp_path):
    table = re.search(r"\| output \| what \|\n\|---\|---\|\n(.*?)\n\n", WORKFLOW, flags=re.S).group(1)
    named = {name.removesuffix(".csv") for cell in (row.split("|")[1] for row in table.splitlines())
             for name in re.findall(r"`([^`]+)`", cell)}
    analyse(tmp_path, synthetic_runs(), ladders={"sudoku/ladder", "takuzu/ladder"})
    written = {p.name.split(".")[0] for p in (tmp_path / "tables").rglob("*.*") if p.suffix in (".csv", ".md")}
    assert written == set(TABLE_TITLES)                      # this store has rows in every table
    assert written | set(FIGURE_KINDS) | {"paper/", "index.html", "findings.json"} == named
    assert {p.name for p in (tmp_path / "paper").glob("*.pdf")} == {"paper.pdf", "supplement.pdf", "profiles.pdf"}
    assert (tmp_path / "index.html").is_file()


@pytest.mark.parametrize("study, stated", [
    ("default", r"(\d+) of A's (\d+) claims of a difference hold in B\s+\(\d+%\), (\d+) of B's (\d+) hold in A"),
    ("kenken", r"exits 0: (\d+) of (\d+) claims of a difference hold in the other run\s+both ways"),
])
def test_the_readme_s_replication_is_what_compare_prints_of_the_stored_findings(capsys, study, stated):
    """The replication each study's findings state, against `puzzlebench compare` of the two stored runs."""
    runs = [str(ROOT / "docs" / "findings" / f"{study}-run-{r}.json") for r in "ab"]
    assert main(["compare", *runs]) == 0
    printed = capsys.readouterr().out
    a_in_b = re.search(r"A's claims of a difference holding in B: (\d+) of (\d+)", printed).groups()
    b_in_a = re.search(r"B's claims of a difference holding in A: (\d+) of (\d+)", printed).groups()
    numbers = re.search(stated, " ".join(FINDINGS.split())).groups()
    if study == "default":
        assert (numbers[0], numbers[1]) == a_in_b and (numbers[2], numbers[3]) == b_in_a
    else:
        assert (numbers[0], numbers[1]) == a_in_b == b_in_a
    assert "flipped: 0" in printed


def unbracketed_options(usage: str) -> set[str]:
    """The options a usage line shows outside any ``[...]``: shown as required."""
    depth, outside = 0, []
    for char in usage:
        depth += char == "["
        outside.append(char if depth == 0 else " ")
        depth -= char == "]"
    return set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", "".join(outside)))


def test_an_option_with_a_default_is_shown_optional():
    """docs/cli.md shows an option without brackets only when it has no default (the user must give it)."""
    verbs = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction").choices
    batch = next(usage for verb, usage in verb_lines() if verb == "batch" and "--set" in usage)
    assert {"--formulation", "--solver"} <= unbracketed_options(batch)      # batch --set ... has no defaults
    for verb, usage in verb_lines():
        parser = verbs[verb]
        if verb == "config":
            continue
        for option in unbracketed_options(usage):
            action = parser._option_string_actions[option]
            assert action.default in (None, []) or action.required, f"{verb} {option} has a default: show it [optional]"
