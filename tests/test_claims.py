"""The claim engine: verdicts, identity, preprocessing, repeats, split halves, findings.json and compare."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pyarrow.parquet as pq
import pytest
from puzzlebench.analysis import run_analysis
from puzzlebench.analysis.claims import FIELDS, VERDICTS, findings
from puzzlebench.analysis.compare import compare, read_findings
from puzzlebench.analysis.outcomes import instance_times, prepare_runs
from puzzlebench.analysis.paper import VERDICT_WORDS
from test_analysis import run_row

from puzzlebench.cli import main
from puzzlebench.store.results import frame_from_rows, table_from_rows


def runs_of(factors: dict, instances: int = 15, repeats: int = 2, seeds=(0,), noise: float = 0.05, seed: int = 0,
            puzzle: str = "sudoku", instance_set: str = "sudoku/s", solver: str = "highs", hashes=None,
            preprocessed=(), **fields) -> list[dict]:
    """Runs of formulations whose time is ``factor`` x the instance's base time x lognormal noise."""
    rng = np.random.default_rng(seed)
    base = np.exp(rng.uniform(np.log(0.05), np.log(2.0), instances))
    rows = []
    for formulation, factor in factors.items():
        for i in range(instances):
            for s in seeds:
                for r in range(repeats):
                    t = factor * base[i] * rng.lognormal(0, noise)
                    model = (hashes or {}).get(formulation, formulation)
                    rows.append(run_row(instance=f"p{i}", puzzle=puzzle, instance_set=instance_set,
                                        formulation=formulation, solver=solver, seed=s, repeat=r,
                                        solver_time=t * 0.9, build_time=t * 0.1, wall_time=t,
                                        model_hash=model, model_fingerprint=model,
                                        preprocessing_solved=True if formulation in preprocessed else None,
                                        **fields))
    return rows


def claims_of(rows, **kwargs):
    runs = prepare_runs(frame_from_rows(rows))
    return findings(runs, instance_times(runs), "time", 0.01, **kwargs)


def by_pair(items, a, b):
    return next(c for c in items.claims if c.kind == "pairwise" and (c.a, c.b) == (a, b))


def test_a_store_with_gaps_is_analysed_without_repairs():
    """The store's frame keeps its nullable types (flags ``boolean``, counts ``Int64``, a gap ``pd.NA``);
    the analysis reads them as they are: flags with gaps are False there, counts and machine facts with
    gaps leave the gap out."""
    from puzzlebench.analysis.claims import findings_document
    from puzzlebench.analysis.run_setup import run_setup
    rows = runs_of({"binary": 3.0, "reduced": 1.0}, instances=8, repeats=1)
    for i, row in enumerate(rows):
        row.update(root_solved=[True, False, None][i % 3], preprocessing_solved=[None, False][i % 2],
                   nodes=None if i % 4 else 12, cpu_count=None if i % 5 else 8, reference_match=None)
    frame = frame_from_rows(rows)
    assert [str(frame[c].dtype) for c in ("root_solved", "preprocessing_solved", "nodes", "cpu_count", "seed")] == [
        "boolean", "boolean", "Int64", "Int64", "Int64"]
    runs = prepare_runs(frame)
    assert runs["root_solved"].tolist() == [[True, False, False][i % 3] for i in range(len(rows))]
    assert runs["preprocessing_solved"].dtype == bool and not runs["preprocessing_solved"].any()
    items = findings(runs, instance_times(runs), "time", 0.01)
    assert by_pair(items, "binary", "reduced").verdict == "slower"
    document = json.loads(json.dumps(findings_document(items, runs, 0.02)))
    assert document["setup"]["machine"]["cpu_count"] == [8]
    assert (document["setup"]["grid"]["seeds"], document["setup"]["grid"]["threads"]) == ([0], [1])
    setup = run_setup(runs, None)
    assert (setup.cpu_counts, setup.seeds, setup.threads) == (["8"], ["0"], ["1"])


def test_a_large_difference_is_faster_and_an_equal_pair_is_equivalent():
    items = claims_of(runs_of({"binary": 3.0, "reduced": 1.0, "twin": 3.0}))
    fast = by_pair(items, "binary", "reduced")
    assert fast.verdict == "slower" and fast.ratio == pytest.approx(1 / 3, rel=0.1)  # ratio = t_b / t_a
    assert fast.ci[1] < 1 / fast.noise and fast.p_adjusted < 0.05 and fast.n == 15
    assert by_pair(items, "reduced", "twin").verdict == "faster"
    same = by_pair(items, "binary", "twin")
    assert same.verdict == "equivalent" and 1 / same.noise <= same.ci[0] <= same.ci[1] <= same.noise
    assert same.instances_needed is None and "no difference beyond the noise" in same.text


