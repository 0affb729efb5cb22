"""`puzzlebench compare`'s rules (analysis/compare.py): what holds, flips and changes, the shares,
the puzzles that must keep a claim, nothing to compare, and the checks of findings.json."""

from __future__ import annotations

import json

import pytest

from puzzlebench.analysis.compare import FORMATS, MIN_SHARE, as_json, compare, read_findings, report
from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError

NON_DIRECTIONAL = {1: ("tied", "identical", "preprocessing"),
                   2: ("equivalent", "inconclusive", "identical", "preprocessing")}


def claim(cid: str, verdict: str, puzzle: str | None = None, **fields) -> dict:
    """A claim as findings.json writes it (the fields compare reads)."""
    return {"id": cid, "kind": "pairwise", "puzzle": puzzle or cid.split("/")[0], "instance_set": None,
            "solver": "highs", "a": "x", "b": "y", "measure": "time", "ratio": 2.0, "ci": [1.5, 2.5],
            "p_adjusted": 0.01, "n": 15, "verdict": verdict, **fields}


def doc(claims, version: int = 2, path: str = "run") -> dict:
    return {"format": version, "setup": {}, "claims": claims, "path": path}


def claims_of(verdicts: dict) -> list[dict]:
    return [claim(cid, v) for cid, v in verdicts.items()]


def run(a: dict, b: dict, **options):
    return compare(doc(claims_of(a)), doc(claims_of(b)), **options)


def ids(pairs) -> list[str]:
    return [first["id"] for first, *_ in pairs]


# --- the verdict sets --------------------------------------------------------------------------


def test_formats_are_the_verdicts_of_each_layout():
    assert FORMATS == {1: ("faster", "slower", "tied", "identical", "preprocessing"),
                       2: ("faster", "slower", "equivalent", "inconclusive", "identical", "preprocessing")}
    assert MIN_SHARE == 0.8


# --- held, flipped, changed ----------------------------------------------------------------------


@pytest.mark.parametrize("mine, theirs", [("faster", "slower"), ("slower", "faster")])
def test_a_flip_in_either_direction_alone_fails_replication(mine, theirs):
    keep = {f"s/{i}": "faster" for i in range(9)}
    result = run({**keep, "s/x": mine}, {**keep, "s/x": theirs})
    assert ids(result.flipped) == ["s/x"] and [cb["verdict"] for _, cb in result.flipped] == [theirs]
    assert len(result.held) == 9 and result.share_a == result.share_b == 0.9
    assert result.changed == [] and result.puzzles == {"s": True}
    assert not result.replicates
    same = run({**keep, "s/x": mine}, {**keep, "s/x": mine})
    assert same.replicates and same.flipped == [] and len(same.held) == 10


def test_held_flipped_and_changed_lists_are_exact():
    a = {"s/held": "faster", "s/held2": "slower", "s/flip": "slower", "s/gone": "faster", "s/tie": "faster",
         "s/only_a_tied": "equivalent", "k/both": "identical"}
    b = {"s/held": "faster", "s/held2": "slower", "s/flip": "faster", "s/tie": "inconclusive", "s/new": "slower",
         "k/both": "identical"}
    result = run(a, b)
    assert [(ca["id"], cb["id"], ca["verdict"], cb["verdict"]) for ca, cb in result.held] == [
        ("s/held", "s/held", "faster", "faster"), ("s/held2", "s/held2", "slower", "slower")]
    assert [(ca["verdict"], cb["verdict"]) for ca, cb in result.flipped] == [("slower", "faster")]
    assert ids(result.flipped) == ["s/flip"]
    assert [(c["id"], None if o is None else o["verdict"], tag) for c, o, tag in result.changed] == [
        ("s/gone", None, "a"), ("s/tie", "inconclusive", "a"), ("s/new", None, "b")]
    assert result.changed[1][1] is result.b["claims"][3]
    assert all(ca is result.a["claims"][i] and cb is result.b["claims"][i] for i, (ca, cb) in enumerate(result.held))
    assert result.flipped[0][0] is result.a["claims"][2] and result.flipped[0][1] is result.b["claims"][2]
    assert result.share_a == 2 / 5 and result.share_b == 2 / 4
    assert as_json(result) == {
        "a": "run", "b": "run", "replicates": False, "nothing_to_compare": None, "same_file": True,
        "share_a": 0.4, "share_b": 0.5,
        "flipped": ["s/flip"], "held": ["s/held", "s/held2"],
        "changed": [{"id": "s/gone", "run": "a", "verdict": "faster", "other": None},
                    {"id": "s/tie", "run": "a", "verdict": "faster", "other": "inconclusive"},
                    {"id": "s/new", "run": "b", "verdict": "slower", "other": None}],
        "puzzles": {"s": True}, "min_share": 0.8}


