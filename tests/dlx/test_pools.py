"""Spawned worker processes (dlx/pools.py): every task's result once, a
dead worker noticed and replaced, a worker past its task's deadline killed
and replaced, a task that kills every worker stopped, workers ended with
their parent."""
import atexit
import functools
import multiprocessing as mp
import os
import signal
import time
from pathlib import Path

import pytest

from dlx.pools import WorkerDied, WorkerStalled, map_unordered
from orphans import kill_parent_while_workers_work


def _die_the_first_time(marker: str, value):
    """The first call (across processes) kills its own process; later calls
    return ``value``."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return value
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)


def _stop_the_first_time(directory: str, value):
    """The first call (across processes) stops its own process (``SIGSTOP``);
    every call returns ``(value, pid)``, the others once the pool has asked
    the deadline of this run of them (:func:`_asked`), so the pool has looked
    at their deadline while they ran, on a machine of any speed."""
    marker = os.path.join(directory, "stopped")
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        with open(marker) as f:
            attempt = 2 if f.read() == str(value) else 1     # the stopped one's rerun: 2
        asked = os.path.join(directory, f"asked-{value}-{attempt}")
        end = time.monotonic() + 120                        # only against a hang
        while not os.path.exists(asked) and time.monotonic() < end:
            time.sleep(0.01)
        return value, os.getpid()
    os.write(fd, str(value).encode())
    os.close(fd)
    os.kill(os.getpid(), signal.SIGSTOP)
    return value, os.getpid()       # only if it is continued before it is killed


def _asked(directory, item, attempt) -> None:
    """Say (to :func:`_stop_the_first_time`) that the pool asked the deadline
    of ``item``'s ``attempt``."""
    (directory / f"asked-{item}-{attempt}").touch()


def test_every_result_arrives_once():
    assert sorted(map_unordered(abs, [-3, 1, -2, 5, -4], workers=2)) == [1, 2, 3, 4, 5]


def test_a_killed_worker_is_replaced_and_its_task_run_again(tmp_path, fails_instead_of_hanging):
    deaths = []
    task = functools.partial(_die_the_first_time, str(tmp_path / "died"))
    got = sorted(map_unordered(task, [1, 2, 3, 4], workers=2, on_death=deaths.append))
    assert got == [1, 2, 3, 4]
    [died] = deaths
    assert died.exitcode == -signal.SIGKILL and died.cause == "signal 9, SIGKILL"
    assert died.item in (1, 2) and died.deaths == 1 and died.attempts == 3 and died.will_retry
    assert str(died) == f"worker process {died.pid} died (signal 9, SIGKILL)"


def test_a_stopped_worker_is_killed_past_its_deadline_and_its_task_run_again(
        tmp_path, fails_instead_of_hanging):
    stalls, asked = [], []

    def deadline(item, attempt):
        asked.append((item, attempt))
        _asked(tmp_path, item, attempt)
        return 3.0 * attempt

    task = functools.partial(_stop_the_first_time, str(tmp_path))
    got = list(map_unordered(task, [1, 2, 3, 4], workers=2, on_death=stalls.append,
                             deadline=deadline))
    [stall] = stalls
    assert isinstance(stall, WorkerStalled) and stall.stopped
    assert stall.item in (1, 2) and stall.deaths == 1 and stall.will_retry
    assert stall.limit == 3.0 and 3.0 < stall.seconds < 60
    assert stall.cause == (f"no result after {stall.seconds:,.1f} s, over its limit of 3.0 s; "
                           f"the process was stopped (SIGSTOP)")
    assert sorted(v for v, _ in got) == [1, 2, 3, 4]          # each task once
    assert stall.pid not in {pid for _, pid in got}            # nothing from the stopped one
    with pytest.raises(ProcessLookupError):
        os.kill(stall.pid, 0)                                  # killed and reaped
    assert (stall.item, 2) in asked                            # its rerun, as attempt 2


def _mark(directory: str, item: int) -> int:
    """Leave a file saying ``item`` ran (in whatever process), return it."""
    open(os.path.join(directory, f"ran-{item}"), "w").close()
    return item


def _wait_for(path, seconds: float = 60.0) -> bool:
    """Whether ``path`` exists within ``seconds`` (a bound against a hang,
    not a measure: the test asserts only that it appears)."""
    end = time.monotonic() + seconds
    while not os.path.exists(path) and time.monotonic() < end:
        time.sleep(0.01)
    return os.path.exists(path)


def test_a_worker_goes_on_to_the_item_sent_ahead_while_the_caller_holds_a_result(
        tmp_path, fails_instead_of_hanging):
    """Issue 37: a worker waited for this process to read each result and
    answer with its next item (2x5's units last milliseconds, and this
    process commits results to the store meanwhile): with a long queue each
    worker holds an item beyond the one it runs."""
    items = list(range(12))                          # more than _TAIL items a worker wait
    results = map_unordered(functools.partial(_mark, str(tmp_path)), items, workers=1)
    assert next(results) == 0
    # the caller holds result 0: item 1 (sent ahead at the start) runs, and
    # item 2, sent ahead when result 0 arrived, runs after it
    assert _wait_for(tmp_path / "ran-2")
    assert not (tmp_path / "ran-3").exists()         # one ahead, not the whole queue
    assert sorted([0, *results]) == items            # each once, in all


