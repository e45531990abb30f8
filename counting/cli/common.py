"""What the ``gridcount`` commands share: one-line failures, aligned
tables, and SIGTERM treated like Ctrl-C while counting."""
from __future__ import annotations

import contextlib
import signal
from typing import NoReturn

import click

__all__ = ["fail", "print_table", "Terminated", "sigterm_stops_like_ctrl_c", "CONTEXT_SETTINGS"]

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def fail(msg: str) -> NoReturn:
    """End the command with ``Error: msg`` on stderr and exit code 1."""
    raise click.ClickException(msg)


def print_table(rows) -> None:
    """``(label, value)`` rows: labels left-aligned, values right-aligned."""
    width = max(len(k) for k, _ in rows)
    vwidth = max(len(v) for _, v in rows)
    for k, v in rows:
        click.echo(f"{k:<{width}}  {v:>{vwidth}}")


class Terminated(KeyboardInterrupt):
    """SIGTERM during a count: stopped in the same orderly way as Ctrl-C."""


def _raise_terminated(signum, frame) -> None:
    raise Terminated()


@contextlib.contextmanager
def sigterm_stops_like_ctrl_c():
    """While counting, SIGTERM (a batch scheduler's or ``kill``'s stop) raises
    :class:`Terminated`, so the pool is shut down and every finished unit
    stays committed, instead of the process dying with its workers
    orphaned.  Outside the main thread signals cannot be caught: no-op."""
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