def test_a_claim_of_b_that_a_does_not_make_is_changed_from_b_side():
    result = run({"s/1": "faster", "s/2": "identical"}, {"s/1": "faster", "s/2": "slower"})
    assert [(c["id"], o["verdict"], tag) for c, o, tag in result.changed] == [("s/2", "identical", "b")]
    assert result.changed[0][0] is result.b["claims"][1] and result.changed[0][1] is result.a["claims"][1]
    assert (result.share_a, result.share_b) == (1.0, 0.5) and not result.replicates


# --- the shares ------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [1, 2])
def test_shares_count_claims_of_a_difference_only(version):
    a = {"s/1": "faster", "s/2": "faster", "s/3": "slower", "s/4": "faster", "s/5": "faster"}
    b = {"s/1": "faster", "s/2": "faster", "s/3": "slower", "s/4": "faster"}
    base = compare(doc(claims_of(a), version), doc(claims_of(b), version))
    assert (base.share_a, base.share_b) == (0.8, 1.0) and base.replicates
    extra = [claim(f"s/extra{i}", v) for i, v in enumerate(NON_DIRECTIONAL[version])]
    for first, second in ((extra, []), ([], extra), (extra, extra)):
        padded = compare(doc(claims_of(a) + first, version), doc(claims_of(b) + second, version))
        assert (padded.share_a, padded.share_b) == (0.8, 1.0) and padded.replicates
        assert padded.flipped == [] and len(padded.held) == 4


def test_min_share_boundary():
    a = {f"s/{i}": "faster" for i in range(5)}
    b = {f"s/{i}": "faster" for i in range(4)}
    exactly = run(a, b)
    assert exactly.share_a == 0.8 and exactly.replicates
    assert not run(a, b, min_share=0.81).replicates
    below = run({f"s/{i}": "faster" for i in range(6)}, {f"s/{i}": "faster" for i in range(4)})
    assert below.share_a == pytest.approx(4 / 6) and not below.replicates
    assert run({f"s/{i}": "faster" for i in range(6)}, b, min_share=0.6).replicates
    assert run(b, a).share_b == 0.8 and run(b, a).replicates
    assert not run(b, a, min_share=0.81).replicates


def test_a_share_of_none_does_not_block():
    result = compare(doc(claims_of({"s/1": "faster"})), doc(claims_of({"s/1": "faster"})))
    result.share_b = None
    assert result.replicates


# --- the puzzles that must keep a claim of a difference ------------------------------------------


def test_a_puzzle_with_a_claim_of_a_difference_in_one_run_only_must_keep_one():
    a = {f"s/{i}": "faster" for i in range(9)} | {"k/1": "slower"}
    b = {f"s/{i}": "faster" for i in range(9)} | {"k/1": "equivalent"}
    result = run(a, b, min_share=0.5)
    assert result.puzzles == {"k": False, "s": True} and not result.replicates
    assert list(result.puzzles) == ["k", "s"]
    result = run(b, a, min_share=0.5)
    assert result.puzzles == {"k": False, "s": True} and not result.replicates


def test_puzzles_given_must_each_keep_a_claim():
    a = {"s/1": "faster", "k/1": "identical"}
    assert run(a, a).replicates
    result = run(a, a, puzzles=["s", "k"])
    assert result.puzzles == {"s": True, "k": False} and not result.replicates
    only = run(a, a, puzzles=["s"])
    assert only.puzzles == {"s": True} and only.replicates
    assert run(a, a, puzzles=[]).puzzles == {}


