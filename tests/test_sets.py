"""The bundled instance library, the sets module, and the ``sets`` / ``validate`` verbs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.checker import check
from puzzlebench.cli import main
from puzzlebench.commands.sets import size_range
from puzzlebench.errors import PuzzleError
from puzzlebench.io.sets import (
    discover_sets,
    get_set,
    instances_root,
    load_set,
    select_sets,
)

BUNDLED = Path(__file__).resolve().parents[1] / "instances"

# name: (puzzle, count, every puzzle has a reference solution, sizes)
SHIPPED = {
    "sudoku/top95": ("sudoku", 95, False, "9x9"),
    "sudoku/hardest": ("sudoku", 11, False, "9x9"),
    "sudoku/magictour200": ("sudoku", 200, False, "9x9"),
    "sudoku/17clue200": ("sudoku", 200, False, "9x9"),
    "sudoku/exchange-by-rating": ("sudoku", 278, False, "9x9"),
    "sudoku/exchange-solved": ("sudoku", 100, True, "9x9"),
    "sudoku/janko16": ("sudoku", 94, True, "16x16"),
    "sudoku/frisch25": ("sudoku", 16, False, "25x25"),
    "killer/janko": ("killer", 115, True, "4x4..9x9"),
    "killer/janko-x": ("killer", 10, True, "9x9"),
    "kakuro/janko": ("kakuro", 58, True, "6x6..31x46"),
    "kakuro/janko-nonunique": ("kakuro", 1, True, "24x28"),
    "takuzu/janko": ("takuzu", 94, True, "8x8..14x14"),
    "takuzu/janko20": ("takuzu", 1, False, "20x20"),
}

EASY = "050703060007000800000816000000030000005000100730040086906000204840572093000409000"
EASY_SOLUTION = "158723469367954821294816375619238547485697132732145986976381254841572693523469718"

# A 4x4 Binairo in the puzzlekit JSON layout whose reference solution repeats rows 1 and 3:
# valid under janko's rules, invalid once rows must be distinct.
BINAIRO = {"count": 1, "count_sol": 1, "name": "Binairo", "data": {"1_4x4": {
    "problem": "4 4\n1 - - -\n- - - -\n- - - 2\n- - - -",
    "solution": "4 4\n1 2 1 2\n2 1 2 1\n1 2 1 2\n2 1 2 1",
    "source": "", "info": ""}}}


@pytest.fixture(autouse=True)
def no_instance_env(monkeypatch):
    monkeypatch.delenv("PUZZLEBENCH_INSTANCES", raising=False)


def make_set(root: Path, name: str, files: dict[str, str], set_yaml: str | None = None) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    for file_name, text in files.items():
        (folder / file_name).write_text(text)
    if set_yaml is not None:
        (folder / "set.yaml").write_text(set_yaml)
    return folder


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the shipped library -------------------------------------------------------------------

def test_bundled_root_is_the_repository_instances_folder():
    assert instances_root().resolve() == BUNDLED


def test_every_expected_set_is_shipped_with_provenance():
    names = {s.name for s in discover_sets()}
    assert set(SHIPPED) <= names
    for name in SHIPPED:
        s = get_set(name)
        assert (s.path / "SOURCE.md").is_file(), name
        assert s.meta["source"] and s.meta["licence"], name
        assert s.files, name


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_set_parses_and_every_reference_solution_passes_the_checker(name):
    puzzle, count, all_solved, sizes = SHIPPED[name]
    s = get_set(name)
    entries = s.entries()
    assert s.puzzle == puzzle
    assert len(entries) == s.meta["count"] == count
    assert len({e.name for e in entries}) == len(entries), "entry names must be unique in a set"
    assert all(e.puzzle.puzzle == puzzle for e in entries)
    assert size_range(e.puzzle.shape for e in entries) == sizes
    solved = [e for e in entries if e.solution is not None]
    assert len(solved) == (count if all_solved else 0)
    for e in solved:
        assert check(e.puzzle, e.solution) == [], e.name


def test_every_other_shipped_set_parses_to_its_count_and_valid_solutions():
    """The seed sets, shipped with the file readers, obey the same rules."""
    others = [s for s in discover_sets() if s.name not in SHIPPED]
    for s in others:
        entries = s.entries()
        assert len(entries) == s.meta.get("count", len(entries)) > 0, s.name
        for e in entries:
            if e.solution is not None:
                assert check(e.puzzle, e.solution) == [], e.name


def test_janko_rule_options_reach_the_puzzles():
    assert all(not e.puzzle.distinct_lines for e in get_set("takuzu/janko").entries())
    assert all(e.puzzle.diagonal for e in get_set("killer/janko-x").entries())
    assert not any(e.puzzle.diagonal for e in get_set("killer/janko").entries())


def test_janko_records_keep_their_source_url():
    entries = get_set("kakuro/janko").entries()
    assert all(e.extra.get("url", "").startswith("https://www.janko.at/Raetsel/Kakuro/") for e in entries)


def test_tagged_sets_exist_and_are_small():
    tagged = select_sets(["tag:default"])
    assert {s.puzzle for s in tagged} >= {"sudoku", "killer", "takuzu"}
    assert all(s.meta["count"] <= 120 for s in tagged)


# --- discovery, naming and set.yaml --------------------------------------------------------

def test_a_folder_with_a_lines_file_and_no_yaml_is_a_set(tmp_path):
    make_set(tmp_path, "sudoku/mine", {"puzzles.txt": f"# two puzzles\n{EASY}\n{'.' * 81}\n",
                                       "SOURCE.md": "made up\n", "README.txt": "not a puzzle\n"})
    (s,) = discover_sets(tmp_path)
    assert (s.name, s.puzzle, s.format, s.options) == ("sudoku/mine", "sudoku", None, {})
    assert [p.name for p in s.files] == ["puzzles.txt"]
    assert [e.name for e in s.entries()] == ["puzzles.txt#1", "puzzles.txt#2"]
    assert s.count() == 2


def test_companion_solution_files_give_reference_solutions(tmp_path, capsys):
    make_set(tmp_path, "sudoku/companion", {"p.txt": f"{EASY}\n{EASY}\n",
                                            "p.solution.txt": f"{EASY_SOLUTION}\n{EASY_SOLUTION[::-1]}\n"})
    s = get_set("sudoku/companion", tmp_path)
    assert [p.name for p in s.files] == ["p.txt"]
    first, second = s.entries()
    assert "".join(map(str, first.solution.ravel())) == EASY_SOLUTION
    assert check(first.puzzle, first.solution) == [] and check(second.puzzle, second.solution)
    code, out, _ = run_cli(capsys, "validate", "sudoku/companion", "--root", str(tmp_path))
    assert code == 1 and "sudoku/companion/p.txt#2: reference solution: " in out


def test_root_comes_from_the_environment(tmp_path, monkeypatch):
    make_set(tmp_path, "sudoku/env", {"p.txt": EASY + "\n"})
    monkeypatch.setenv("PUZZLEBENCH_INSTANCES", str(tmp_path))
    assert instances_root() == tmp_path
    assert [s.name for s in discover_sets()] == ["sudoku/env"]


@pytest.mark.parametrize("distinct", [True, False])
def test_set_yaml_options_pass_through_to_the_reader(tmp_path, distinct):
    make_set(tmp_path, "puzzles/binairo", {"b.json": json.dumps(BINAIRO)},
             f"puzzle: takuzu\nformat: janko\noptions: {{distinct_lines: {str(distinct).lower()}}}\n")
    s = get_set("puzzles/binairo", tmp_path)
    (entry,) = s.entries()
    assert s.puzzle == "takuzu" and entry.name == "b.json#1_4x4"
    assert entry.puzzle.distinct_lines is distinct
    assert bool(check(entry.puzzle, entry.solution)) is distinct


def test_files_globs_choose_the_puzzle_files(tmp_path):
    make_set(tmp_path, "sudoku/globbed", {"a.txt": EASY + "\n", "b.txt": EASY + "\n", "notes.md": "x\n"},
             'files: ["b.txt", "*.txt"]\n')
    assert [p.name for p in get_set("sudoku/globbed", tmp_path).files] == ["b.txt", "a.txt"]


@pytest.mark.parametrize("text, line, words", [
    ("puzzle: sudoku\noptions: {distinct_lines: [\n", 3, "malformed YAML"),
    ("puzzle: sudoku\nformat: lines\nformats: lines\n", 3, "unknown key"),
    ("format: lines\npuzzle: sudokuu\n", 2, "no puzzle"),
    ("format: csv\n", 1, "no format"),
    ("count: many\n", 1, "whole number"),
    ("tags: default\n", 1, "list of strings"),
    ("files: [\"*.csv\"]\n", 1, "matches no file"),
    ("count: 1\ncount: 2\n", 2, "twice"),
    ("- a\n- b\n", 1, "mapping"),
])
def test_a_malformed_set_yaml_names_the_file_and_line(tmp_path, text, line, words):
    folder = make_set(tmp_path, "sudoku/broken", {"p.txt": EASY + "\n"}, text)
    with pytest.raises(PuzzleError) as info:
        discover_sets(tmp_path)
    assert info.value.path == str(folder / "set.yaml")
    assert info.value.line == line
    assert words in str(info.value) and str(info.value).startswith(f"{folder / 'set.yaml'}:{line}: ")


def test_files_globs_stay_inside_the_set_folder(tmp_path):
    make_set(tmp_path, "sudoku/greedy", {"p.txt": EASY + "\n"}, 'files: ["../*.txt"]\n')
    (tmp_path / "sudoku" / "stray.txt").write_text(EASY + "\n")
    with pytest.raises(PuzzleError, match="reaches outside the set folder"):
        get_set("sudoku/greedy", tmp_path)


def test_a_set_outside_a_puzzle_folder_must_name_its_puzzle(tmp_path):
    folder = make_set(tmp_path, "mine/a", {"p.txt": EASY + "\n"})
    with pytest.raises(PuzzleError, match="must say 'puzzle:'"):
        load_set("mine/a", folder)


# --- selecting sets ------------------------------------------------------------------------

@pytest.fixture
def three_sets(tmp_path):
    make_set(tmp_path, "sudoku/a", {"p.txt": EASY + "\n"}, "tags: [quick]\n")
    make_set(tmp_path, "sudoku/b", {"p.txt": EASY + "\n"})
    make_set(tmp_path, "takuzu/seed", {"b.json": json.dumps(BINAIRO)}, "format: janko\n")
    (tmp_path / "sudoku" / "empty").mkdir()  # no files, no set.yaml: not a set
    return tmp_path


def test_select_sets_globs_in_pattern_order_without_duplicates(three_sets):
    def names(*patterns):
        return [s.name for s in select_sets(list(patterns), three_sets)]
    assert names("sudoku/*") == ["sudoku/a", "sudoku/b"]
    assert names("*/seed", "sudoku/b", "sudoku/*") == ["takuzu/seed", "sudoku/b", "sudoku/a"]
    assert names("tag:quick") == ["sudoku/a"]
    assert names("*") == ["sudoku/a", "sudoku/b", "takuzu/seed"]


@pytest.mark.parametrize("pattern", ["kakuro/*", "tag:slow"])
def test_a_pattern_matching_nothing_is_an_error(three_sets, pattern):
    with pytest.raises(PuzzleError, match="known: sudoku/a, sudoku/b, takuzu/seed"):
        select_sets([pattern], three_sets)


def test_an_unknown_set_lists_the_known_ones(three_sets):
    with pytest.raises(PuzzleError) as info:
        get_set("sudoku/c", three_sets)
    assert "unknown instance set 'sudoku/c'" in str(info.value)
    assert "known: sudoku/a, sudoku/b, takuzu/seed" in str(info.value)


# --- the sets verb -------------------------------------------------------------------------

def test_size_range():
    assert size_range([(9, 9)] * 3) == "9x9"
    assert size_range([(14, 14), (10, 10), (12, 12)]) == "10x10..14x14"
    assert size_range([]) == "-"


def test_sets_lists_counts_sizes_options_and_tags(three_sets, capsys):
    code, out, _ = run_cli(capsys, "sets", "--root", str(three_sets))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["set", "puzzle", "count"]
    assert lines[1].split() == ["sudoku/a", "sudoku", "1", "auto", "9x9", "-", "quick"]
    assert lines[3].split()[:5] == ["takuzu/seed", "takuzu", "1", "janko", "4x4"]
    code, out, _ = run_cli(capsys, "sets", "--json", "--root", str(three_sets))
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["sudoku/a"]["tags"] == ["quick"] and rows["takuzu/seed"]["sizes"] == "4x4"


def test_sets_reports_a_set_with_a_bad_file(tmp_path, capsys):
    make_set(tmp_path, "sudoku/bad", {"p.txt": EASY[:80] + "\n"})
    code, out, err = run_cli(capsys, "sets", "--root", str(tmp_path))
    assert code == 2
    assert "bad file" in out and "sudoku/bad" in err


# --- the validate verb ---------------------------------------------------------------------

def test_validate_reports_every_malformed_file_with_its_line_and_exits_2(tmp_path, capsys):
    folder = make_set(tmp_path, "sudoku/bad", {
        "a.txt": f"{EASY}\n{EASY[:80]}\n",
        "b.txt": f"# header\n{EASY}\n{EASY}\n{'x' * 81}\n",
        "c.txt": f"{EASY}\n"})
    code, out, _ = run_cli(capsys, "validate", "sudoku/bad", "--root", str(tmp_path))
    assert code == 2
    assert f"{folder / 'a.txt'}:2: " in out
    assert f"{folder / 'b.txt'}:4: " in out
    assert "sudoku/bad: FAILED: 1 puzzle(s) in 3 file(s), 2 bad file(s)" in out


def test_validate_reports_a_wrong_reference_solution_and_exits_1(tmp_path, capsys):
    wrong = EASY_SOLUTION[:1] + EASY_SOLUTION[2] + EASY_SOLUTION[1] + EASY_SOLUTION[3:]  # swap two cells
    make_set(tmp_path, "sudoku/solved", {"p.txt": f"{EASY} {EASY_SOLUTION}\n{EASY} {wrong}\n"})
    code, out, _ = run_cli(capsys, "validate", "sudoku/solved", "--root", str(tmp_path))
    assert code == 1
    assert "sudoku/solved/p.txt#2: reference solution: " in out
    assert "sudoku/solved/p.txt#1" not in out
    assert "1/2 reference solutions valid" in out


def test_validate_passes_a_good_set_and_checks_the_yaml_count(tmp_path, capsys):
    make_set(tmp_path, "sudoku/good", {"p.txt": f"{EASY} {EASY_SOLUTION}\n"}, "count: 1\n")
    make_set(tmp_path, "sudoku/miscounted", {"p.txt": f"{EASY}\n"}, "count: 2\n")
    code, out, _ = run_cli(capsys, "validate", "sudoku/good", "--root", str(tmp_path))
    assert code == 0
    assert out.strip() == "sudoku/good: ok: 1 puzzle(s) in 1 file(s), 1/1 reference solutions valid"
    code, out, _ = run_cli(capsys, "validate", "sudoku/*", "--root", str(tmp_path))
    assert code == 2
    assert "count is 2 but the files hold 1 puzzles" in out


def test_validate_applies_the_set_options(tmp_path, capsys):
    for name, distinct in (("plain", "false"), ("distinct", "true")):
        make_set(tmp_path, f"takuzu/{name}", {"b.json": json.dumps(BINAIRO)},
                 f"options: {{distinct_lines: {distinct}}}\n")
    code, out, _ = run_cli(capsys, "validate", "takuzu/plain", "--root", str(tmp_path))
    assert code == 0
    code, out, _ = run_cli(capsys, "validate", "takuzu/distinct", "--root", str(tmp_path))
    assert code == 1 and "takuzu/distinct/b.json#1_4x4: reference solution: rows 1 and 3 are equal" in out


def test_validate_unknown_set_exits_2(tmp_path, capsys):
    make_set(tmp_path, "sudoku/a", {"p.txt": EASY + "\n"})
    code, _, err = run_cli(capsys, "validate", "sudoku/zzz", "--root", str(tmp_path))
    assert code == 2 and "known: sudoku/a" in err


def test_validate_unique_certifies_and_refutes_uniqueness(tmp_path, capsys):
    make_set(tmp_path, "sudoku/mixed", {"p.txt": f"{EASY} {EASY_SOLUTION}\n{'0' * 81}\n"})
    code, out, _ = run_cli(capsys, "validate", "sudoku/mixed", "--unique", "--root", str(tmp_path))
    assert code == 1
    assert "sudoku/mixed/p.txt#2: has more than one solution" in out
    assert "p.txt#1" not in out
    assert "1/2 unique" in out



def test_validate_unique_reports_an_unfinished_count(tmp_path, capsys, monkeypatch):
    import puzzlebench.run.runner
    monkeypatch.setattr(puzzlebench.run.runner, "count_solutions",
                        lambda puzzle, formulation, solver, limit, options, process: (1, [], "time_limit"))
    make_set(tmp_path, "sudoku/slow", {"p.txt": f"{EASY}\n"})
    code, out, _ = run_cli(capsys, "validate", "sudoku/slow", "--unique", "--root", str(tmp_path))
    assert code == 1
    assert "sudoku/slow/p.txt#1: uniqueness not certified: the search ended with time_limit" in out
    assert "0/1 unique, 1 not certified" in out


def test_blank65_set_is_the_ladder_solutions_with_65_percent_blank():
    """sudoku/blank65-36 is what its SOURCE.md says: the 36x36 ladder solutions, 842 of 1,296 cells blank."""
    from puzzlebench.io import read_puzzle, read_solution
    root = Path(__file__).resolve().parents[1] / "instances" / "sudoku"
    for i in (1, 2, 3):
        puzzle = read_puzzle(root / "blank65-36" / f"blank65-36x36-0{i}.txt").puzzle
        ladder = root / "ladder" / f"sudoku-36x36-0{i}"
        solution = np.asarray(read_solution(f"{ladder}.solution.txt", read_puzzle(f"{ladder}.txt").puzzle))
        given = puzzle.givens > 0
        assert (puzzle.givens.shape, int((~given).sum())) == ((36, 36), 842)
        assert (puzzle.givens[given] == solution[given]).all()


def test_native_companion_file_holds_one_solution_per_puzzle_in_order(tmp_path, capsys):
    from test_check_cli import GIVEN_1, GIVEN_2, SUDOKU_4, SUDOKU_4B, grid_text
    make_set(tmp_path, "sudoku/pairs", {"p.txt": GIVEN_1 + GIVEN_2,
                                        "p.solution.txt": grid_text(SUDOKU_4) + "\n" + grid_text(SUDOKU_4B)})
    first, second = get_set("sudoku/pairs", tmp_path).entries()
    assert first.solution.tolist() == SUDOKU_4 and second.solution.tolist() == SUDOKU_4B
    code, out, _ = run_cli(capsys, "validate", "sudoku/pairs", "--root", str(tmp_path))
    assert code == 0, out
    (tmp_path / "sudoku/pairs/p.solution.txt").write_text(grid_text(SUDOKU_4) * 3)
    code, out, _ = run_cli(capsys, "validate", "sudoku/pairs", "--root", str(tmp_path))
    assert code == 2 and "p.solution.txt:9: a grid beyond the 2 puzzles' solutions" in out, out
