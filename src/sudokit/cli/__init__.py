"""The ``sudokit`` command: a thin layer that parses arguments, calls the library and prints.

Each subcommand is a function ``(args, err) -> exit status`` set on its parser with
``set_defaults(func=...)``; options that several commands share (the puzzle source and
``--shape``, ``-o``, ``--jobs``) come from parent parsers, so they read and mean the same
everywhere. The commands live by family, one module each (``solving``, ``making``, ``books``,
``service``, ``bank``), each declaring its commands' options and running them; ``args`` holds
what they share: argument types, the parent parsers and the plumbing of every handler.
Each command imports what it runs in its own function, so that a start-up (``sudokit solve``
on a small file is mostly start-up) loads no module another command needs: not the logic
engine, the generator, the progress bar or the worker pools. tests/test_imports.py checks it.

Exit status, the same in every command:

- 0: every input was handled (a solved puzzle, a hint given, a book written);
- 1: some input was bad (unreadable, conflicting, no solution, more than one solution), a
  puzzle could not be finished with the techniques asked for, or an output could not be
  written; each problem is reported on stderr, with its line number for files;
- 1 also: an optional extra that the command needs is not installed (the message names it);
- 2: a usage error (an unknown option or technique, a value out of range, a malformed
  ``--cluster`` address);
- 130: interrupted (Ctrl+C).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from .._shape import MAX_SIDE
from ..errors import ClusterError, InvalidRulesError, MissingExtraError
from .args import Fail, parents

__all__ = ["COMMANDS", "SHAPES_HELP", "main", "parser"]

#: Each command, in the order the help lists them, with the module of its family, which
#: declares it (``NAME_parser``) and runs it: only the invoked command's module is imported.
COMMANDS = {
    "solve": "solving",
    "generate": "making",
    "hunt": "making",
    "explain": "solving",
    "rate": "solving",
    "hint": "solving",
    "techniques": "solving",
    "pdf": "books",
    "svg": "books",
    "serve": "service",
    "play": "service",
    "html": "books",
    "canon": "books",
    "bank": "bank",
}


SHAPES_HELP = (
    f"Shapes: boxes of ROWSxCOLS cells, each side at least 2, giving grids of side 4 to "
    f"{MAX_SIDE} (2x2, 2x3, 3x3, 3x4, 4x4, 5x5, 6x6 ...); square boxes are inferred from the "
    "cell count, others need --shape unless a record states it. Exit status: 0 all done, 1 some "
    "input bad, unsolvable or not unique (each reported on stderr), 2 usage error, 130 "
    "interrupted (Ctrl+C)."
)


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser, for ``command`` (every command when None). A command's
    parser, and the others', cost a start-up more than solving a small file does (and import
    what their choices are made of: the generator's symmetries, the record formats), so only
    ``command`` is made; with no known command, every command is declared without its
    options, for the main help and the error that names the commands."""
    p = argparse.ArgumentParser(
        prog="sudokit",
        description="Generate, solve, rate, explain, print and play Sudoku.",
        epilog=SHAPES_HELP,
    )
    p.add_argument(
        "--version", action=_Version, nargs=0, default=argparse.SUPPRESS, help=_VERSION_HELP
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    par = parents()
    for name, family in COMMANDS.items():
        if command is None or command == name:
            full = True
        elif command not in COMMANDS:  # for the main help, or the error naming the commands
            full = False
        else:
            continue
        module = importlib.import_module(f"{__name__}.{family}")
        getattr(module, f"{name}_parser")(sub, par, full)
    return p


def _command_of(argv: Sequence[str]) -> str:
    """The command ``argv`` names: its first word that is not an option (the main parser's
    own options, -h and --version, take no value); "" when there is none."""
    return next((arg for arg in argv if not arg.startswith("-")), "")


class _Version(argparse.Action):
    """``--version``: the version is read (from the package's metadata) only when asked for."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from .._version import __version__

        sys.stdout.write(f"sudokit {__version__}\n")
        parser.exit()


_VERSION_HELP = "show program's version number and exit"


def _joined_vicinity(argv: Sequence[str]) -> list[str]:
    """``--vicinity -2+2`` as ``--vicinity=-2+2``: argparse takes a value that starts with a
    dash (and is not a plain negative number) for an option, and the forum writes them so."""
    out: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--vicinity":
            value = next(it, None)
            out.append(arg if value is None else f"--vicinity={value}")
        else:
            out.append(arg)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    words = _joined_vicinity(sys.argv[1:] if argv is None else argv)
    args = parser(_command_of(words)).parse_args(words)
    try:
        status: int = args.func(args, sys.stderr)
        sys.stdout.flush()
        return status
    except Fail as e:
        sys.stderr.write(f"{e}\n")
        return e.status
    except InvalidRulesError as e:  # rules a layer does not read yet, or that do not fit
        sys.stderr.write(f"sudokit {args.command}: {e}\n")
        return 1
    except MissingExtraError as e:  # --cluster without Dask, serve without its extra, ...
        sys.stderr.write(f"sudokit {args.command}: {e}\n")
        return 1
    except ClusterError as e:  # the cluster failed the run (unreachable, lost)
        sys.stderr.write(f"sudokit {args.command}: {e}\n")
        return 1
    except KeyboardInterrupt:
        kept = (
            "; finished records are kept (--resume goes on)" if args.command == "generate" else ""
        )
        sys.stderr.write(f"sudokit: interrupted{kept}\n")
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 1
    except OSError as e:  # writing the output failed: a full disk, a closed device
        target = getattr(args, "output", None) or "standard output"
        sys.stderr.write(f"sudokit {args.command}: cannot write {target}: {e.strerror or e}\n")
        _drop_stdout()
        return 1


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush at exit cannot fail again
    with a traceback after the error has been reported."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - no real stdout (captured in tests)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
