"""The ``puzzlebench`` command line.

Each verb is one module in :mod:`puzzlebench.commands` (``import_`` for ``import``) with ``HELP``,
its line in ``--help``, and ``register(subparsers)``, which adds its parser and sets ``func`` to the
function that runs it; a module imports at its top only what ``--help`` may load (no numerical
library), the rest where it is used.  Bad input ends in one line on stderr and exit code 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import NoReturn

import puzzlebench

from . import __version__, commands
from .errors import PuzzleError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, as for every other bad input
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser.  Given the arguments ``argv``, only the verb they name is built whole
    (its module imported, its options added: a verb's options may ask the registries); the others
    are listed by their ``HELP`` line, so ``--help`` and a one-puzzle ``solve`` load no other
    verb's parts.  With no ``argv``, every verb is built whole."""
    parser = _Parser(prog="puzzlebench", description=puzzlebench.__doc__)
    parser.add_argument("--version", action="version", version=f"puzzlebench {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")
    named = None if argv is None else next((word for word in argv if not word.startswith("-")), "")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            module = importlib.import_module(f"{commands.__name__}.{info.name}")
            verb = info.name.rstrip("_")  # import_ is the verb import
            if named is None or verb == named:
                module.register(sub)
            else:
                sub.add_parser(verb, help=module.HELP)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        argv = sys.argv[1:] if argv is None else argv
        args = build_parser(argv).parse_args(argv)
    except SystemExit as done:  # --help, --version, or a bad option (its one line already printed)
        return done.code if isinstance(done.code, int) else 0
    except PuzzleError as err:  # a puzzle kind from an installed package that does not load (the --puzzle choices)
        print(f"puzzlebench: error: {err}", file=sys.stderr)
        return 2
    from .system.processes import exit_on_sigterm, watch_workflow
    exit_on_sigterm()   # SIGTERM unwinds: the solver process killed, temporary files removed
    watch_workflow()    # a job of a workflow that was killed (kill -9 included) ends too
    try:
        return int(args.func(args) or 0)
    except PuzzleError as err:
        print(f"puzzlebench: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        where = f"{err.filename}: " if err.filename else ""   # (a write to an open file names none)
        print(f"puzzlebench: error: {where}{err.strerror or err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("puzzlebench: interrupted", file=sys.stderr)
        return 130


def console() -> NoReturn:
    """The ``puzzlebench`` program (and ``python -m puzzlebench``): :func:`main`, then the end of the
    process without the interpreter's teardown.

    Tearing down the interpreter frees every object of numpy, scipy and the solver libraries one by
    one: about a tenth of a one-puzzle ``solve``'s wall time, for nothing the user sees.  So, with
    the command done, its output is flushed, the ``atexit`` handlers run (the multiprocessing and
    temporary-file clean-ups, coverage's data), and the process ends with ``os._exit``.  When that
    would cut something short (a thread that is not a daemon still runs, or the output cannot be
    flushed: a closed pipe) it exits the usual way instead, as ``SystemExit`` does."""
    import atexit
    import os
    import threading

    code = main()
    if any(t is not threading.main_thread() and not t.daemon for t in threading.enumerate()):
        raise SystemExit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe or stream: Python's own exit reports it
        raise SystemExit(code) from None
    atexit._run_exitfuncs()
    os._exit(code)
