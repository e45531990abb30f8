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
:mod:`counting.cli.puzzle_io`).
"""
from __future__ import annotations

import importlib
import signal
import sys

import click

from counting.cli.common import CONTEXT_SETTINGS, Terminated

__all__ = ["cli", "main"]


#: The module of each command, imported when the command is first looked
#: up (to run it, or to list it in --help): ``gridcount solve`` then loads
#: the puzzle layer only, not the counting stack that ``count`` needs
#: (about a quarter of a second).  A module with a ``register(group)``
#: adds its commands itself; otherwise the command is its attribute of the
#: command's name.
COMMAND_MODULES = {
    "count": "counting.cli.count", "classes": "counting.cli.count",
    "verify": "counting.cli.count",
    "status": "counting.cli.store", "export": "counting.cli.store",
    "merge": "counting.cli.store", "recount": "counting.cli.store",
    "report": "counting.cli.report",
    "solve": "counting.cli.puzzles", "count-solutions": "counting.cli.puzzles",
    "check": "counting.cli.puzzles", "generate": "counting.cli.puzzles",
    "explain": "counting.cli.puzzles",
}


class _Group(click.Group):
    """The command group: Ctrl-C is exit code 130 (SIGTERM 143) in every
    command, as the shell reports a signal, not click's "Aborted!" and 1
    (which ``check`` also uses for "not all unique").  Commands are loaded
    on first use (:data:`COMMAND_MODULES`)."""

    def list_commands(self, ctx):
        return sorted(set(self.commands) | set(COMMAND_MODULES))

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMAND_MODULES:
            module = importlib.import_module(COMMAND_MODULES[name])
            if hasattr(module, "register"):
                module.register(self)
            else:
                self.add_command(getattr(module, name))
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as e:
            terminated = isinstance(e, Terminated)
            click.echo("\nterminated" if terminated else "\ninterrupted", err=True)
            sys.exit(128 + (signal.SIGTERM if terminated else signal.SIGINT))


@click.group(cls=_Group, context_settings=CONTEXT_SETTINGS)
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