def test_too_few_instances_are_inconclusive_with_the_instances_needed_never_no_difference():
    """Two instances cannot be tested: the claim says so and how many would decide it."""
    items = claims_of(runs_of({"binary": 3.0, "reduced": 1.0, "twin": 3.06}, instances=2, noise=0.2))
    for claim in items.of_kind("pairwise"):
        assert claim.verdict == "inconclusive" and claim.p_value is None and claim.n == 2
        assert claim.instances_needed is not None and claim.instances_needed >= 6
        assert "no difference" not in claim.text
        assert f"not enough evidence (n = 2; about {claim.instances_needed} puzzles needed)" in claim.text
    # a difference must also pass Holm in its family of 3 comparisons (7 instances); the equal pair only needs
    # its interval inside the band, which the test's minimum of 6 gives at this spread
    assert (by_pair(items, "binary", "reduced").instances_needed, by_pair(items, "binary", "twin").instances_needed) == (
        7, 6)

def test_a_difference_within_the_noise_is_no_difference_even_when_significant():
    """1.15x on every instance is Holm-significant, but the runs scatter by a factor 1.3 (sd 0.27)."""
    noisy = claims_of(runs_of({"a": 1.15, "b": 1.0}, instances=30, repeats=6, noise=0.27, seed=3))
    claim = by_pair(noisy, "a", "b")
    assert claim.p_adjusted < 0.05 and claim.ci[1] < 1.0
    assert claim.noise > 1 / claim.ci[1]
    assert claim.verdict == ("equivalent" if claim.ci[0] >= 1 / claim.noise else "inconclusive")
    quiet = by_pair(claims_of(runs_of({"a": 1.15, "b": 1.0}, instances=30, repeats=6, noise=0.01, seed=3)), "a", "b")
    assert quiet.verdict == "slower"


def test_identical_models_are_one_group_and_never_compared():
    rows = runs_of({"binary": 1.0, "copy": 1.6, "other": 1.0}, hashes={"copy": "binary"})
    items = claims_of(rows)
    claim = by_pair(items, "binary", "copy")
    assert claim.verdict == "identical" and claim.ratio is None and claim.p_adjusted is None
    assert items.identity[0]["formulations"] == ["binary", "copy"] and "identical models" in items.identity[0]["text"]
    # the same data without the identity grouping: the 1.6x is found, so the grouping is what hides it
    assert by_pair(claims_of(rows, group_identical=False), "binary", "copy").verdict == "faster"


def test_a_best_configuration_is_chosen_among_models_and_named_by_its_groups_first_member():
    """reduced and reduced-twin give one model; the twin's runs happen to be 10% quicker. The best is the
    group's first member with its own times, not the luckier copy (which no claim would ever repeat)."""
    rows = runs_of({"binary": 3.0, "reduced": 1.0, "reduced-twin": 0.9}, hashes={"reduced-twin": "reduced"})
    items = claims_of(rows)
    best = next(c for c in items.claims if c.kind == "best_vs_seed")
    assert (best.a, best.b, best.verdict) == ("reduced", "binary", "faster")
    assert best.ratio == pytest.approx(3.0, rel=0.1)
    assert by_pair(items, "reduced", "reduced-twin").verdict == "identical"
    cp = runs_of({"binary": 2.0, "reduced": 0.7, "reduced-twin": 0.6}, solver="cpsat", solver_kind="cp", seed=4,
                 hashes={"reduced-twin": "reduced"})
    mip_vs_cp = next(c for c in claims_of(rows + cp).claims if c.kind == "mip_vs_cp")
    assert (mip_vs_cp.a, mip_vs_cp.b) == ("reduced", "reduced")


def test_preprocessing_solved_runs_are_no_timing_claim():
    items = claims_of(runs_of({"binary": 2.0, "propagated": 0.1, "reduced": 1.0}, preprocessed={"propagated"}))
    assert by_pair(items, "binary", "propagated").verdict == "preprocessing"
    assert items.preprocessing == [{"puzzle": "sudoku", "instance_set": "sudoku/s", "formulation": "propagated",
                                    "solved": 15, "instances": 15, "text": "sudoku/s: propagation (propagated) "
                                    "solved 15 of 15 puzzles before any solver ran; those runs are in no timing claim."}]
    best = next(c for c in items.claims if c.kind == "best_vs_seed")
    assert best.a == "reduced" and best.verdict == "faster"      # not the formulation no solver ran


def test_repeats_are_aggregated_per_instance_before_the_test():
    rows = runs_of({"a": 2.0, "b": 1.0}, instances=8, repeats=3)
    per_instance = instance_times(prepare_runs(frame_from_rows(rows)))
    assert len(per_instance) == 2 * 8 and (per_instance["runs"] == 3).all()
    claim = by_pair(claims_of(rows), "a", "b")
    assert claim.n == 8                                           # instances, not runs


