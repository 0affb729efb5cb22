"""Calibration files and the stratified sample of a set's puzzles (config key ``sample``)."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError
from puzzlebench.io.sets import get_set
from puzzlebench.run.jobs import Job
from puzzlebench.workflow.config import validate_config
from puzzlebench.workflow.planner import plan
from puzzlebench.workflow.sampling import (
    CALIBRATION_COLUMNS,
    Sample,
    choose,
    read_calibration,
    stratified,
)

ROOT = Path(__file__).resolve().parents[1]


def test_the_sample_covers_each_stratum_of_the_band_evenly():
    times = {f"p{i:03d}": 0.01 * 1.05 ** i for i in range(150)}          # 0.01 s to about 14 s
    names = stratified(times, Sample(per_set=9, min_time=0.05, max_time=5.0, strata=3))
    chosen = sorted(times[n] for n in names)
    assert len(names) == 9 and all(0.05 <= t <= 5.0 for t in chosen)
    edges = [0.05 * 10 ** (2 * k / 3) for k in range(4)]
    per_stratum = [sum(lo <= t < hi for t in chosen) for lo, hi in zip(edges, edges[1:])]
    assert per_stratum == [3, 3, 3]
    assert min(chosen) == pytest.approx(min(t for t in times.values() if t >= 0.05))   # each stratum end to end


def test_a_set_with_few_puzzles_in_the_band_adds_the_closest_ones():
    times = {"easy": 0.001, "closer": 0.03, "in": 0.5, "hard": 20.0, "harder": 60.0}
    assert sorted(stratified(times, Sample(per_set=3, min_time=0.05, max_time=5.0))) == ["closer", "hard", "in"]
    assert len(stratified(times, Sample(per_set=10))) == 5


def test_a_small_stratum_gives_its_places_to_the_others():
    times = {"a": 0.06, **{f"b{i}": 1.0 + i / 100 for i in range(10)}}
    names = stratified(times, Sample(per_set=6, min_time=0.05, max_time=5.0, strata=3))
    assert "a" in names and len(names) == 6


def test_choose_keeps_set_order_and_max_instances_caps_the_sample():
    iset = get_set("kakuro/janko")
    sample = Sample(per_set=15, min_time=0.05, max_time=3.0)
    chosen = choose(iset, sample)
    order = [e.name for e in iset.entries()]
    assert len(chosen) == 15 and [e.name for e in chosen] == sorted((e.name for e in chosen), key=order.index)
    assert [e.name for e in choose(iset, sample, 4)] == [e.name for e in chosen[:4]]
    times = read_calibration(iset)
    assert all(0.05 <= times[e.name] <= 3.0 for e in chosen)
    assert [e.name for e in choose(get_set("kakuro/seed"), sample)] == [e.name for e in get_set("kakuro/seed").entries()]


def test_the_plan_names_the_sampled_puzzles_and_a_job_runs_those():
    config = {"instance_sets": ["kakuro/janko", "kakuro/seed"], "formulations": ["binary"], "solvers": ["highs"],
              "sample": {"per_set": 6}, "repeats": 3, "chunk_size": 9}
    jobs = plan(config)
    sampled = [j for j in jobs if j.instance_set == "kakuro/janko"]
    assert {len(j.names) for j in sampled} == {6} and all(j.repeats == 3 for j in jobs)
    assert len(sampled) == 2 and sum(j.instances for j in sampled) == 6               # 6 x 3 runs in chunks of 9
    entries = get_set("kakuro/janko").entries()
    picked = [e.name for j in sampled for e in j.select(entries)]
    assert picked == list(sampled[0].names)
    assert [j.names for j in jobs if j.instance_set == "kakuro/seed"] == [()]
    assert Job.from_json(sampled[0].to_json()) == sampled[0]
    with pytest.raises(PuzzleError, match="holds no puzzle 'nope'"):
        Job("kakuro/janko", ("binary",), "highs", names=("nope",)).select(entries)


@pytest.mark.parametrize("key, value", [("repeats", 0), ("repeats", "two"), ("sample", {"per_set": 0}),
                                        ("sample", {"per_set": 5, "bins": 3}), ("sample", {"min_time": 0.1}),
                                        ("sample", {"per_set": 5, "strata": 0})])
def test_bad_sample_and_repeats_are_refused_naming_the_key(key, value):
    with pytest.raises(PuzzleError, match=f"config {key}"):
        validate_config({"instance_sets": ["sudoku/seed"], key: value})


def test_min_time_must_be_below_max_time():
    with pytest.raises(PuzzleError, match="min_time 5 must be below max_time 1"):
        plan({"instance_sets": ["kakuro/janko"], "solvers": ["highs"], "sample": {"per_set": 3, "min_time": 5,
                                                                                   "max_time": 1}})


def test_calibrate_writes_the_set_calibration_and_the_set_ignores_it(tmp_path, monkeypatch, capsys):
    root = tmp_path / "instances"
    shutil.copytree(ROOT / "instances/sudoku/seed", root / "sudoku/seed")
    (root / "sudoku/seed/set.yaml").unlink(missing_ok=True)       # a set without globs lists every file
    monkeypatch.setenv("PUZZLEBENCH_INSTANCES", str(root))
    before = get_set("sudoku/seed").count()
    assert main(["calibrate", "sudoku/seed", "--time-limit", "20", "--repeats", "2"]) == 0
    path = root / "sudoku/seed/calibration.csv"
    assert f"wrote {path}" in capsys.readouterr().out
    lines = path.read_text().splitlines()
    comments = [line for line in lines if line.startswith("#")]
    assert any(line.startswith("# command: puzzlebench calibrate sudoku/seed --formulation binary --solver highs")
               for line in comments)
    assert {"# date:", "# machine:", "# load:", "# versions:"} <= {line.split(" ", 2)[0] + " " + line.split(" ", 2)[1]
                                                                 for line in comments}
    assert lines[len(comments)] == ",".join(CALIBRATION_COLUMNS)
    times = read_calibration(get_set("sudoku/seed"))
    assert len(times) == before and all(0 < t < 20 and math.isfinite(t) for t in times.values())
    assert get_set("sudoku/seed").count() == before                # calibration.csv is no puzzle file
    assert main(["calibrate", "sudoku/nosuch"]) == 2