def test_replication_needs_at_least_one_claim_held_in_both():
    a = {"s/1": "faster", "s/2": "identical"}
    b = {"s/1": "equivalent", "s/2": "slower"}
    result = run(a, b, min_share=0.0, puzzles=[])
    assert result.nothing_to_compare is None and result.held == [] and result.flipped == []
    assert not result.replicates


# --- nothing to compare ----------------------------------------------------------------------


@pytest.mark.parametrize("a, b, reason", [
    ({"s/1": "equivalent"}, {"s/1": "faster"}, "A (run) has no claim of a difference"),
    ({"s/1": "faster"}, {"s/1": "inconclusive", "s/2": "identical"}, "B (run) has no claim of a difference"),
    ({}, {"s/1": "faster"}, "A (run) has no claim of a difference"),
    ({"s/1": "faster"}, {}, "B (run) has no claim of a difference"),
    ({}, {}, "A (run) has no claim of a difference"),
    ({"s/1": "faster"}, {"s/2": "faster"}, "the two runs have no claim id in common"),
    ({"s/1": "faster"}, {"s/2": "slower", "s/3": "identical"}, "the two runs have no claim id in common"),
])
def test_nothing_to_compare_never_replicates(a, b, reason):
    result = run(a, b)
    assert result.nothing_to_compare == reason and not result.replicates
    assert as_json(result)["nothing_to_compare"] == reason and as_json(result)["replicates"] is False
    text = report(result)
    assert f"nothing to compare: {reason}" in text and "replicates" not in text


def test_nothing_to_compare_names_each_run_by_its_path():
    result = compare(doc([claim("s/1", "faster")], path="one"), doc([claim("s/1", "identical")], path="two"))
    assert result.nothing_to_compare == "B (two) has no claim of a difference"


def test_one_shared_claim_of_a_difference_is_something_to_compare():
    result = run({"s/1": "faster", "s/2": "identical"}, {"s/1": "faster"})
    assert result.nothing_to_compare is None and result.replicates
    assert "replicates (no flip, each share >= 80%, every puzzle kept): yes" in report(result)
    shared_tie = run({"s/1": "faster", "s/2": "identical"}, {"s/3": "faster", "s/2": "identical"})
    assert shared_tie.nothing_to_compare is None and not shared_tie.replicates


# --- the command: exit codes ----------------------------------------------------------------


def write(path, data) -> str:
    path.mkdir(parents=True, exist_ok=True)
    (path / "findings.json").write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize("a, b, code", [
    ({"s/1": "faster", "s/2": "slower"}, {"s/1": "faster", "s/2": "slower"}, 0),
    ({"s/1": "faster", "s/2": "slower"}, {"s/1": "faster", "s/2": "faster"}, 1),
    ({"s/1": "equivalent"}, {"s/1": "faster"}, 3),
    ({"s/1": "faster"}, {"s/2": "faster"}, 3),
])
def test_exit_codes(tmp_path, capsys, a, b, code):
    first = write(tmp_path / "a", {"format": 2, "claims": claims_of(a)})
    second = write(tmp_path / "b", {"format": 2, "claims": claims_of(b)})
    assert main(["compare", first, second]) == code
    out = capsys.readouterr().out
    assert ("nothing to compare: " in out) == (code == 3)
    assert main(["compare", first, second, "--json"]) == code
    assert (json.loads(capsys.readouterr().out)["nothing_to_compare"] is None) == (code != 3)


