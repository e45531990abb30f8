"""The ``gridcount`` command line: a thin layer over the counting library.

Every command opens what it needs, calls the library (:mod:`counting.job`,
:mod:`counting.store.database`, :mod:`counting.verify`, :mod:`grids.puzzles`) and
formats the result; errors become one line on stderr and a non-zero exit.

The commands live in six modules: :mod:`counting.cli.count` (``count``,
``classes``, ``verify``), :mod:`counting.cli.store` (``status``,
``export``, ``merge``, ``recount``), :mod:`counting.cli.report`
(``report``), :mod:`counting.cli.puzzles` (``solve``, ``check``,
``count-solutions``, and the registration of the puzzle commands),
:mod:`counting.cli.generate` (``generate``) and :mod:`counting.cli.explain`
(``explain``).  This module holds the group and :func:`main`; what the
commands share is :mod:`counting.cli.common` (and, for the puzzle commands,
:mod:`counting.cli.puzzle_io`; for ``classes --group``,
:mod:`counting.cli.full_group`).  The group imports a command's module only
when that command runs (:mod:`counting.cli.lazy`), so ``gridcount --version``
and ``--help`` do not load the library.
"""
from __future__ import annotations

import signal
import sys

import click

from counting.cli.common import CONTEXT_SETTINGS, Terminated
from counting.cli.lazy import LazyGroup

__all__ = ["cli", "main", "COMMANDS"]

#: Each command of the group: its name and where it is defined (module, function).
COMMANDS = {
    "count": ("counting.cli.count", "count"),
    "classes": ("counting.cli.count", "classes"),
    "verify": ("counting.cli.verify", "verify"),
    "status": ("counting.cli.store", "status"),
    "export": ("counting.cli.store", "export"),
    "merge": ("counting.cli.store", "merge"),
    "recount": ("counting.cli.store", "recount"),
    "report": ("counting.cli.report", "report"),
    "solve": ("counting.cli.solve", "solve"),
    "count-solutions": ("counting.cli.puzzles", "count_solutions"),
    "check": ("counting.cli.puzzles", "check"),
    "generate": ("counting.cli.generate", "generate"),
    "explain": ("counting.cli.explain", "explain"),
}


class _Group(LazyGroup):
    """The command group: Ctrl-C is exit code 130 (SIGTERM 143) in every
    command, as the shell reports a signal, not click's "Aborted!" and 1
    (which ``check`` also uses for "not all unique")."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as e:
            terminated = isinstance(e, Terminated)
            click.echo("\nterminated" if terminated else "\ninterrupted", err=True)
            sys.exit(128 + (signal.SIGTERM if terminated else signal.SIGINT))


@click.group(cls=_Group, context_settings=CONTEXT_SETTINGS, lazy_commands=COMMANDS)
@click.version_option(package_name="gridcount")
def cli() -> None:
    """Count Sudoku grids exactly, by dancing links over equivalence classes.

    \b
    Example:
        gridcount count 3x3            # all 9x9 grids, resumable
        gridcount status results/3x3-r71.sqlite
    """


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="gridcount")

