"""KenKen in the layouts other projects publish (issue 35): the kind's own formats ``keen``,
``kenken-json`` and ``kenken-letters``, registered through the kinds registry; each published file
(tests/data/wild/kenken, see tests/data/wild/SOURCE.md) read with no --format, solved and its
published solutions checked; never read as another kind; a puzzle that breaks the rules named and
the rest imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.checker import check
from puzzlebench.cli import main
from puzzlebench.errors import PuzzleError
from puzzlebench.io import (
    FORMATS,
    detect_format,
    formats_holding,
    read_puzzle,
    read_puzzles,
    read_puzzles_keeping,
    read_solutions,
)
from puzzlebench.kinds import get_kind, kind_key, register_kind
from puzzlebench.kinds.kenken.puzzle import KenKen
from puzzlebench.run.runner import run
from puzzlebench.solvers.contract import SolveOptions

ROOT = Path(__file__).resolve().parents[2]
WILD = ROOT / "tests" / "data" / "wild" / "kenken"
PUBLISHED = [  # file, detected format, puzzles, sizes, published solutions
    ("keen-ids.txt", "keen", 20, {6}, 0),
    ("arithmatrix-6x6.jsonl", "kenken-json", 5, {6}, 5),
    ("kiguli-3x3-4x4.json", "kenken-json", 4, {3, 4}, 0),
    ("poisonmeatball-NY_Times_Aug_2033.json", "kenken-json", 1, {7}, 0),
    ("letters-5x5.dat", "kenken-letters", 1, {5}, 0),
]


def write(tmp_path: Path, text: str, name: str = "p.json") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def cli(*args) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "puzzlebench", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=300)


def test_kenken_formats_come_from_the_kind_registry():
    assert dict.fromkeys(get_kind("kenken").formats) == dict.fromkeys(["keen", "kenken-json", "kenken-letters"])
    assert {"keen", "kenken-json", "kenken-letters"} <= set(FORMATS)
    assert FORMATS[:3] == ("native", "lines", "janko")  # io's own formats keep their names and order
    assert formats_holding("kenken") == ["native", "keen", "kenken-json", "kenken-letters"]


def test_import_help_offers_the_kind_formats(capsys):
    main(["import", "--help"])  # the CLI's main returns argparse's exit code
    assert "keen,kenken-json,kenken-letters}" in capsys.readouterr().out


@pytest.mark.parametrize("name, fmt, count, sizes, solutions", PUBLISHED)
def test_published_kenken_file_is_read_solved_and_verified(name, fmt, count, sizes, solutions):
    path = WILD / name
    assert detect_format(path) == fmt
    entries = read_puzzles(path)  # no --format, no --puzzle
    assert len(entries) == count and all(type(e.puzzle) is KenKen for e in entries)
    assert {e.puzzle.n for e in entries} == sizes
    assert sum(len(e.solutions) for e in entries) == solutions
    for entry in entries:
        for solution in entry.solutions:
            assert check(entry.puzzle, solution) == [], entry.name
        record = run(entry.puzzle, "binary", "highs", SolveOptions(time_limit=60))
        assert record.status == "optimal" and record.verified, (entry.name, record.message)
        assert check(entry.puzzle, np.array(record.solution)) == []
        if entry.solutions:
            assert any((np.array(record.solution) == s).all() for s in entry.solutions)


@pytest.mark.parametrize("name", [row[0] for row in PUBLISHED])
def test_published_kenken_file_imports_with_one_command(tmp_path, capsys, name):
    out = tmp_path / "instances" / "kenken" / "set"
    assert main(["import", str(WILD / name), "-o", str(out), "--source", "s", "--licence", "l"]) == 0
    assert ": ok: " in capsys.readouterr().out


def test_published_conventions_are_kept():
    keen = read_puzzles(WILD / "keen-ids.txt")[0].puzzle  # 6:a_10a4_...,d3a7d2s1s2a9m6s1d2d2m6a7s2m60a9m6s2
    assert len(keen.cages) == 17 and (keen.cages[0].cells, keen.cages[0].op, keen.cages[0].target) == \
        (((0, 0), (0, 1)), "/", 3)  # "a": one open boundary (between (1,1) and (1,2)), then a wall
    first = sorted(keen.cages, key=lambda c: c.cells[0])
    assert [c.label for c in first[:3]] == ["3/", "7+", "2/"]  # clues in order of the blocks' first cells
    kiguli = read_puzzles(WILD / "kiguli-3x3-4x4.json")  # by size: "3" and "4"; "div" targets as 3.0
    assert [e.name for e in kiguli] == ["3-1", "3-2", "4-1", "4-2"] and [e.line for e in kiguli] == [3, 71, 135, 243]
    assert any(c.op == "/" and c.target == 3 for c in kiguli[0].puzzle.cages)
    poison = read_puzzle(WILD / "poisonmeatball-NY_Times_Aug_2033.json")  # "values": [1..7] is the digits
    assert poison.solution is None and poison.puzzle.cages[0].cells == ((0, 0), (0, 1), (1, 0))
    letters = read_puzzle(WILD / "letters-5x5.dat").puzzle  # "K = 4": a one-cell cage
    assert next(c for c in letters.cages if c.cells == ((4, 0),)).label == "4"
    jsonl = read_puzzles(WILD / "arithmatrix-6x6.jsonl")
    assert [e.line for e in jsonl] == [1, 2, 3, 4, 5]
    assert (read_solutions(WILD / "arithmatrix-6x6.jsonl", jsonl[1].puzzle)[0] == jsonl[1].solution).all()


def test_a_puzzle_with_several_solutions_is_named_by_import_unique(tmp_path, capsys):
    out = tmp_path / "instances" / "kenken" / "kiguli"
    args = ["import", str(WILD / "kiguli-3x3-4x4.json"), "-o", str(out), "--source", "s", "--licence", "l", "--unique"]
    assert main(args) == 2 and not out.exists()
    assert "kiguli-3x3-4x4.json:243: has more than one solution" in capsys.readouterr().err
    assert main(args + ["--skip-invalid"]) == 0
    assert "3 kenken puzzle(s), 3 reference solution(s), 1 left out" in capsys.readouterr().out


# ---------------------------------------------------------------- never a misread across kinds

def test_keen_id_is_never_read_as_solo(tmp_path):
    path = write(tmp_path, (WILD / "keen-ids.txt").read_text().splitlines()[0] + "\n", "k.txt")
    assert detect_format(path) == "keen" and type(read_puzzle(path).puzzle) is KenKen
    with pytest.raises(PuzzleError, match=r"k.txt:1: this is a kenken ID of the keen format, not a Solo or Unruly "
                                          r"ID .*--format keen or --puzzle kenken"):
        read_puzzles(path, format="tatham")
    with pytest.raises(PuzzleError, match=r"the tatham format holds only .*sudoku, killer and takuzu.*not kenken; "
                                          r"kenken is read by the native, keen"):
        read_puzzles(path, format="tatham", puzzle="kenken")
    with pytest.raises(PuzzleError, match="the keen format holds only kenken puzzles, not sudoku"):
        read_puzzles(path, puzzle="sudoku")
    solo = write(tmp_path, "2x2:a1b2c3d4e\n", "solo.txt")  # a Solo ID is still Solo's
    assert detect_format(solo) == "tatham"


CAGES = [  # a 3x3 KenKen in [row, column] pairs, "value" and "operation" keys (the keys a Killer list uses)
    {"cells": [[0, 0], [0, 1]], "operation": "-", "value": 1},
    {"cells": [[0, 2], [1, 2]], "operation": "+", "value": 4},
    {"cells": [[1, 0], [2, 0]], "operation": "/", "value": 3},
    {"cells": [[1, 1], [2, 1], [2, 2]], "operation": "*", "value": 4},
]
CAGES_SOLUTION = np.array([[2, 3, 1], [1, 2, 3], [3, 1, 2]])


def test_operator_carrying_cage_list_is_never_read_as_killer(tmp_path):
    path = write(tmp_path, json.dumps(CAGES))
    assert detect_format(path) == "kenken-json"
    (entry,) = read_puzzles(path)
    assert type(entry.puzzle) is KenKen and check(entry.puzzle, CAGES_SOLUTION) == []
    for kwargs in ({"format": "killer-json"}, {"format": "killer-json", "puzzle": "killer"}):
        with pytest.raises(PuzzleError, match=r"p.json: the file holds kenken cages \(an operation on each\), not "
                                              r"killer cages: read it with --puzzle kenken or --format kenken-json"):
            read_puzzles(path, **kwargs)
    with pytest.raises(PuzzleError, match="the kenken-json format holds only kenken puzzles, not killer"):
        read_puzzles(path, puzzle="killer")
    killer = [{k: v for k, v in cage.items() if k != "operation"} for cage in CAGES]  # no operation: a Killer's
    assert detect_format(write(tmp_path, json.dumps(killer), "k.json")) == "killer-json"


# ---------------------------------------------------------------- puzzles that break the rules

def test_minus_on_three_cells_refuses_that_puzzle_and_skip_invalid_keeps_the_rest(tmp_path, capsys):
    bad = [dict(cage) for cage in CAGES]
    bad[3] = {"cells": [[1, 1], [2, 1], [2, 2]], "operation": "-", "value": 1}
    lines = [json.dumps({"puzzle": {"cages": CAGES, "size": 3, "solution": CAGES_SOLUTION.tolist()}}),
             json.dumps({"puzzle": {"cages": bad, "size": 3}}), json.dumps(CAGES)]
    path = write(tmp_path, "\n".join(lines) + "\n", "p.jsonl")
    entries, refused = read_puzzles_keeping(path)
    assert [e.name for e in entries] == ["1", "3"] and len(entries[0].solutions) == 1
    assert [str(err) for err in refused] == [f"{path}:2: puzzle 2: cage 4 (1-): '-' applies to two cells, not 3"]
    with pytest.raises(PuzzleError, match="applies to two cells, not 3"):
        read_puzzles(path)
    out = tmp_path / "instances" / "kenken" / "skip"
    assert main(["import", str(path), "-o", str(out), "--source", "s", "--licence", "l", "--skip-invalid"]) == 0
    assert "2 kenken puzzle(s), 1 reference solution(s), 1 left out" in capsys.readouterr().out
    refused = cli("import", path, "-o", tmp_path / "instances" / "kenken" / "no", "--source", "s", "--licence", "l")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().splitlines() == [f"puzzlebench: error: {path}:2: puzzle 2: cage 4 (1-): '-' "
                                                   "applies to two cells, not 3 (--skip-invalid imports the rest)"]
    assert not (tmp_path / "instances" / "kenken" / "no").exists()


def test_letters_puzzle_that_breaks_the_rules_is_refused_at_its_line(tmp_path):
    good = "3\nAAB\nCDB\nCDD\nA - 1\nB + 4\nC / 3\nD * 4\n"
    bad = "3\nAAB\nCDB\nCDD\nA - 1\nB + 4\nC / 3\nD - 1\n"
    path = write(tmp_path, good + bad + good, "p.dat")
    assert detect_format(path) == "kenken-letters"
    entries, refused = read_puzzles_keeping(path)
    assert [e.name for e in entries] == ["1", "3"] and check(entries[0].puzzle, CAGES_SOLUTION) == []
    assert [str(err) for err in refused] == [f"{path}:11: cage 4 (1-): '-' applies to two cells, not 3"]


def test_cells_0_based_and_1_based(tmp_path):
    zero = read_puzzle(write(tmp_path, json.dumps(CAGES), "zero.json")).puzzle
    one = [{**cage, "cells": [[r + 1, c + 1] for r, c in cage["cells"]]} for cage in CAGES]
    assert kind_key(read_puzzle(write(tmp_path, json.dumps(one), "one.json")).puzzle) == kind_key(zero)
    flat = [{**cage, "cells": [r * 3 + c for r, c in cage["cells"]]} for cage in CAGES]
    assert kind_key(read_puzzle(write(tmp_path, json.dumps(flat), "flat.json")).puzzle) == kind_key(zero)
    flat1 = [{**cage, "cells": [r * 3 + c + 1 for r, c in cage["cells"]]} for cage in CAGES]
    assert kind_key(read_puzzle(write(tmp_path, json.dumps(flat1), "flat1.json")).puzzle) == kind_key(zero)
    xy = {"width": 3, "height": 3, "rules": [{"op": cage["operation"], "value": cage["value"],
                                              "cells": [{"x": c, "y": r} for r, c in cage["cells"]]} for cage in CAGES]}
    assert kind_key(read_puzzle(write(tmp_path, json.dumps(xy), "xy.json")).puzzle) == kind_key(zero)
    # 1..2 in a grid stated 3x3: neither 0-based (no 0) nor 1-based (not reaching 3): refused, not guessed
    part = {"size": 3, "cages": [{"cells": [[1, 1], [1, 2]], "op": "+", "target": 3}]}
    with pytest.raises(PuzzleError, match=r"puzzle 1: its cells' rows and columns run 1..2: neither 0-based "
                                          r"\(a 0 among them\) nor 1-based \(reaching 3\)"):
        read_puzzles(write(tmp_path, json.dumps(part), "part.json"))


def test_float_targets(tmp_path):
    cages = [dict(cage) for cage in CAGES]
    cages[2]["value"] = 3.0  # Python's 6 / 2
    assert read_puzzle(write(tmp_path, json.dumps(cages))).puzzle.cages[2].target == 3
    cages[2]["value"] = 2.5
    with pytest.raises(PuzzleError, match=r"p.json:1: puzzle 1: cage 3: the target 2.5 is not a whole number"):
        read_puzzles(write(tmp_path, json.dumps(cages)))


def test_json_lines_error_names_its_line(tmp_path):
    path = write(tmp_path, json.dumps(CAGES) + "\n" + json.dumps(CAGES) + "\n{\"cages\": [\n", "p.jsonl")
    entries, refused = read_puzzles_keeping(path)
    assert len(entries) == 2 and len(refused) == 1
    assert str(refused[0]).startswith(f"{path}:3: puzzle 3: not valid JSON")


def test_bad_kenken_input_exits_2_with_one_line(tmp_path):
    path = write(tmp_path, "???\n", "bad.txt")
    result = cli("import", path, "-o", tmp_path / "instances" / "kenken" / "x", "--source", "s", "--licence", "l",
                 "--puzzle", "kenken")
    assert result.returncode == 2 and "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "a kenken file is read by the native, keen, kenken-json, kenken-letters format(s)" in result.stderr
    assert "Keen game ID" in result.stderr and "native header 'kenken N'" in result.stderr


def test_a_kind_format_name_is_checked_at_registration():
    from puzzlebench.kinds.kenken.kind import KIND, KenKenKind

    def kind_with(formats):
        return type("KenKen2", (KenKenKind,), {"name": "kenken2", "formats": formats})()
    with pytest.raises(PuzzleError, match="format name 'Keen IDs' must be lower-case words"):
        register_kind(kind_with({"Keen IDs": KIND.formats["keen"]}))
    with pytest.raises(PuzzleError, match="the reader of format 'x-y' has no read and no looks_like"):
        register_kind(kind_with({"x-y": object()}))
