"""The mutation gate (tests/mutation/score.py and check.py): scores per module from mutmut's
results, equivalent mutants excluded only while they still make the change they are listed for."""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"mutation_{name}", ROOT / "tests" / "mutation" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module          # dataclasses look their module up while it runs
    spec.loader.exec_module(module)
    return module


score = load("score")
check = load("check")

M = "pkg.mod.x_f__mutmut_"


def codes(**by_number) -> dict[str, int | None]:
    return {f"{M}{number.lstrip('m')}": code for number, code in by_number.items()}


def test_score_counts_killed_and_timeouts_over_the_mutants_not_listed_as_equivalent():
    results, stale = score.scores({"pkg/mod.py": codes(m1=1, m2=3, m3=36, m4=0, m5=33, m6=None, m7=0, m8=-24)},
                                  {f"{M}7": score.Equivalent(f"{M}7", "x = 1", "why")})
    (mod,) = results
    assert stale == [] and mod.equivalent == 1 and mod.mutants == 7 and mod.killed == 4
    assert mod.score == pytest.approx(100 * 4 / 7)
    assert mod.not_killed == {"survived": [f"{M}4"], "no tests": [f"{M}5"], "not checked": [f"{M}6"]}
    assert mod.counts == {"killed": 2, "timeout": 2, "survived": 1, "no tests": 1, "not checked": 1}


def test_an_unknown_exit_code_is_suspicious_and_not_killed():
    (mod,), _ = score.scores({"pkg/mod.py": codes(m1=1, m2=99)}, {})
    assert mod.not_killed == {"suspicious": [f"{M}2"]} and mod.score == 50.0


@pytest.mark.parametrize("exit_code, diff, problem", [
    (1, "+    x = 1\n", "listed as equivalent but killed"),
    (0, "--- a\n+++ b\n-    x = 0\n+    x = 2\n", "listed as equivalent for `x = 1`, now changes `x = 2`"),
    (0, "", "now changes `nothing`"),
])
def test_a_stale_equivalent_entry_counts_against_the_module_and_is_reported(exit_code, diff, problem):
    listed = {f"{M}1": score.Equivalent(f"{M}1", "x = 1", "why")}
    (mod,), stale = score.scores({"pkg/mod.py": codes(m1=exit_code, m2=1)}, listed, lambda mutant: diff)
    assert len(stale) == 1 and stale[0].startswith(f"{M}1: ") and problem in stale[0]
    assert mod.equivalent == 0 and mod.mutants == 2


def test_an_equivalent_entry_that_still_makes_its_change_is_excluded():
    listed = {f"{M}1": score.Equivalent(f"{M}1", "x = 1", "why")}
    (mod,), stale = score.scores({"pkg/mod.py": codes(m1=0, m2=1)}, listed, lambda m: "-    x = 0\n+    x = 1  \n")
    assert stale == [] and mod.equivalent == 1 and mod.score == 100.0


def test_an_entry_for_a_mutant_that_does_not_exist_is_stale():
    listed = {"pkg.mod.x_g__mutmut_9": score.Equivalent("pkg.mod.x_g__mutmut_9", "y", "why")}
    _, stale = score.scores({"pkg/mod.py": codes(m1=1)}, listed)
    assert stale == ["pkg.mod.x_g__mutmut_9: listed as equivalent but no such mutant"]
    assert score.scores({"pkg/other.py": {"pkg.other.x_h__mutmut_1": 1}}, listed)[1] == []   # pkg.mod not checked


def test_report_marks_each_module_below_the_threshold():
    results, _ = score.scores({"a.py": codes(m1=1, m2=1, m3=1, m4=1, m5=1, m6=1, m7=1, m8=1, m9=1, m10=0),
                               "b.py": codes(m1=1, m2=0), "c.py": {}}, {})
    table, ok = score.report(results, 90)
    assert not ok
    assert table.splitlines()[2:] == ["| `a.py` | 10 | 9 | 1 | 0 | 0 | 90.0% |",
                                      "| `b.py` | 2 | 1 | 1 | 0 | 0 | 50.0% (below 90%) |",
                                      "| `c.py` | 0 | 0 | 0 | 0 | 0 | 100.0% (below 90%) |"]
    assert score.report(results[:1], 90)[1] and not score.report(results[:1], 90.5)[1]


def write_project(root: Path, equivalent: str = "") -> Path:
    (root / "pyproject.toml").write_text(textwrap.dedent("""\
        [tool.mutmut]
        only_mutate = ["pkg/mod.py", "pkg/other.py"]
        [tool.puzzlebench.mutation]
        threshold = 80
        equivalent = "equivalent.toml"
        """))
    (root / "equivalent.toml").write_text(equivalent)
    (root / "mutants" / "pkg").mkdir(parents=True)
    return root


def write_meta(root: Path, module: str, exit_codes: dict) -> None:
    (root / "mutants" / f"{module}.meta").write_text(json.dumps({"exit_code_by_key": exit_codes}))