def test_the_command_reads_both_formats(tmp_path, capsys):
    old = write(tmp_path / "a", {"format": 1, "claims": [claim("s/1", "faster"), claim("s/2", "tied")]})
    new = write(tmp_path / "b", {"format": 2, "claims": [claim("s/1", "faster"), claim("s/2", "inconclusive",
                                                                                          family="f",
                                                                                          instances_needed=12)]})
    assert main(["compare", old, new, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["held"] == ["s/1"]


# --- the checks of findings.json ---------------------------------------------------------------


GOOD = claim("s/1", "faster")
SPLIT = {"basis": "the parity of the repeat", "claims": 3, "hold": 2, "share": 2 / 3}


def with_claim(**fields) -> dict:
    """A format-2 document whose second claim has ``fields`` (None: the field left out)."""
    bad = {k: v for k, v in {**claim("s/2", "slower"), **fields}.items() if v is not None}
    return {"format": 2, "claims": [GOOD, bad]}


def wrong(field: str, value) -> tuple:
    """A claim whose ``field`` has ``value``, and the message it gives."""
    return with_claim(**{field: value}), field


BAD_DOCUMENTS = [
    # (document, what the message says after "<path>: ")
    ([1, 2], "not a findings file: an object with format and claims expected, not a list"),
    ("text", 'not a findings file: an object with format and claims expected, not "text"'),
    ({"claims": []}, "not a findings file: no format"),
    ({"format": 99, "claims": []}, "format 99 is not one this version reads (1, 2)"),
    ({"format": "two", "claims": []}, 'format "two" is not one this version reads (1, 2)'),
    ({"format": None, "claims": []}, "format null is not one this version reads (1, 2)"),
    ({"format": True, "claims": []}, "format true is not one this version reads (1, 2)"),
    ({"format": 1.0, "claims": []}, "format 1.0 is not one this version reads (1, 2)"),
    ({"format": 3, "claims": []}, "format 3 is not one this version reads (1, 2)"),
    ({"format": 2}, "'claims' must be a list, not null"),
    ({"format": 2, "claims": {"a": 1}}, "'claims' must be a list, not an object"),
    ({"format": 2, "claims": [GOOD, 7]}, "claim 1 is not an object but 7"),
    ({"format": 2, "claims": [GOOD, [GOOD]]}, "claim 1 is not an object but a list"),
    ({"format": 2, "claims": [GOOD], "setup": []}, "'setup' must be an object, not a list"),
    ({"format": 2, "claims": [GOOD], "setup": None}, "'setup' must be an object, not null"),
    ({"format": 2, "claims": [GOOD], "split_half": "x"}, "'split_half' must be an object, not \"x\""),
    ({"format": 2, "claims": [GOOD], "split_half": {**SPLIT, "share": "2/3"}},
     "split_half's 'share' must be a finite number or null, not \"2/3\""),
    ({"format": 2, "claims": [GOOD], "split_half": {**SPLIT, "hold": 2.0}},
     "split_half's 'hold' must be an integer or null, not 2.0"),
    ({"format": 2, "claims": [GOOD], "split_half": {**SPLIT, "claims": True}},
     "split_half's 'claims' must be an integer or null, not true"),
    ({"format": 2, "claims": [GOOD], "split_half": {**SPLIT, "basis": 1}},
     "split_half's 'basis' must be a string or null, not 1"),
    ({"format": 2, "claims": [GOOD, GOOD]}, 'claim 1 ("s/1"): the id of an earlier claim'),
    ({"format": 1, "claims": [GOOD, claim("s/2", "equivalent")]},
     'claim 1 ("s/2"): verdict "equivalent" is none of this format\'s (faster, slower, tied, identical, '
     'preprocessing)'),
    ({"format": 2, "claims": [GOOD, claim("s/2", "tied")]},
     'claim 1 ("s/2"): verdict "tied" is none of this format\'s (faster, slower, equivalent, inconclusive, '
     'identical, preprocessing)'),
    (with_claim(id=None), "claim 1 (no id) has no 'id'"),
    (with_claim(id=5), "claim 1 (no id): 'id' must be a string, not 5"),
    (with_claim(verdict=None), "claim 1 (\"s/2\") has no 'verdict'"),
    (with_claim(ratio="x" * 60), "claim 1 (\"s/2\"): 'ratio' must be a finite number or null, not "
                                 "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."),
    # a value is quoted whole up to 40 characters of JSON, else cut to 37 and "..."
    (with_claim(ratio="y" * 38), f"claim 1 (\"s/2\"): 'ratio' must be a finite number or null, not \"{'y' * 38}\""),
    (with_claim(ratio="y" * 39), f"claim 1 (\"s/2\"): 'ratio' must be a finite number or null, not \"{'y' * 36}..."),
]
REQUIRED_WRONG = [(with_claim(**{key: None}), f"claim 1 (\"s/2\") has no '{key}'")
                  for key in ("puzzle", "kind", "a", "b")] + [
                 (with_claim(**{key: bad}), f"claim 1 (\"s/2\"): '{key}' must be a string, not {shown}")
                 for key in ("puzzle", "kind", "a", "b", "verdict") for bad, shown in ((3, "3"), ([], "a list"))]
OPTIONAL_WRONG = [
    (key, value, what)
    for keys, what, values in (
        (("instance_set", "solver", "a_solver", "b_solver"), "a string or null", (1, True, [], {})),
        (("ratio", "p_adjusted", "p_value", "noise", "sd_log_ratio"), "a finite number or null",
         ("1", True, False, 1e308 * 10, float("nan"), 10 ** 400, [1.0])),
        (("ci",), "a list of two finite numbers or null",
         ([1.0], [1.0, 2.0, 3.0], [1.0, None], [None, 1.0], ["1", 2.0], [True, 2.0], [1.0, float("inf")], "1",
          [10 ** 400, 1.0], {"0": 1, "1": 2}, [])),
        (("n", "instances_needed", "family_size", "preprocessed"), "an integer or null",
         (1.0, True, "3", [])),
        (("holds_in_halves",), "true, false or null", (1, 0, "true", [])),
        (("measure", "family", "note", "text"), "a string", (None, 1, True, [])),
    )
    for key in keys for value in values]


def message_of(tmp_path, data) -> str:
    path = tmp_path / "findings.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) or not data.startswith("RAW:")
                    else data[4:])
    with pytest.raises(PuzzleError) as err:
        read_findings(tmp_path)
    text = str(err.value)
    assert text.startswith(f"{path}: ") and "\n" not in text
    return text.removeprefix(f"{path}: ")


@pytest.mark.parametrize("data, message", BAD_DOCUMENTS + REQUIRED_WRONG)
def test_read_findings_refuses_a_bad_document(tmp_path, data, message):
    assert message_of(tmp_path, data) == message


@pytest.mark.parametrize("key, value, what", OPTIONAL_WRONG)
def test_read_findings_refuses_an_optional_field_of_the_wrong_type(tmp_path, key, value, what):
    text = message_of(tmp_path, with_claim(**{key: value}) if value is not None else
                      {"format": 2, "claims": [GOOD, {**claim("s/2", "slower"), key: None}]})
    assert text.startswith(f"claim 1 (\"s/2\"): '{key}' must be {what}, not ")


@pytest.mark.parametrize("key, value", [
    ("instance_set", None), ("instance_set", "sudoku/s"), ("solver", None), ("a_solver", "highs"),
    ("b_solver", None), ("ratio", None), ("ratio", 3), ("ratio", 0.5), ("p_adjusted", None), ("p_value", 0.2),
    ("noise", 1.1), ("noise", None), ("sd_log_ratio", None), ("ci", None), ("ci", [1, 2.5]),
    ("n", None), ("n", 0), ("instances_needed", None), ("instances_needed", 14), ("family_size", 3),
    ("preprocessed", 0), ("holds_in_halves", None), ("holds_in_halves", True), ("holds_in_halves", False),
    ("family", "pairwise/sudoku"), ("note", ""), ("text", "a sentence"), ("measure", "time"),
])
def test_read_findings_takes_every_valid_value(tmp_path, key, value):
    data = {"format": 2, "claims": [GOOD, {**claim("s/2", "slower"), key: value}], "split_half": SPLIT,
            "setup": {"grid": {"runs": 3}}}
    (tmp_path / "findings.json").write_text(json.dumps(data))
    read = read_findings(tmp_path)
    assert read["claims"][1][key] == value and read["path"] == str(tmp_path / "findings.json")
    report(compare(read, read))


def test_read_findings_takes_a_minimal_document_and_a_file_path(tmp_path):
    minimal = {"format": 1, "claims": [{k: GOOD[k] for k in ("id", "puzzle", "kind", "a", "b", "verdict")}]}
    (tmp_path / "findings.json").write_text(json.dumps(minimal))
    for given in (tmp_path, tmp_path / "findings.json", str(tmp_path)):
        read = read_findings(given)
        assert read == {**minimal, "path": str(tmp_path / "findings.json")}
    assert "replicates (no flip" in report(compare(read, read))
    empty = {"format": 2, "claims": [], "split_half": {}, "setup": {}}
    (tmp_path / "findings.json").write_text(json.dumps(empty))
    assert read_findings(tmp_path)["claims"] == []


UNREADABLE = [
    ("RAW:" + "[" * 5000 + "]" * 5000, "not a findings file: nested too deeply"),
    ("RAW:" + '{"format": 2, "claims": [' + "[" * 100000, "not a findings file: nested too deeply"),
    ("RAW:{\"format\": 2, \"claims\": [], \"n\": " + "9" * 5000 + "}", "not a findings file: Exceeds the limit"),
    ("RAW:{\"format\": 2, \"claims\": [", "not a findings file: Expecting value: line 1 column 26"),
    ("RAW:", "not a findings file: Expecting value: line 1 column 1 (char 0)"),
]


@pytest.mark.parametrize("data, start", UNREADABLE)
def test_read_findings_refuses_what_json_cannot_read(tmp_path, data, start):
    assert message_of(tmp_path, data).startswith(start)


def test_read_findings_refuses_bytes_that_are_not_utf8(tmp_path):
    (tmp_path / "findings.json").write_bytes(b'{"format": 2, "claims": ["\xff\xfe"]}')
    with pytest.raises(PuzzleError, match=r"findings.json: not a findings file: 'utf-8' codec can't decode byte "
                                          r"0xff in position 26"):
        read_findings(tmp_path)


def test_read_findings_names_a_missing_file_and_an_unreadable_one(tmp_path, monkeypatch):
    with pytest.raises(PuzzleError) as err:
        read_findings(tmp_path)
    assert str(err.value) == f"{tmp_path / 'findings.json'}: no findings.json (run the workflow or " \
                             "`puzzlebench analyze` first)"
    (tmp_path / "findings.json").mkdir()
    with pytest.raises(PuzzleError, match="no findings.json"):
        read_findings(tmp_path)
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "findings.json").write_text("{}")

    def refuse(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(type(tmp_path), "read_bytes", refuse)
    with pytest.raises(PuzzleError) as err:
        read_findings(tmp_path / "f")
    assert str(err.value) == f"{tmp_path / 'f' / 'findings.json'}: cannot read it: Permission denied"


CLI_BAD = [json.dumps(d) for d, _ in BAD_DOCUMENTS[:12]] + [data[4:] for data, _ in UNREADABLE] + [
    json.dumps(with_claim(**{key: value})) for key, value, _ in OPTIONAL_WRONG[::5] if value is not None] + [
    json.dumps({"format": 2, "claims": [GOOD], "setup": {"load": {"load_average": {
        "min": "a", "median": 1, "max": 2}}}}),
]


@pytest.mark.parametrize("text", CLI_BAD)
@pytest.mark.parametrize("bad_first", [True, False])
def test_the_command_ends_bad_input_in_one_line_exit_2(tmp_path, capsys, text, bad_first):
    good = write(tmp_path / "good", {"format": 2, "claims": [GOOD]})
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "findings.json").write_text(text)
    bad = str(tmp_path / "bad")
    code = main(["compare", bad, good] if bad_first else ["compare", good, bad])
    err = capsys.readouterr().err
    if code == 2:
        assert err.count("\n") == 1 and str(tmp_path / "bad" / "findings.json") in err and "Traceback" not in err
    else:  # a setup of odd values is shown as it is, never a crash
        assert code == 0 and err == ""


