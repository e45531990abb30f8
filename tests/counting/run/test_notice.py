"""Saying a slow step (counting/run/notice.py) and only a slow one."""
import threading

from click.testing import CliRunner

from counting.cli import cli
from counting.run import notice
from counting.run.notice import say_if_slow


def _wait_for_the_timers() -> None:
    """Return once every timer thread has fired or been cancelled."""
    for t in threading.enumerate():
        if isinstance(t, threading.Timer):
            t.join(120)                       # only against a hang


def test_a_quick_step_says_nothing():
    lines = []
    with say_if_slow(lines.append, "working ...", after=2):
        pass
    _wait_for_the_timers()          # a timer left running would say it now
    assert lines == []


def test_a_slow_step_is_said_once_while_it_runs():
    lines, said = [], threading.Event()

    def say(msg):
        lines.append(msg)
        said.set()
    with say_if_slow(say, "working ...", after=0):
        assert said.wait(10)          # said while the block still runs
    assert lines == ["working ..."]


def test_classes_says_it_is_enumerating_when_that_is_slow(monkeypatch):
    from counting.cli import common
    monkeypatch.setattr(notice, "SLOW_SECONDS", 0)
    monkeypatch.setattr(common, "NOTES", True)   # as on a terminal

    def slow_classes(self):
        # slow until the notice's timer (after 0 s) has said it: not a
        # sleep that a loaded machine's timer thread could outlast
        _wait_for_the_timers()
        return real(self)
    from counting.job import Job
    real = Job.classes.func
    monkeypatch.setattr(Job, "classes", property(slow_classes))
    res = CliRunner().invoke(cli, ["classes", "2x2"])
    assert res.exit_code == 0
    assert res.output.startswith("enumerating the classes of 2x2 ...\n")
    monkeypatch.setattr(common, "NOTES", None)   # not a terminal: the output alone
    res = CliRunner().invoke(cli, ["classes", "2x2", "--json"])
    assert res.exit_code == 0 and res.output.startswith("[")
