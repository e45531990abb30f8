"""A command group that imports a command's module only when the command runs.

``gridcount --version`` and ``gridcount --help`` should answer at once, and
importing the commands means importing the whole library (the job, the
pool, the engine, numpy: most of a second).  :class:`LazyGroup` knows each
command by name and the module that defines it (click's "lazily loading
subcommands" pattern); :meth:`LazyGroup.get_command` imports the module
when the command is invoked (or its own ``--help`` asked for).

The group's ``--help`` lists each command with the first sentence of its
help.  That text has one home, the command function's docstring; the
listing reads it from the module's source (:func:`short_help`, by
:mod:`ast`, without running the module) and shortens it by the installed click's own rule (a
:class:`click.Command` made of that text alone is asked for its short help;
``click.utils.make_default_short_help`` warns of its removal in click 8.5), so
the listing is the one an imported command would give.  A module whose source cannot be read is
imported instead.

Example
-------
>>> group = LazyGroup(lazy_commands={"report": ("counting.cli.report", "report")})
>>> group.list_commands(None)
['report']
>>> short_help("counting.cli.count", "classes", 45)
'List the band-1 classes of SHAPE: id,...'
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
from functools import lru_cache

import click

__all__ = ["LazyGroup", "short_help", "docstrings"]


@lru_cache(maxsize=None)
def docstrings(module: str) -> dict[str, str]:
    """The docstrings of the module-level functions of ``module``, by
    function name, read from its source without importing it ({} when the
    source cannot be found or read)."""
    try:
        spec = importlib.util.find_spec(module)
        source = spec.loader.get_source(module) if spec and spec.loader else None
    except (ImportError, AttributeError, OSError):
        source = None
    if source is None:
        return {}
    tree = ast.parse(source)
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=True)
            if doc is not None:
                out[node.name] = doc
    return out


def short_help(module: str, function: str, limit: int) -> str | None:
    """The short help click would list for the command ``function`` of
    ``module`` (its docstring's first sentence, within ``limit``
    characters), or None when the source does not say it."""
    doc = docstrings(module).get(function)
    if doc is None:
        return None
    return click.Command(function, help=doc).get_short_help_str(limit).strip()


class LazyGroup(click.Group):
    """A group whose commands are ``{name: (module, attribute)}`` pairs,
    imported when first asked for; commands added with :meth:`add_command`
    are kept as usual."""

    def __init__(self, *args, lazy_commands: dict[str, tuple[str, str]] | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands and cmd_name not in self.commands:
            module, attribute = self.lazy_commands[cmd_name]
            command = getattr(importlib.import_module(module), attribute)
            self.commands[cmd_name] = command
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx, formatter) -> None:
        """The commands and their short help, without importing a module
        whose source says the help (see the module docstring)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            text = None
            if name in self.lazy_commands and name not in self.commands:
                text = short_help(*self.lazy_commands[name], limit)
            if text is None:
                cmd = self.get_command(ctx, name)
                if cmd is None or cmd.hidden:
                    continue
                text = cmd.get_short_help_str(limit)
            rows.append((name, text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
