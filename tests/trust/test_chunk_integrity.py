"""A chunk file proves it is whole (puzzlebench/store/chunks.py, module doc): each check of
:func:`~puzzlebench.store.chunks.read_chunk` refuses the one damage it is there for, with its own message
and the file line, on a file that every other check accepts (issue 26)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from puzzlebench.errors import PuzzleError
from puzzlebench.store import chunks

PLANNED = [("binary", "p1", 0, 0), ("binary", "p2", 0, 0), ("integer", "p1", 1, 0)]


def run_row(key) -> dict:
    formulation, instance, permutation, repeat = key
    return {"role": "run", "formulation": formulation, "instance": instance, "permutation": permutation,
            "repeat": repeat, "status": "optimal"}


def noise_row(k: int) -> dict:
    return {"role": "noise", "formulation": "binary", "instance": "reference", "permutation": 0, "seed": k}


def lines_of(planned=PLANNED, noise: int = 1, body=None, rows: int | None = None, head=None) -> list[dict]:
    """A chunk's lines: the header planning ``planned`` and ``noise``, the body (by default one
    noise row per planned noise row, then each planned run), and the end line counting ``rows``
    (by default the body's length)."""
    body = [*map(noise_row, range(noise)), *map(run_row, planned)] if body is None else body
    return [head or chunks.header({"set": "sudoku/a"}, planned, noise), *body,
            chunks.end(len(body) if rows is None else rows)]


def write(tmp_path: Path, lines, name: str = "chunk.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def refused(path: Path) -> PuzzleError:
    with pytest.raises(PuzzleError) as caught:
        chunks.read_chunk(path)
    assert caught.value.path == str(path) and "\n" not in str(caught.value)
    return caught.value


def test_a_whole_chunk_reads_back_every_row_in_order(tmp_path):
    lines = lines_of(noise=2)
    chunk = chunks.read_chunk(write(tmp_path, lines))
    assert chunk.job == {"set": "sudoku/a"} and chunk.rows == lines[1:-1] and chunk.path == str(tmp_path / "chunk.jsonl")
    assert chunks.read_records(write(tmp_path, lines)).rows == lines[1:-1]


def test_header_and_end_line_as_batch_writes_them():
    assert chunks.header({"a": 1}, [("binary", "p1", 0, 0)], 2) == {
        "role": "job", "format": chunks.CHUNK_FORMAT, "job": {"a": 1}, "runs": [["binary", "p1", 0, 0]], "noise": 2}
    assert chunks.end(3) == {"role": "end", "rows": 3}
    assert chunks.CHUNK_FORMAT == 2
    assert chunks.run_key({"formulation": "f", "instance": "i"}) == ("f", "i", 0, 0)
    assert chunks.run_key({"formulation": "f", "instance": "i", "permutation": 4, "repeat": 1}) == ("f", "i", 4, 1)


@pytest.mark.parametrize("fmt", [1, 3, 0, None, "2"])
def test_another_chunk_format_is_refused(tmp_path, fmt):
    head = {**chunks.header({}, PLANNED, 1), "format": fmt}
    err = refused(write(tmp_path, lines_of(head=head)))
    assert err.line == 1 and err.problem == f"chunk format {fmt!r}, this puzzlebench reads 2; rerun its job"


def test_a_header_without_a_format_is_refused(tmp_path):
    head = chunks.header({}, PLANNED, 1)
    del head["format"]
    assert refused(write(tmp_path, lines_of(head=head))).problem.startswith("chunk format None,")


@pytest.mark.parametrize("lines", [[], [run_row(PLANNED[0]), chunks.end(0)], [chunks.end(0)]],
                         ids=["empty", "a run first", "an end line first"])
def test_no_header_on_the_first_line_is_refused(tmp_path, lines):
    err = refused(write(tmp_path, lines))
    assert err.line is None and err.problem == ("no job header on the first line: not a chunk file written by this "
                                                "puzzlebench (or cut at its start); rerun its job")


@pytest.mark.parametrize("cut, rows", [(1, 4), (2, 3), (5, 0)])
def test_a_file_cut_before_its_end_line_is_refused(tmp_path, cut, rows):
    err = refused(write(tmp_path, lines_of()[:-cut]))
    assert err.problem == f"no end line: the file is cut short after {rows} row(s); rerun its job"


def test_a_header_alone_is_cut_short(tmp_path):
    assert refused(write(tmp_path, lines_of()[:1])).problem.startswith("no end line: the file is cut short after 0 ")


@pytest.mark.parametrize("stated", [3, 5, 0])
def test_an_end_line_counting_other_rows_is_refused(tmp_path, stated):
    lines = lines_of(rows=stated)
    err = refused(write(tmp_path, lines))
    assert err.line == 6 and err.problem == f"the end line counts {stated} row(s), the file holds 4"


@pytest.mark.parametrize("stray", [chunks.end(4), chunks.header({}, PLANNED, 1), {"role": None}, {}],
                         ids=["end line", "header", "role null", "no role"])
def test_a_stray_line_in_the_body_is_not_a_run_even_with_a_planned_runs_key(tmp_path, stray):
    """Two chunks pasted together put an end line and a header inside the body.  The stray line
    here carries the key of the run it replaces, so that every count still matches."""
    stray = {**stray, "formulation": "binary", "instance": "p2", "permutation": 0}
    body = [noise_row(0), run_row(PLANNED[0]), stray, run_row(PLANNED[2])]
    err = refused(write(tmp_path, lines_of(body=body)))
    assert err.line == 4 and err.problem == f"row with role {stray.get('role')!r} (expected one of run, noise)"


def test_two_chunks_pasted_together_are_refused(tmp_path):
    first, second = lines_of(), lines_of(planned=[("binary", "p9", 0, 0)], noise=0)
    err = refused(write(tmp_path, first + second))
    assert err.problem == "the end line counts 1 row(s), the file holds 7"


def test_a_row_that_was_never_planned_is_refused_by_name(tmp_path):
    body = [noise_row(0), run_row(PLANNED[0]), run_row(("binary", "p9", 0, 0)), run_row(PLANNED[2])]
    err = refused(write(tmp_path, lines_of(body=body)))
    assert err.line == 4 and err.problem == "row ('binary', 'p9', 0, 0) is not one of the job's planned runs"


def test_a_planned_run_with_another_permutation_is_not_planned(tmp_path):
    body = [noise_row(0), run_row(PLANNED[0]), run_row(PLANNED[1]), run_row(("integer", "p1", 0, 0))]
    assert refused(write(tmp_path, lines_of(body=body))).problem == (
        "row ('integer', 'p1', 0, 0) is not one of the job's planned runs")


def test_a_duplicated_row_is_refused_at_its_second_copy(tmp_path):
    body = [noise_row(0), run_row(PLANNED[0]), run_row(PLANNED[1]), run_row(PLANNED[1]), run_row(PLANNED[2])]
    err = refused(write(tmp_path, lines_of(body=body)))
    assert err.line == 5 and err.problem == "duplicate row ('binary', 'p2', 0, 0)"


def test_a_run_planned_twice_may_appear_twice_not_three_times(tmp_path):
    planned = [PLANNED[0], PLANNED[0]]
    assert len(chunks.read_chunk(write(tmp_path, lines_of(planned=planned, noise=0))).rows) == 2
    err = refused(write(tmp_path, lines_of(planned=planned, noise=0, body=[run_row(PLANNED[0])] * 3)))
    assert err.line == 4 and err.problem == "duplicate row ('binary', 'p1', 0, 0)"


@pytest.mark.parametrize("kept, problem", [
    ([0, 2], "1 of 3 planned run(s) missing, the first ('binary', 'p2', 0, 0)"),
    ([2], "2 of 3 planned run(s) missing, the first ('binary', 'p1', 0, 0)"),
    ([0, 1], "1 of 3 planned run(s) missing, the first ('integer', 'p1', 1, 0)"),
])
def test_a_missing_planned_run_is_refused(tmp_path, kept, problem):
    body = [noise_row(0), *(run_row(PLANNED[k]) for k in kept)]
    err = refused(write(tmp_path, lines_of(body=body)))
    assert err.problem == problem and err.line is None


@pytest.mark.parametrize("planned, present", [(2, 1), (1, 0), (1, 2), (0, 1), (2, 3)])
def test_noise_rows_must_be_as_many_as_the_header_plans(tmp_path, planned, present):
    body = [*map(noise_row, range(present)), *map(run_row, PLANNED)]
    err = refused(write(tmp_path, lines_of(noise=planned, body=body)))
    assert err.problem == f"{present} noise reference row(s), the header plans {planned}"


def test_a_header_without_noise_plans_none(tmp_path):
    head = chunks.header({}, PLANNED, 0)
    del head["noise"]
    assert len(chunks.read_chunk(write(tmp_path, lines_of(head=head, noise=0))).rows) == 3
    body = [noise_row(0), *map(run_row, PLANNED)]
    assert refused(write(tmp_path, lines_of(head=head, body=body))).problem == (
        "1 noise reference row(s), the header plans 0")


def test_a_header_without_runs_plans_none(tmp_path):
    head = chunks.header({}, [], 0)
    del head["runs"]
    assert chunks.read_chunk(write(tmp_path, lines_of(planned=[], noise=0, head=head))).rows == []
    assert refused(write(tmp_path, lines_of(planned=[], noise=0, head=head, body=[run_row(PLANNED[0])]))).problem == (
        "row ('binary', 'p1', 0, 0) is not one of the job's planned runs")


def test_blank_lines_are_skipped_and_lines_keep_their_numbers(tmp_path):
    lines = lines_of()
    text = ["", json.dumps(lines[0]), "   ", *map(json.dumps, lines[1:3]), "", json.dumps(run_row(("x", "y", 0, 0))),
            *map(json.dumps, lines[4:])]
    err = refused(write(tmp_path, text))
    assert err.line == 7 and "('x', 'y', 0, 0) is not one of" in err.problem


@pytest.mark.parametrize("damage, line, problem", [
    (lambda text: text[:-30] + "\n", 5, "unreadable row (Unterminated string starting at"),
    (lambda text: text.replace('"role": "run"', '"role": run', 1), 3, "unreadable row (Expecting value at column 10)"),
    (lambda text: text.replace(json.dumps(run_row(PLANNED[1])), "[1, 2]"), 4, "unreadable row: not a JSON object"),
], ids=["cut mid-line", "corrupt", "not an object"])
def test_an_unreadable_line_is_refused_with_its_number(tmp_path, damage, line, problem):
    path = write(tmp_path, lines_of())
    path.write_text(damage(path.read_text()))
    err = refused(path)
    assert err.line == line and err.problem.startswith(problem)
    with pytest.raises(PuzzleError, match=re.escape(problem)):
        chunks.read_records(path)


def test_an_unreadable_row_says_to_rerun_the_job(tmp_path):
    path = write(tmp_path, [*map(json.dumps, lines_of()[:2]), '{"role": "run"'])
    assert refused(path).problem.endswith("at column 15): the file is cut or corrupt; rerun its job")


def test_a_file_that_is_not_utf8_is_refused(tmp_path):
    path = tmp_path / "chunk.jsonl"
    path.write_bytes(json.dumps(lines_of()[0]).encode() + b"\n\xff\xfe\n")
    err = refused(path)
    assert err.problem == "not UTF-8 text (invalid start byte)" and err.line is None


def test_plain_records_without_a_header_are_read_as_they_are(tmp_path):
    rows = [run_row(PLANNED[0]), run_row(PLANNED[0]), {"anything": 1}]
    chunk = chunks.read_records(write(tmp_path, rows))
    assert chunk.job is None and chunk.rows == rows and chunk.path == str(tmp_path / "chunk.jsonl")
    assert chunks.read_records(write(tmp_path, [], "empty.jsonl")).rows == []


def test_read_records_checks_a_chunk_as_read_chunk_does(tmp_path):
    path = write(tmp_path, lines_of(rows=9))
    with pytest.raises(PuzzleError, match="the end line counts 9 row"):
        chunks.read_records(path)


def test_a_chunk_is_read_as_utf8_whatever_the_locale(tmp_path):
    """Under an ASCII locale (LC_ALL=C, without Python's UTF-8 mode) a name with an accent reads
    back as written: chunk files are UTF-8 text by definition, not in the reader's encoding."""
    import os
    import subprocess
    import sys
    body = [{**run_row(("binary", "café", 0, 0)), "message": "résolu"}]
    lines = lines_of(planned=[("binary", "café", 0, 0)], noise=0, body=body)
    path = write(tmp_path, [json.dumps(line, ensure_ascii=False) for line in lines])   # raw UTF-8 bytes
    assert "é".encode() in path.read_bytes() and chunks.read_chunk(path).rows == body
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0",
           "PYTHONIOENCODING": "utf-8"}
    script = ("import sys, locale; from puzzlebench.store.chunks import read_chunk; "
              "print(locale.getpreferredencoding(False), read_chunk(sys.argv[1]).rows[0]['message'])")
    done = subprocess.run([sys.executable, "-c", script, str(path)], env=env, capture_output=True, text=True,
                          encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    encoding, message = done.stdout.split()
    assert encoding != "UTF-8" and message == "résolu"


STORE_ROW = {"instance_set": "sudoku/a", "instance": "p1", "permutation": 0, "formulation": "binary",
             "solver": "highs", "seed": 0, "repeat": 0}


def chunk_of(path, job, *rows) -> chunks.Chunk:
    return chunks.Chunk(str(path), job, [dict(row) for row in rows])


def test_a_file_given_twice_is_refused_naming_both_spellings(tmp_path):
    first = tmp_path / "a.jsonl"
    first.write_text("")
    (tmp_path / "b.jsonl").symlink_to(first)
    with pytest.raises(PuzzleError) as caught:
        chunks.refuse_duplicates([chunk_of(first, {"n": 1}), chunk_of(tmp_path / "b.jsonl", {"n": 2})])
    assert str(caught.value) == (f"{tmp_path / 'b.jsonl'} is given twice ({first} is the same file): its runs "
                                 f"would be stored twice")


def test_two_files_of_one_job_are_refused_and_chunks_without_a_header_never_collide(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    with pytest.raises(PuzzleError) as caught:
        chunks.refuse_duplicates([chunk_of(a, {"set": "x", "n": 1}), chunk_of(b, {"n": 1, "set": "x"})])
    assert str(caught.value) == f"{a} and {b} hold the same job: one is a copy of the other; give one of them"
    chunks.refuse_duplicates([chunk_of(a, None, STORE_ROW), chunk_of(b, None, {**STORE_ROW, "seed": 1})])
    chunks.refuse_duplicates([chunk_of(a, {"n": 1}), chunk_of(b, {"n": 2})])


def test_a_run_key_held_twice_is_refused_with_the_key_and_where(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    key = ", ".join(f"'{name}': {STORE_ROW[name]!r}" for name in chunks.STORE_KEY)
    with pytest.raises(PuzzleError) as caught:
        chunks.refuse_duplicates([chunk_of(a, {"n": 1}, STORE_ROW), chunk_of(b, {"n": 2}, {**STORE_ROW, "x": 1})])
    assert str(caught.value) == f"the run {{{key}}} is not unique ({a} and {b} both hold it): a run is stored once"
    with pytest.raises(PuzzleError) as caught:
        chunks.refuse_duplicates([chunk_of(a, {"n": 1}, STORE_ROW, {**STORE_ROW, "role": "run"})])
    assert str(caught.value) == f"the run {{{key}}} is not unique ({a} holds it twice): a run is stored once"


@pytest.mark.parametrize("field", chunks.STORE_KEY)
def test_runs_that_differ_in_one_key_field_are_two_runs(tmp_path, field):
    other = {**STORE_ROW, field: "other"}
    chunks.refuse_duplicates([chunk_of(tmp_path / "a.jsonl", {"n": 1}, STORE_ROW),
                              chunk_of(tmp_path / "b.jsonl", {"n": 2}, other)])


def test_noise_rows_are_not_runs(tmp_path):
    noise = {**STORE_ROW, "role": "noise"}
    chunks.refuse_duplicates([chunk_of(tmp_path / "a.jsonl", {"n": 1}, noise, noise, STORE_ROW),
                              chunk_of(tmp_path / "b.jsonl", {"n": 2}, noise)])


def test_a_noise_row_before_runs_does_not_end_the_check(tmp_path):
    noise = {**STORE_ROW, "role": "noise"}
    with pytest.raises(PuzzleError, match="holds it twice"):
        chunks.refuse_duplicates([chunk_of(tmp_path / "a.jsonl", {"n": 1}, noise, STORE_ROW, STORE_ROW)])
