"""The gridcount command group (counting/cli/__init__.py): every command is
there, and a command's module is loaded when the command is first looked
up, so the puzzle commands start without the counting stack.
(The commands themselves: test_cli.py, test_cli_store.py, test_cli_puzzles.py.)"""
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from counting.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[2]
ALL = {"count", "classes", "verify", "status", "export", "merge", "recount", "report",
       "solve", "count-solutions", "check", "generate", "explain"}


def test_the_group_has_every_command_under_its_name():
    ctx = click.Context(cli)
    assert set(cli.list_commands(ctx)) == ALL == set(COMMANDS)
    for name in ALL:
        assert cli.get_command(ctx, name).name == name
    assert cli.get_command(ctx, "no-such-command") is None


def test_help_lists_every_command():
    out = CliRunner().invoke(cli, ["--help"]).output
    listed = out.split("Commands:")[1].split()
    assert ALL <= set(listed)


def test_solve_runs_without_loading_the_counting_stack():
    code = ("import sys\n"
            "from counting.cli import main\n"
            "sys.argv = ['gridcount', 'solve', '.234341221434321']\n"
            "try:\n"
            "    main()\n"
            "except SystemExit as e:\n"
            "    print('exit', e.code)\n"
            "print(sorted(m for m in sys.modules if m.startswith(\n"
            "    ('counting.job', 'counting.run', 'counting.reduction', 'counting.plan'))))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.stdout.splitlines() == ["1234341221434321", "exit 0", "[]"], proc.stderr
