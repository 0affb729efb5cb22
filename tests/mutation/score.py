"""The mutation score of each trust-critical module, from mutmut's results, against the threshold.

score(module) = killed / (mutants - equivalent), in percent, where a mutant counts as killed when
a test failed on it or it ran out of time (mutmut's "killed" and "timeout"); a survivor, a mutant
no test ran ("no tests") and one not checked yet count against the module.  An *equivalent*
mutant is one no test can kill because it does not change behaviour; each is listed in
``tests/mutation/equivalent.toml`` with the changed line and the reason.  An entry whose mutant
no longer makes that change (the code moved, mutmut renumbered), or that a test now kills, is
*stale*: it is reported and fails the check, so the list cannot hide a real survivor.

The module set and the threshold are read from ``pyproject.toml`` (``[tool.mutmut] only_mutate``,
``[tool.puzzlebench.mutation]``); mutmut writes each module's results to ``mutants/<path>.meta``.

    python tests/mutation/score.py [MODULE ...]

prints the table (docs/testing.md, "Mutation testing") and exits 0 when every module (default: all of
``only_mutate``) reaches the threshold, 1 otherwise; ``tests/mutation/check.py`` runs mutmut first.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from mutmut.stats import status_by_exit_code

DETECTED = ("killed", "timeout")


def status(exit_code: int | None) -> str:
    """mutmut's name of a mutant's exit code: killed, survived, no tests, timeout, ..."""
    return status_by_exit_code[exit_code]


@dataclass(frozen=True)
class Settings:
    modules: tuple[str, ...]       # paths, as in only_mutate
    threshold: float               # percent
    equivalent: Path               # the list of equivalent mutants


def settings(root: Path) -> Settings:
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    ours = config["puzzlebench"]["mutation"]
    return Settings(tuple(config["mutmut"]["only_mutate"]), float(ours["threshold"]), root / ours["equivalent"])


@dataclass(frozen=True)
class Equivalent:
    mutant: str                    # mutmut's name, e.g. puzzlebench.checker.x_check__mutmut_3
    change: str                    # the mutated line, as mutmut's diff shows it (stripped)
    reason: str


def equivalents(path: Path) -> dict[str, Equivalent]:
    """The listed equivalent mutants by name; a malformed entry is a ValueError naming it."""
    if not path.is_file():
        return {}
    out = {}
    for number, entry in enumerate(tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", []), 1):
        if not all(isinstance(entry.get(key), str) and entry[key].strip() for key in ("mutant", "change", "reason")):
            raise ValueError(f"{path}: equivalent entry {number} needs mutant, change and reason")
        if entry["mutant"] in out:
            raise ValueError(f"{path}: {entry['mutant']} is listed twice")
        out[entry["mutant"]] = Equivalent(entry["mutant"], entry["change"].strip(), entry["reason"].strip())
    return out


@dataclass
class ModuleScore:
    module: str
    counts: dict[str, int] = field(default_factory=dict)   # status -> mutants, equivalents left out
    equivalent: int = 0
    not_killed: dict[str, list[str]] = field(default_factory=dict)   # status -> mutant names

    @property
    def mutants(self) -> int:
        return sum(self.counts.values())

    @property
    def killed(self) -> int:
        return sum(self.counts.get(s, 0) for s in DETECTED)

    @property
    def score(self) -> float:
        """Percent killed of the mutants that are not equivalent (100 when there are none)."""
        return 100.0 * self.killed / self.mutants if self.mutants else 100.0


def dotted_module(mutant: str) -> str:
    """The module of a mutant name: puzzlebench.checker.x_check__mutmut_3 -> puzzlebench.checker."""
    return mutant.partition("__mutmut_")[0].rpartition(".")[0]


def scores(exit_codes: dict[str, dict[str, int | None]], listed: dict[str, Equivalent],
           diff_of=None) -> tuple[list[ModuleScore], list[str]]:
    """(one ModuleScore per module of ``exit_codes`` ({path: {mutant: exit code}}), stale entries).

    ``diff_of(mutant)`` gives the mutant's diff text, to check each listed equivalent still makes
    the change it is listed for (skipped when None).  A listed mutant that is killed, or that its
    module (when checked) no longer has, is stale too."""
    out, stale = [], []
    known = set()
    for path, codes in exit_codes.items():
        score = ModuleScore(path)
        for mutant, code in sorted(codes.items()):
            known.add(mutant)
            state = status(code)
            entry = listed.get(mutant)
            if entry is not None:
                added = [] if diff_of is None else [line[1:].strip() for line in diff_of(mutant).splitlines()
                                                    if line.startswith("+") and not line.startswith("+++")]
                if state in DETECTED:
                    stale.append(f"{mutant}: listed as equivalent but {state}")
                elif diff_of is not None and entry.change not in added:
                    stale.append(f"{mutant}: listed as equivalent for `{entry.change}`, now changes "
                                 f"`{' / '.join(added) or 'nothing'}`")
                else:
                    score.equivalent += 1
                    continue
            score.counts[state] = score.counts.get(state, 0) + 1
            if state not in DETECTED:
                score.not_killed.setdefault(state, []).append(mutant)
        out.append(score)
    checked = {dotted_module(name) for name in known}
    stale += [f"{name}: listed as equivalent but no such mutant" for name in sorted(set(listed) - known)
              if dotted_module(name) in checked]
    return out, stale


def read_results(root: Path, modules) -> dict[str, dict[str, int | None]]:
    """{module path: {mutant: exit code}} from mutmut's ``mutants/<path>.meta`` (empty without one)."""
    out = {}
    for module in modules:
        meta = root / "mutants" / f"{module}.meta"
        out[module] = json.loads(meta.read_text())["exit_code_by_key"] if meta.is_file() else {}
    return out