def test_split_halves_replicate_a_real_difference_and_the_share_is_reported():
    items = claims_of(runs_of({"binary": 4.0, "reduced": 1.0}, repeats=2))
    assert items.split_half["basis"] == "the parity of the repeat"
    assert items.split_half["share"] == 1.0 and by_pair(items, "binary", "reduced").holds_in_halves is True
    single = claims_of(runs_of({"binary": 4.0, "reduced": 1.0}, repeats=1))
    assert single.split_half["basis"] is None and by_pair(single, "binary", "reduced").holds_in_halves is None


def test_holm_families_are_pairwise_per_set_and_solver_and_else_per_kind_and_puzzle():
    rows = (runs_of({"binary": 3.0, "reduced": 1.0, "other": 2.0}) + runs_of(
        {"binary": 3.0, "reduced": 1.0}, puzzle="takuzu", instance_set="takuzu/t")
        + runs_of({"binary": 3.0, "reduced": 1.0, "other": 2.0}, instance_set="sudoku/u", seed=1))
    items = claims_of(rows)
    sizes = {c.family: c.family_size for c in items.claims if c.p_value is not None}
    assert sizes == {"pairwise/sudoku/sudoku/s/highs": 3, "pairwise/sudoku/sudoku/u/highs": 3,
                     "pairwise/takuzu/takuzu/t/highs": 1, "best_vs_seed/sudoku": 3, "best_vs_seed/takuzu": 1}


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    out = tmp_path_factory.mktemp("claims")
    rows = (runs_of({"binary": 3.0, "reduced": 1.0, "copy": 3.0, "twin": 1.02}, hashes={"copy": "binary"})
            + runs_of({"binary": 1.0, "reduced": 0.25}, solver="cpsat", solver_kind="cp", seed=5))
    pq.write_table(table_from_rows(rows), out / "runs.parquet")
    run_analysis(out / "runs.parquet", out)
    return out


def test_findings_json_holds_every_claim_with_the_issue_fields(analysed):
    data = json.loads((analysed / "findings.json").read_text())
    assert data["claims"] and {c["kind"] for c in data["claims"]} == {"pairwise", "best_vs_seed", "mip_vs_cp"}
    for claim in data["claims"]:
        assert set(FIELDS) <= set(claim) and claim["verdict"] in VERDICTS
        assert claim["ci"] is None or (len(claim["ci"]) == 2 and claim["ci"][0] <= claim["ratio"] <= claim["ci"][1])
    assert len({c["id"] for c in data["claims"]}) == len(data["claims"])
    assert data["setup"]["grid"]["repeats"] == 2 and data["split_half"]["share"] is not None
    assert data["identity_groups"][0]["formulations"] == ["binary", "copy"]


def _claim_lines(text: str, claims: list[dict], key: str) -> None:
    """Every line with the word "faster" is the text of a claim whose verdict is faster or slower."""
    directional = [c[key] for c in claims if c["verdict"] in ("faster", "slower")]
    lines = [line for line in text.splitlines() if "faster" in line]
    assert lines, "the run has claims of a difference"
    for line in lines:
        assert any(t in line for t in directional), line


def test_the_word_faster_appears_only_for_a_faster_or_slower_verdict(analysed):
    from puzzlebench.analysis.latex import escape, typeset
    claims = json.loads((analysed / "findings.json").read_text())["claims"]
    _claim_lines((analysed / "summary.md").read_text(), claims, "text")
    _claim_lines((analysed / "tables" / "pairwise.md").read_text(), claims, "text")
    for claim in claims:
        claim["tex"] = typeset(escape(claim["text"]))
    tex = (analysed / "paper" / "findings.tex").read_text()
    rows = claims_table_rows(tex)
    headline = [c for c in claims if c["kind"] in ("best_vs_seed", "mip_vs_cp")]
    assert len(rows) == len(headline)            # the paper states its claims as a table, one row each
    verdicts = [cells[6] for _, cells in rows]
    assert [cells[0] for _, cells in rows] == [{"best_vs_seed": "vs seed", "mip_vs_cp": "MIP vs CP"}[c["kind"]]
                                               for c in headline]
    assert [group for group, _ in rows] == [f"{c['puzzle']}, {c['instance_set'] or 'all sets'}" for c in headline]
    assert sorted(verdicts) == sorted(VERDICT_WORDS[c["verdict"]] for c in headline)
    assert sum("faster" in v for v in verdicts) == sum(c["verdict"] in ("faster", "slower") for c in headline) > 0
    table = tex[tex.index(r"\label{tab:claims}"):]
    table = table[:table.index(r"\bottomrule")]
    outside = [line for line in tex.replace(table, "").splitlines() if "faster" in line]
    assert all(any(c["tex"] in line for c in claims if c["verdict"] in ("faster", "slower")) for line in outside)