@pytest.mark.parametrize("args", [["x_missing"], ["bad_bytes"], ["a_dir"]])
def test_the_command_on_a_missing_file_non_utf8_or_a_directory(tmp_path, capsys, args):
    good = write(tmp_path / "good", {"format": 2, "claims": [GOOD]})
    (tmp_path / "bad_bytes").mkdir()
    (tmp_path / "bad_bytes" / "findings.json").write_bytes(b"\xff\xfe{}")
    (tmp_path / "a_dir" / "findings.json").mkdir(parents=True)
    assert main(["compare", good, str(tmp_path / args[0])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and args[0] in err and "Traceback" not in err


def test_a_setup_of_any_shape_is_reported_without_a_crash(tmp_path, capsys):
    setup = {"machine": {"cpu_model": "DEEP", "cpu_count": [10 ** 300, 2.5, True, None]},
             "load": {"load_average": {"min": "a", "median": 1, "max": 2},
                      "cpu_pressure": {"min": 1, "median": 10 ** 400, "max": 2}},
             "grid": {"runs": [[[[[[[[1]]]]]]]], "seeds": {"a": {"b": None}}}, "dates": "x",
             "noise": [1, 2]}
    a = write(tmp_path / "a", {"format": 2, "claims": [GOOD], "setup": setup, "split_half": {"share": 0.5}})
    text = (tmp_path / "a" / "findings.json").read_text()  # 800 levels deep: json reads it, the report must too
    (tmp_path / "a" / "findings.json").write_text(text.replace('"DEEP"', '{"x": [' * 400 + "1.5" + "]}" * 400))
    b = write(tmp_path / "b", {"format": 2, "claims": [GOOD], "setup": {"load": None}, "split_half": {}})
    assert main(["compare", a, b]) == 0
    out = capsys.readouterr().out
    assert "split halves A: None of None claims of a difference hold in both halves (50%, by None)" in out



def test_one_file_given_twice_is_said(tmp_path):
    """compare A A replicates trivially: the result says the two are one file, however spelled."""
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "findings.json").write_text(json.dumps(doc(claims_of({"s/1": "faster"}))))
    (tmp_path / "link").symlink_to(folder)
    other = tmp_path / "other"
    other.mkdir()
    (other / "findings.json").write_text(json.dumps(doc(claims_of({"s/1": "faster"}))))
    for a, b in ((folder, folder), (folder, folder / "findings.json"), (tmp_path / "link", folder)):
        result = compare(read_findings(a), read_findings(b))
        assert result.same_file and as_json(result)["same_file"] is True
        assert "note: A and B are the same file" in report(result)
    result = compare(read_findings(folder), read_findings(other))
    assert not result.same_file and "same file" not in report(result)
    assert not compare(doc([]), {"claims": []}).same_file                  # no path: not known to be one file


# --- findings of an analysis that did not finish -------------------------------------------------

def _folder(tmp_path, analysis="abc", marker: object = "abc", name="run"):
    folder = tmp_path / name
    folder.mkdir()
    document = doc(claims_of({"s/1": "faster"}))
    if analysis is not None:
        document["analysis"] = analysis
    (folder / "findings.json").write_text(json.dumps(document))
    if marker is not None:
        text = marker if isinstance(marker, str) and marker.startswith("<") else json.dumps({"analysis": marker})
        (folder / "analysis.json").write_text(text)
    return folder


UNFINISHED = "of an analysis that did not finish (its analysis.json does not name it)"


@pytest.mark.parametrize("analysis, marker, given, problem", [
    ("abc", "abc", "folder", None),                  # finished
    ("abc", "abc", "file", None),
    ("abc", None, "folder", UNFINISHED),             # killed: the marker removed first, never written
    ("abc", None, "file", None),                     # a findings file alone (copied out): not checked
    ("abc", "xyz", "folder", UNFINISHED),            # another analysis' marker
    ("abc", "xyz", "file", UNFINISHED),              # beside a marker, a file is checked too
    ("abc", "<not json", "folder", UNFINISHED),
    ("abc", ["abc"], "folder", UNFINISHED),          # a marker of the wrong shape
    (None, None, "folder", None),                    # an older findings file has no id: not checked
    (None, "xyz", "folder", None),
    (7, "abc", "folder", "'analysis' must be a string, not 7"),
])
def test_findings_of_an_unfinished_analysis_are_refused(tmp_path, analysis, marker, given, problem):
    folder = _folder(tmp_path, analysis, marker)
    target = folder if given == "folder" else folder / "findings.json"
    if problem is None:
        assert read_findings(target)["path"] == str(folder / "findings.json")
    else:
        with pytest.raises(PuzzleError) as caught:
            read_findings(target)
        assert str(caught.value) == f"{folder / 'findings.json'}: {problem}" + (
            ": the folder may mix two analyses; run `puzzlebench analyze` again" if problem == UNFINISHED else "")