def test_the_items_of_a_killed_worker_sent_ahead_run_again_without_a_death_of_their_own(
        tmp_path, fails_instead_of_hanging):
    deaths = []
    task = functools.partial(_die_the_first_time, str(tmp_path / "died"))
    items = list(range(12))
    got = sorted(map_unordered(task, items, workers=1, on_death=deaths.append))
    assert got == items                              # the item sent ahead too
    [died] = deaths
    assert died.item == 0 and died.deaths == 1


def _end_with_the_others(directory: str, workers: int, item: int) -> int:
    """Return ``item``; on its first call in a process, make the process,
    as it ends, say so (a file) and finish ending only once ``workers``
    processes have said so (or a minute has passed): an ``ended-PID`` file
    then says it ended by itself, not killed on the way."""
    if not _END_REGISTERED:
        _END_REGISTERED.append(True)

        def at_exit():
            Path(directory, f"ending-{os.getpid()}").touch()
            end = time.monotonic() + 60                     # only against a hang
            while len(list(Path(directory).glob("ending-*"))) < workers \
                    and time.monotonic() < end:
                time.sleep(0.01)
            Path(directory, f"ended-{os.getpid()}").touch()

        atexit.register(at_exit)
    return item


_END_REGISTERED: list = []


def test_every_worker_is_told_to_stop_before_any_is_waited_for(tmp_path,
                                                                 fails_instead_of_hanging):
    """Issue 37: each worker was told "no more work" only once the one
    before it had ended, so their ends followed one another at the end of
    every run; here a worker ends only once both have begun to end, which
    the old order allowed only by killing the first after its 5 s of grace."""
    task = functools.partial(_end_with_the_others, str(tmp_path), 2)
    assert sorted(map_unordered(task, [1, 2, 3, 4], workers=2)) == [1, 2, 3, 4]
    assert len(list(tmp_path.glob("ended-*"))) == 2       # both ended by themselves


def _spin(seconds: float) -> float:
    """Use the CPU for ``seconds`` (a slow task, not a stuck one)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return seconds


@pytest.mark.slow
def test_a_worker_past_its_deadline_that_still_uses_the_cpu_is_left_to_finish(
        fails_instead_of_hanging):
    stalls = []
    got = list(map_unordered(_spin, [8.0], workers=1, on_death=stalls.append,
                             deadline=lambda item, attempt: 0.5))
    assert got == [8.0] and stalls == []


def test_without_a_deadline_a_slow_task_is_waited_for():
    assert list(map_unordered(time.sleep, [1.5], workers=2, deadline=lambda item, n: None)) \
        == [None]


def test_a_task_that_kills_every_worker_stops_after_its_retries(fails_instead_of_hanging):
    deaths = []
    with pytest.raises(WorkerDied) as e:     # not for ever: fails_instead_of_hanging
        list(map_unordered(signal.raise_signal, [signal.SIGKILL], workers=2, retries=1,
                           on_death=deaths.append))
    assert [d.deaths for d in deaths] == [1]              # told of the retried death only
    assert e.value.deaths == 2 and e.value.attempts == 2 and not e.value.will_retry
    assert e.value.item == signal.SIGKILL and e.value.pid != deaths[0].pid


def test_an_exit_code_is_told_as_such(fails_instead_of_hanging):
    with pytest.raises(WorkerDied) as e:
        list(map_unordered(os._exit, [3], workers=1, retries=0))
    assert e.value.cause == "exit code 3"


def test_an_exception_in_a_task_is_raised_in_the_parent():
    with pytest.raises(ValueError, match="invalid literal"):
        list(map_unordered(int, ["12", "x"], workers=2))


def test_stopping_early_terminates_the_workers(fails_instead_of_hanging):
    # tasks of an hour: a close that waited for them fails (fails_instead_of_hanging)
    results = map_unordered(time.sleep, [0, 3600, 3600], workers=2)
    assert next(results) is None
    workers = mp.active_children()
    assert len(workers) == 2
    results.close()
    assert not any(w.is_alive() for w in workers)
    assert [w.exitcode for w in workers] == [-signal.SIGTERM] * 2


SPINNING_PARENT = '''
import os
from dlx.pools import map_unordered

def spin(name):
    open(os.path.join(os.environ["GRIDCOUNT_TEST_BUSY"], f"busy-{os.getpid()}"), "w").close()
    while True:                     # a task that never ends by itself
        pass

if __name__ == "__main__":
    list(map_unordered(spin, ["a", "b"], workers=2))
'''


def test_workers_end_when_their_parent_is_killed_in_the_middle_of_a_task(tmp_path):
    """Issue 38 item 9: a worker noticed its parent's end only between
    tasks; each task here would spin for ever."""
    workers, left = kill_parent_while_workers_work(SPINNING_PARENT, tmp_path)
    assert len(workers) == 2 and left == []