def claims_table_rows(tex: str) -> list[tuple[str, list[str]]]:
    """(group, cells) of each row of the paper's claims table, a cell's lines joined by "/"."""
    body = tex[tex.index(r"\label{tab:claims}"):]
    body = body[body.index(r"\midrule") + len(r"\midrule"):body.index(r"\bottomrule")]
    rows, group = [], None
    for line in body.strip().splitlines():
        if line.startswith(r"\multicolumn"):
            group = re.search(r"\\textit\{(.*)\}\} \\\\$", line).group(1)
        elif line != r"\addlinespace":
            flat = re.sub(r"\\begin\{tabular\}\[t\]\{@\{\}l@\{\}\}|\\end\{tabular\}", "", line)
            rows.append((group, [cell.replace("\\\\{}", "/") for cell in flat.removesuffix(r" \\").split(" & ")]))
    return rows


def test_summary_leads_with_the_claims_and_links_the_pairs(analysed):
    summary = (analysed / "summary.md").read_text()
    assert summary.index("## Claims") < summary.index("## Anomalies") < summary.index("## Setup")
    assert "tables/pairwise.md" in summary and "binary = copy on sudoku/s (highs): identical models" in summary
    headline = (analysed / "tables" / "headline.csv").read_text()
    assert "binary = copy" in headline and "\ncopy," not in headline


def synthetic_findings(verdicts: dict, path, version: int = 1) -> str:
    """A findings.json of claims with ``verdicts`` (format 1 by default: its non-directional verdict is tied)."""
    claims = [{"id": cid, "kind": "pairwise", "puzzle": cid.split("/")[1], "instance_set": None, "solver": "highs",
               "a": "x", "b": "y", "measure": "time", "ratio": 2.0, "ci": [1.5, 2.5], "p_adjusted": 0.01, "n": 15,
               "verdict": v} for cid, v in verdicts.items()]
    path.mkdir()
    (path / "findings.json").write_text(json.dumps({"format": version, "setup": {}, "claims": claims}))
    return str(path)


def test_compare_reports_held_flipped_and_changed_claims_and_exits_0_1_2(tmp_path, capsys):
    a = synthetic_findings({"p/sudoku/1": "faster", "p/sudoku/2": "faster", "p/kakuro/1": "slower",
                            "p/kakuro/2": "faster", "p/kakuro/3": "faster"}, tmp_path / "a")
    b = synthetic_findings({"p/sudoku/1": "faster", "p/sudoku/2": "faster", "p/kakuro/1": "slower",
                            "p/kakuro/2": "faster", "p/kakuro/3": "tied"}, tmp_path / "b")
    result = compare(read_findings(a), read_findings(b))
    assert (len(result.held), result.share_a, result.share_b) == (4, 0.8, 1.0)
    assert result.puzzles == {"kakuro": True, "sudoku": True} and result.replicates
    assert main(["compare", a, b]) == 0
    out = capsys.readouterr().out
    assert "A's claims of a difference holding in B: 4 of 5 (80%)" in out and "replicates" in out
    c = synthetic_findings({"p/sudoku/1": "slower", "p/sudoku/2": "faster", "p/kakuro/1": "slower",
                            "p/kakuro/2": "faster", "p/kakuro/3": "faster"}, tmp_path / "c")
    assert main(["compare", a, c]) == 1
    assert "Flipped direction: 1" in capsys.readouterr().out
    assert main(["compare", a, str(tmp_path / "none")]) == 2
    assert "no findings.json" in capsys.readouterr().err
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "findings.json").write_text("[1, 2]")
    assert main(["compare", a, str(tmp_path / "bad")]) == 2
    capsys.readouterr()
    d = synthetic_findings({"p/sudoku/1": "tied", "p/kakuro/1": "identical"}, tmp_path / "d")
    assert main(["compare", a, d]) == 3
    assert "nothing to compare: B (" in capsys.readouterr().out
    e = synthetic_findings({"p/sudoku/1": "equivalent"}, tmp_path / "e", version=2)
    assert main(["compare", a, e]) == 3
    f = synthetic_findings({"p/sudoku/1": "equivalent"}, tmp_path / "f")  # not a verdict of format 1
    assert main(["compare", a, f]) == 2
    assert "claim 0 (\"p/sudoku/1\"): verdict \"equivalent\" is none of this format's" in capsys.readouterr().err


def test_compare_of_a_run_with_itself_replicates(analysed, capsys):
    assert main(["compare", str(analysed), str(analysed), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["replicates"] and report["share_a"] == 1.0 and not report["flipped"]
    assert report["nothing_to_compare"] is None
