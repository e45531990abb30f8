"""What the ``gridcount`` commands share: one-line failures, aligned
tables, and SIGTERM treated like Ctrl-C while counting."""
from __future__ import annotations

import contextlib
import signal
import sys
from typing import TYPE_CHECKING, Callable, NoReturn

import click

from counting import outputs

if TYPE_CHECKING:
    from grids.kind import GridKind

__all__ = ["fail", "note", "NOTES", "refuse", "Refused", "check_outputs", "output_errors", "bad_value",
           "print_table", "Terminated", "sigterm_stops_like_ctrl_c", "CONTEXT_SETTINGS", "given",
           "not_together", "only_with", "check_size", "enumeration_notice"]

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


#: Whether :func:`note` prints: None on a terminal only (like the progress
#: bar), True always, False never.
NOTES: bool | None = None


def note(message: str) -> None:
    """A line on stderr saying what a slow step is doing (enumerating the
    units, estimating a job), while it runs; by default only on a terminal
    (:data:`NOTES`), so a pipe or a log gets the results and the errors alone."""
    show = sys.stderr.isatty() if NOTES is None else NOTES
    if show:
        click.echo(message, err=True)


def check_size(kind: GridKind, force: bool,
               before: Callable[[str], None] | None = None) -> None:
    """Refuse (exit code 2, as every refusal) a grid larger than
    :data:`~counting.reduction.registry.MAX_N` square without ``--force``;
    ``before(message)``, when given, is called first (a JSON error on stdout)."""
    from counting.reduction import registry   # the library: not for --help (cli.lazy)
    try:
        registry.check_shape(kind.name, force=force)
    except ValueError as e:
        if before is not None:
            before(str(e))
        refuse(str(e))


def enumeration_notice(kind: GridKind, reduction: str | None, force: bool) -> str | None:
    """The line said at once, terminal or not, before the units of a grid
    past :data:`~counting.reduction.registry.MAX_N` square (``--force``) are
    enumerated: that can take hours before anything else is printed.  None
    for other grids (their slow steps are said by :func:`note`).
    ``reduction`` is one that applies to the kind (checked before)."""
    from counting.labels import labels_of
    from counting.reduction import registry   # the library: not for --help (cli.lazy)
    n = kind.shape.n
    if not force or n <= registry.MAX_N:
        return None
    red = registry.get_reduction(kind.name, reduction)
    return (f"{kind.name} makes {n:,}x{n:,} grids, past {registry.MAX_N}x{registry.MAX_N} "
            f"(--force): enumerating its {labels_of(red).members} ({red.name}) first, "
            f"which can take hours ...")


def fail(msg: str) -> NoReturn:
    """End the command with ``Error: msg`` on stderr and exit code 1."""
    raise click.ClickException(msg)


class Refused(click.ClickException):
    """A refusal (an output that is the input, a store in use...): one line, exit code 2."""

    exit_code = 2


def refuse(msg: str) -> NoReturn:
    """End the command with ``Error: msg`` on stderr and exit code 2."""
    raise Refused(msg)


@contextlib.contextmanager
def output_errors():
    """An :class:`~counting.outputs.OutputError` of the block as one line:
    exit code 2 for a refusal, 1 for a failed write."""
    try:
        yield
    except outputs.OutputRefused as e:
        refuse(str(e))
    except outputs.OutputError as e:
        fail(str(e))


def check_outputs(inputs, files) -> None:
    """:func:`counting.outputs.check_outputs`, its errors as one line
    (every command that writes a file calls it before writing anything)."""
    with output_errors():
        outputs.check_outputs(inputs, files)


#: A value longer than this is a sentence, not a figure: it is not right-aligned
#: with the figures (it would push every figure of the table off the terminal).
TABLE_FIGURE_WIDTH = 40


def print_table(rows) -> None:
    """``(label, value)`` rows: labels left-aligned, values right-aligned
    (a value longer than :data:`TABLE_FIGURE_WIDTH` starts where the
    values start instead)."""
    width = max(len(k) for k, _ in rows)
    vwidth = max((len(v) for _, v in rows if len(v) <= TABLE_FIGURE_WIDTH), default=0)
    for k, v in rows:
        click.echo(f"{k:<{width}}  {v:>{vwidth}}" if len(v) <= vwidth else f"{k:<{width}}  {v}")


def given(name: str) -> bool:
    """Whether the current command's option ``name`` (its parameter name)
    was given on the command line (or the environment), not left at its
    default: ``--limit 5`` counts even when 5 were the default."""
    source = click.get_current_context().get_parameter_source(name)
    return source in (click.core.ParameterSource.COMMANDLINE,
                      click.core.ParameterSource.ENVIRONMENT)


def _flag(name: str) -> str:
    for param in click.get_current_context().command.params:
        if param.name == name:
            return param.opts[0]
    return name   # pragma: no cover - a parameter name that the command lacks


def not_together(first: str, second: str, why: str) -> None:
    """Refuse (usage error, exit 2) two options that contradict each other,
    both given: ``Error: --no-limit and --limit contradict each other (why):
    give one or the other``."""
    if given(first) and given(second):
        raise click.UsageError(f"{_flag(first)} and {_flag(second)} contradict each other "
                               f"({why}): give one or the other")


def only_with(name: str, needed: str, active: bool, why: str) -> None:
    """Refuse (usage error, exit 2) the option ``name`` given where it does
    nothing: when ``needed`` (the option it belongs to) is not ``active``."""
    if given(name) and not active:
        raise click.UsageError(f"{_flag(name)} does nothing without {needed} ({why})")


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


def bad_value(option: str, message: str) -> NoReturn:
    """A bad option value: one line (no usage text), exit code 2 as for
    click's own parameter errors."""
    e = click.ClickException(f"Invalid value for {option}: {message}")
    e.exit_code = 2
    raise e