def passes(result: ModuleScore, threshold: float) -> bool:
    """At least ``threshold`` percent killed, and mutmut ran on the module (it has mutants)."""
    return result.score >= threshold and result.mutants + result.equivalent > 0


def report(results: list[ModuleScore], threshold: float) -> tuple[str, bool]:
    """A Markdown table of the scores and whether every module reaches ``threshold``."""
    lines = ["| module | mutants | killed | survived | no tests | equivalent | score |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    ok = True
    for r in results:
        passed = passes(r, threshold)
        ok &= passed
        lines.append(f"| `{r.module}` | {r.mutants + r.equivalent} | {r.killed} | {r.counts.get('survived', 0)} | "
                     f"{r.counts.get('no tests', 0) + r.counts.get('not checked', 0)} | {r.equivalent} | "
                     f"{r.score:.1f}%{'' if passed else ' (below ' + format(threshold, 'g') + '%)'} |")
    return "\n".join(lines), ok


def function_counts(names: list[str]) -> str:
    """``x_gather: 3, x_read_table: 1``: how many of ``names`` each function has."""
    counts: dict[str, int] = {}
    for name in names:
        function = name.partition("__mutmut_")[0].rpartition(".")[2]
        counts[function] = counts.get(function, 0) + 1
    return ", ".join(f"{f}: {k}" for f, k in counts.items())


def evaluate(root: Path, modules=None, diff_of=None) -> tuple[str, bool]:
    """The report of ``modules`` (default: all) from the results under ``root``, and whether it passes."""
    config = settings(root)
    modules = list(modules or config.modules)
    if unknown := [m for m in modules if m not in config.modules]:
        raise ValueError(f"not in [tool.mutmut] only_mutate: {', '.join(unknown)}")
    results, stale = scores(read_results(root, modules), equivalents(config.equivalent), diff_of)
    table, ok = report(results, config.threshold)
    lines = [table]
    for r in results:
        for state, names in sorted(r.not_killed.items()):
            listing = ", ".join(names) if state == "survived" else function_counts(names)
            lines.append(f"{r.module}: {state} ({len(names)}): {listing}")
    lines += [f"stale equivalent entry: {line}" for line in stale]
    failed = sum(not passes(r, config.threshold) for r in results)
    lines.append(f"mutation: {len(results) - failed} passed, {failed} failed")
    return "\n".join(lines), ok and not stale


def diff_from_mutmut(mutant: str) -> str:
    """mutmut's diff of ``mutant`` (run from the project root, after mutmut has run)."""
    from mutmut.mutation.diff_apply import find_mutant, get_diff_for_mutant
    return get_diff_for_mutant(mutant, path=find_mutant(mutant).path)


def main(argv=None, root: Path = Path(__file__).resolve().parents[2]) -> int:
    parser = argparse.ArgumentParser(description="The mutation score of each trust-critical module.")
    parser.add_argument("modules", nargs="*", metavar="MODULE", help="paths of only_mutate (default: all)")
    args = parser.parse_args(argv)
    os.chdir(root)
    try:
        text, ok = evaluate(root, args.modules, diff_from_mutmut)
    except ValueError as err:
        print(f"score.py: {err}", file=sys.stderr)
        return 2
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
