"""Running gridcount's commands in-process (click's CliRunner), for the CLI tests."""
from __future__ import annotations

from click.testing import CliRunner

from counting.cli import cli


def invoke(*args):
    """The command's result; exceptions become its exit code, as for a user."""
    return CliRunner().invoke(cli, [str(a) for a in args])


def invoke_raising(*args):
    """The command's result; an exception is raised in the test (a traceback is a failure)."""
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def one_line_error(res, match, exit_code=1):
    """``res`` failed with ``exit_code`` and printed one line, ``Error: ...match...``."""
    assert res.exit_code == exit_code, res.output
    assert res.output.startswith("Error: ") and match in res.output
    assert len(res.output.strip().splitlines()) == 1
