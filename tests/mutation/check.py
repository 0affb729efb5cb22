"""The mutation check: mutmut on the trust-critical modules, then each module's score against the
threshold (docs/testing.md, "Mutation testing").

    python tests/mutation/check.py [--max-children N] [MODULE ...]

MODULE is a path of ``[tool.mutmut] only_mutate`` (default: all of them).  Exit 0 when every
module checked reaches ``[tool.puzzlebench.mutation] threshold``, 1 when one does not (or an
equivalent-mutant entry is stale, or mutmut fails), 2 on a usage error.  mutmut keeps its
results in mutants/ (a second run rebuilds the map of which test calls which function and
retests every mutant of the modules named: a quicker run is a run on fewer modules), and
``python tests/mutation/score.py`` scores them again without running anything.

mutmut names a mutant after its file's path (``analysis/stats.py`` -> ``analysis.stats``), but the
plug-in folders are imported as ``puzzlebench.analysis`` and ``puzzlebench.formulations``
(``[tool.setuptools.package-dir]``), and mutmut activates a mutant only in the module of that
name.  So this script renames them before mutmut starts: ``analysis.stats`` ->
``puzzlebench.analysis.stats``; and it links ``mutants/puzzlebench/analysis`` (and ``formulations``)
to the mutated copies of the folders, so the tests in ``mutants/`` import them there, not the
install's.  It imports mutmut's internals, hence the pinned version in the ``dev`` extra.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import score  # noqa: E402  (beside this file)


def package_of_folder(root: Path) -> dict[str, str]:
    """{folder: package} of the folders pyproject maps to a package of another name."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return {folder: package for package, folder in config["tool"]["setuptools"].get("package-dir", {}).items()}


def dotted(path: str, packages: dict[str, str]) -> str:
    """The module name a path is imported as: analysis/stats.py -> puzzlebench.analysis.stats."""
    head, _, rest = path.removesuffix(".py").replace("/", ".").partition(".")
    return f"{packages.get(head, head)}.{rest}" if rest else packages.get(head, head)


def rename_mutants(packages: dict[str, str]) -> None:
    """Make mutmut name each mutant after the module its file is imported as."""
    import mutmut.__main__ as cli
    from mutmut.mutation import file_mutation
    from mutmut.utils import format_utils

    original = format_utils.get_mutant_name

    def get_mutant_name(relative_source_path, mutant_method_name):
        name = original(relative_source_path, mutant_method_name)
        head, _, rest = name.partition(".")
        return f"{packages[head]}.{rest}" if head in packages else name

    for module in (format_utils, file_mutation, cli):
        module.get_mutant_name = get_mutant_name


def link_plugin_folders(packages: dict[str, str]) -> None:
    """After mutmut copies the tree into mutants/, make each mapped folder a subpackage there
    (``mutants/puzzlebench/analysis`` -> ``mutants/analysis``): the build backend's mapping (the
    install's) points at the source tree, not at the mutated copy."""
    import mutmut.__main__ as cli

    setup_source_paths = cli.setup_source_paths

    def linked_then_set_up() -> None:
        for folder, package in packages.items():
            parent, _, name = package.rpartition(".")
            link = Path("mutants", *parent.split("."), name)
            if not link.is_symlink() and (Path("mutants") / folder).is_dir():
                link.symlink_to(Path(*[".."] * len(parent.split("."))) / folder, target_is_directory=True)
        setup_source_paths()

    cli.setup_source_paths = linked_then_set_up


def run_mutmut(patterns: list[str], max_children: int) -> int:
    import mutmut.__main__ as cli

    try:
        cli.cli.main(["run", "--max-children", str(max_children), *patterns], standalone_mode=False)
    except SystemExit as stop:
        return int(stop.code or 0)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE", help="paths of only_mutate (default: all)")
    parser.add_argument("--max-children", type=int, default=1, help="parallel mutant workers (default 1)")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    known = score.settings(ROOT).modules
    if unknown := [m for m in args.modules if m not in known]:
        parser.error(f"not in [tool.mutmut] only_mutate: {', '.join(unknown)}")
    packages = package_of_folder(ROOT)
    rename_mutants(packages)
    link_plugin_folders(packages)
    modules = args.modules or known
    # mutmut keeps the map of which test calls which function from its last run, and adds only
    # tests of new names to it: a changed test would keep its old calls, so the map is rebuilt
    (ROOT / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    # named patterns make mutmut retest every mutant of the modules: without them it keeps a
    # survivor's verdict even after new tests were written for it
    if code := run_mutmut([f"{dotted(m, packages)}.*" for m in modules], args.max_children):
        print(f"mutmut failed (exit {code})", file=sys.stderr)
        return 1
    return score.main(args.modules, ROOT)


if __name__ == "__main__":
    sys.exit(main())