def test_evaluate_reads_the_project_settings_and_mutmut_results(tmp_path):
    root = write_project(tmp_path, textwrap.dedent(f"""\
        [[equivalent]]
        mutant = "{M}3"
        change = "x = 1"
        reason = "the same value either way"
        """))
    write_meta(root, "pkg/mod.py", codes(m1=1, m2=1, m3=0, m4=1, m5=1, m6=0))
    write_meta(root, "pkg/other.py", {"pkg.other.x_g__mutmut_1": 1})
    text, ok = score.evaluate(root, diff_of=lambda mutant: "+x = 1")
    assert ok and "| `pkg/mod.py` | 6 | 4 | 1 | 0 | 1 | 80.0% |" in text
    assert f"pkg/mod.py: survived (1): {M}6" in text
    assert score.evaluate(root, ["pkg/other.py"])[1]
    write_meta(root, "pkg/mod.py", codes(m1=1, m2=33, m3=0, m4=1, m5=1, m6=0))
    text, ok = score.evaluate(root, ["pkg/mod.py"], diff_of=lambda mutant: "+x = 1")
    assert not ok and "pkg/mod.py: no tests (1): x_f: 1" in text and "pkg/other.py" not in text
    with pytest.raises(ValueError, match="not in \\[tool.mutmut\\] only_mutate: pkg/nope.py"):
        score.evaluate(root, ["pkg/nope.py"])


def test_a_module_without_results_fails(tmp_path):
    root = write_project(tmp_path)
    write_meta(root, "pkg/mod.py", codes(m1=1))
    text, ok = score.evaluate(root)
    assert not ok and "| `pkg/other.py` | 0 |" in text


def test_main_exit_codes(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)             # main works from the project root, as mutmut does
    root = write_project(tmp_path)
    write_meta(root, "pkg/mod.py", codes(m1=1))
    write_meta(root, "pkg/other.py", {"pkg.other.x_g__mutmut_1": 1})
    assert score.main([], root) == 0
    write_meta(root, "pkg/other.py", {"pkg.other.x_g__mutmut_1": 0})
    assert score.main([], root) == 1 and score.main(["pkg/mod.py"], root) == 0
    assert score.main(["pkg/nope.py"], root) == 2
    assert "score.py: not in [tool.mutmut] only_mutate" in capsys.readouterr().err


@pytest.mark.parametrize("text, problem", [
    ('[[equivalent]]\nmutant = "a"\nchange = "b"\n', "equivalent entry 1 needs mutant, change and reason"),
    ('[[equivalent]]\nmutant = "a"\nchange = "b"\nreason = " "\n', "equivalent entry 1 needs"),
    ('[[equivalent]]\nmutant = "a"\nchange = "b"\nreason = "c"\n[[equivalent]]\nmutant = "a"\nchange = "b"\n'
     'reason = "c"\n', "a is listed twice"),
])
def test_a_malformed_equivalent_list_is_refused(tmp_path, text, problem):
    (tmp_path / "eq.toml").write_text(text)
    with pytest.raises(ValueError, match=problem):
        score.equivalents(tmp_path / "eq.toml")
    assert score.equivalents(tmp_path / "missing.toml") == {}


def test_the_projects_mutation_set_and_equivalent_list_are_consistent():
    settings = score.settings(ROOT)
    assert settings.threshold == 90 and len(settings.modules) >= 6
    assert all((ROOT / module).is_file() for module in settings.modules)
    packages = check.package_of_folder(ROOT)
    dotted = {check.dotted(module, packages) for module in settings.modules}
    listed = score.equivalents(settings.equivalent)
    assert listed and all(name.partition("__mutmut_")[0].rpartition(".")[0] in dotted for name in listed)


def test_mutants_are_named_after_the_module_their_file_is_imported_as(monkeypatch):
    packages = check.package_of_folder(ROOT)
    assert packages == {"formulations": "puzzlebench.formulations", "analysis": "puzzlebench.analysis"}
    assert check.dotted("analysis/stats.py", packages) == "puzzlebench.analysis.stats"
    assert check.dotted("puzzlebench/checker.py", packages) == "puzzlebench.checker"
    import mutmut.__main__ as cli
    from mutmut.mutation import file_mutation
    from mutmut.utils import format_utils
    for module in (format_utils, file_mutation, cli):
        monkeypatch.setattr(module, "get_mutant_name", module.get_mutant_name)
    check.rename_mutants(packages)
    for module in (format_utils, file_mutation, cli):
        assert module.get_mutant_name(Path("analysis/stats.py"), "x_holm__mutmut_1") == \
            "puzzlebench.analysis.stats.x_holm__mutmut_1"
        assert module.get_mutant_name(Path("puzzlebench/store/results.py"), "x_gather__mutmut_2") == \
            "puzzlebench.store.results.x_gather__mutmut_2"
