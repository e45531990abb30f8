"""Spawned worker processes, shut down the same way on every exit.

Private helpers shared by ``grids.puzzles`` (rule statistics) and
``counting.run.pool`` (work units): they live in ``dlx`` because ``dlx`` must not
import ``counting``.

:func:`map_unordered` runs each task in a worker of its own and watches the
workers: ``multiprocessing.Pool`` silently loses the task of a worker that
is killed (``kill -9``, the kernel's out-of-memory killer) and then waits
for its result forever.  Here a dead worker is noticed at once, replaced,
and its task run again a bounded number of times (or, with ``retries=0``,
the death raised at once).  Workers are spawned, not forked: forking a
process that runs threads (tqdm's monitor, a ``solve_batch`` thread pool) is
unsafe, and spawn behaves the same on every platform.

Example
-------
>>> sorted(map_unordered(abs, [-3, 1, -2], workers=2))
[1, 2, 3]
"""
from __future__ import annotations

import collections
import contextlib
import multiprocessing as mp
import multiprocessing.connection
import os
import signal
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

__all__ = ["exit_with_parent", "ignore_sigint", "map_unordered", "WorkerDied", "WorkerStalled"]

_POLL_SECONDS = 0.2   # longest untimed wait: keeps Ctrl-C and SIGTERM prompt
_JOIN_SECONDS = 5.0   # a stopped worker gets this long to exit before SIGKILL
# A task's clock (for ``deadline``) advances by at most this much per look:
# when this process itself was stopped (Ctrl-Z stops the workers too) or
# the caller held on to a result, its workers are not blamed for the gap.
_CLOCK_STEP_MAX = 1.0
# The exit code of a worker whose parent died (:func:`exit_with_parent`).
_ORPHANED = 70
# Past its deadline, a worker is killed only once it has also used no CPU
# time for this long (where /proc tells): stopped or hung, not merely starved.
_IDLE_SECONDS = 5.0
# A worker is sent this many tasks ahead of the one it runs, so that it
# starts the next the moment it ends one instead of waiting for this
# process to read its result and answer (issue 37: 2x5's 346 units of a few
# milliseconds each had its two workers waiting a tenth of their time,
# more on a loaded machine, where this process is not scheduled at once) ...
_AHEAD = 1
# ... while more than this many items a worker wait in the queue: the last
# ones go only to a worker with nothing to run, so none waits behind
# another's long task while a worker idles.
_TAIL = 4


def ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# ---------------------------------------------------------------------------
# map_unordered: a task per worker at a time (and one sent ahead), dead workers noticed

@dataclass(eq=False)
class WorkerDied(RuntimeError):
    """A worker process ended while it was running a task.

    Passed to ``on_death`` when the task will run again in a new worker;
    raised by :func:`map_unordered` when the task has used up its retries.

    Attributes
    ----------
    pid : int
        The dead worker's process id.
    exitcode : int or None
        Its exit code; ``-N`` when signal ``N`` ended it (``-9``: SIGKILL,
        as sent by ``kill -9`` and the out-of-memory killer).
    item : object
        The task it was running.
    deaths : int
        Workers that have died running this task so far (this one included).
    attempts : int
        How many times the task may run in all (``retries + 1``).
    """

    pid: int
    exitcode: int | None
    item: Any
    deaths: int
    attempts: int

    def __post_init__(self):
        super().__init__(f"worker process {self.pid} died ({self.cause})")

    @property
    def cause(self) -> str:
        """``signal 9, SIGKILL`` or ``exit code 1``, as a person reads it."""
        code = self.exitcode
        if code is None:
            return "exit status unknown"
        if code < 0:
            try:
                return f"signal {-code}, {signal.Signals(-code).name}"
            except ValueError:
                return f"signal {-code}"
        return f"exit code {code}"

    @property
    def will_retry(self) -> bool:
        return self.deaths < self.attempts


@dataclass(eq=False)
class WorkerStalled(WorkerDied):
    """A worker gave no result within its task's ``deadline`` and was killed.

    Attributes (besides :class:`WorkerDied`'s)
    ------------------------------------------
    seconds : float
        How long it had run the task (while this process ran).
    limit : float
        The deadline it overran.
    stopped : bool
        The process was stopped (``SIGSTOP``, state ``T``) when it was killed.
    """

    seconds: float
    limit: float
    stopped: bool

    @property
    def cause(self) -> str:
        stopped = "; the process was stopped (SIGSTOP)" if self.stopped else ""
        return (f"no result after {self.seconds:,.1f} s, over its limit of {self.limit:,.1f} s"
                f"{stopped}")


def _proc_stat(pid: int) -> tuple[bytes, int] | None:
    """Process ``pid``'s state letter and CPU time so far (clock ticks, user
    + system), from Linux ``/proc``; None where unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2:].split()   # fields from the 3rd (state) on
    try:
        return fields[0], int(fields[11]) + int(fields[12])
    except (IndexError, ValueError):  # pragma: no cover - not Linux's format
        return None


def _is_stopped(pid: int) -> bool:
    """Whether process ``pid`` is stopped (``SIGSTOP``; False where unknown)."""
    stat = _proc_stat(pid)
    return stat is not None and stat[0] in (b"T", b"t")


def exit_with_parent() -> None:
    """End this process the moment its parent process dies, whatever it is
    doing: a thread waits on the parent's sentinel (a pipe the parent holds
    open, which closes only when it ends) and calls ``os._exit``.

    A worker otherwise notices its parent's end only between tasks (its
    pipe closes): a parent killed with ``SIGKILL`` while a worker searched
    a long unit left that worker at full CPU until the unit was done (a
    2x4 symmetry unit: 30-60 s).  The watch is the same for every task,
    since it does not depend on what the task does; a search releases the
    GIL, and Python code lets other threads run every few milliseconds.
    No-op outside a process started by :mod:`multiprocessing`."""
    parent = mp.parent_process()
    if parent is None or parent.sentinel is None:
        return

    def watch() -> None:
        mp.connection.wait([parent.sentinel])
        os._exit(_ORPHANED)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _worker_loop(conn, func, initializer, initargs) -> None:
    """A worker: run each task the parent sends, send back its outcome."""
    exit_with_parent()
    if initializer is not None:
        initializer(*initargs)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):       # the parent is gone
            return
        if task is None:                  # the parent's "no more work"
            return
        index, item = task
        try:
            outcome = ("ok", index, func(item))
        except Exception as e:
            outcome = ("error", index, e)
        try:
            conn.send(outcome)
        except (EOFError, OSError):
            return
        except Exception as e:            # an outcome that cannot be pickled
            conn.send(("error", index, RuntimeError(f"{type(e).__name__}: {e}")))


class _Worker:
    """One spawned process, the parent's end of its pipe, its tasks: the one
    it runs and, at most :data:`_AHEAD` of them, those sent ahead, which it
    runs in the order they were sent."""

    def __init__(self, ctx, func, initializer, initargs):
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_loop, daemon=True,
                                   args=(child, func, initializer, initargs))
        self.process.start()
        child.close()   # only the worker holds it: its death closes the pipe
        self.tasks: collections.deque[tuple[int, Any]] = collections.deque()
        self.given_at = 0.0   # the run clock when it began its task (got it, or ended the last)
        self.cpu: int | None = None   # its CPU time at the last look ...
        self.busy_at = 0.0            # ... and the run clock when that last grew

    @property
    def task(self) -> tuple[int, Any] | None:
        """The task it runs (the first sent of those it has not answered), or None."""
        return self.tasks[0] if self.tasks else None

    def give(self, task: tuple[int, Any], clock: float) -> None:
        """Send it ``task``: to run now if it has none, else after those it has."""
        self.tasks.append(task)
        if len(self.tasks) == 1:
            self.began(clock)
        try:
            self.conn.send(task)
        except OSError:   # it died already: its sentinel says so next round
            pass

    def answered(self, clock: float) -> None:
        """Its task is done (its outcome read): the next sent, if any, begins now."""
        self.tasks.popleft()
        if self.tasks:
            self.began(clock)

    def began(self, clock: float) -> None:
        self.given_at = self.busy_at = clock
        self.cpu = None

    def idle_for(self, clock: float) -> float | None:
        """Run-clock seconds since its CPU time last grew (None: unknown)."""
        stat = _proc_stat(self.process.pid)
        if stat is None:
            return None
        if stat[1] != self.cpu:
            self.cpu, self.busy_at = stat[1], clock
        return clock - self.busy_at

    def receive(self):
        """The worker's outcome, or ``None`` if it died without sending one."""
        try:
            if self.conn.poll():
                return self.conn.recv()
        except (EOFError, OSError):
            pass
        return None

    def ask_to_stop(self, graceful: bool) -> None:
        """Tell it to end: "no more work" (``graceful``) or ``SIGTERM``; a
        stopped process is left to :meth:`stop`, which kills it."""
        p = self.process
        with contextlib.suppress(OSError):
            if p.is_alive() and not _is_stopped(p.pid):
                if graceful:
                    self.conn.send(None)
                else:
                    p.terminate()

    def stop(self, graceful: bool) -> None:
        """Once told (:meth:`ask_to_stop`), wait for it to end, terminate it
        if it has not within :data:`_JOIN_SECONDS` (``graceful``), kill it
        if it still has not or is stopped; join it either way."""
        p = self.process
        try:
            if p.is_alive() and not _is_stopped(p.pid):
                p.join(_JOIN_SECONDS)
            if graceful and p.is_alive() and not _is_stopped(p.pid):
                p.terminate()
                p.join(_JOIN_SECONDS)
            if p.is_alive():  # stopped (SIGTERM would wait), or ignores SIGTERM
                p.kill()
                p.join()
        finally:
            self.conn.close()


def map_unordered(func: Callable, items: Iterable, workers: int, *, retries: int = 2,
                  on_death: Callable[[WorkerDied], None] | None = None,
                  initializer: Callable[..., None] | None = ignore_sigint,
                  initargs: tuple = (),
                  deadline: Callable[[Any, int], float | None] | None = None) -> Iterator:
    """``func(item)`` for every item in spawned worker processes, yielded as
    each finishes.

    Items are handed out in the order given to ``min(workers, len(items))``
    workers; a worker gets its next item as soon as its result arrives,
    before the result is yielded, so workers stay busy while the caller
    handles it.  While more than :data:`_TAIL` items a worker are waiting,
    each worker holds :data:`_AHEAD` item beyond the one it runs, and starts
    it without waiting for this process: an item sent ahead counts as
    begun (for ``deadline``) when the worker's previous result arrives, and
    goes back to the front of the queue, without a death on its account,
    if the worker dies first.  ``func`` and the items must
    pickle (a module-level function, or a ``functools.partial`` of one).

    A worker that dies while running an item (killed by a signal, or
    exiting) is noticed within a fraction of a second: ``on_death`` is told
    (a :class:`WorkerDied`), a new worker starts and the item runs again,
    first in line.  An item on whose account ``retries + 1`` workers have
    died raises its :class:`WorkerDied` instead.  An exception raised by
    ``func`` is re-raised here.  Whenever the iteration ends early (an
    exception, ``KeyboardInterrupt``, the generator closed) the workers are
    terminated; results already yielded are the caller's.

    ``deadline(item, attempt)`` (``attempt`` 1 for the first worker to run
    the item), asked at every look (a fraction of a second), gives the
    seconds a worker may run the item, or None for no limit.  A worker past
    it that then uses no CPU time for :data:`_IDLE_SECONDS` (a stopped or
    hung process; on systems without Linux's ``/proc``, past the deadline
    is enough) is killed (``SIGKILL``, which also ends a stopped process)
    and treated as dead, as a :class:`WorkerStalled`: its item runs again in
    a new worker, and a result it may have sent meanwhile is never read.
    """
    queue = collections.deque(enumerate(items))
    deaths: collections.Counter = collections.Counter()
    ctx = mp.get_context("spawn")
    live: list[_Worker] = []
    done = False
    clock = 0.0                      # seconds this generator has been running
    last_look = time.monotonic()

    pool = min(workers, len(queue))

    def feed(w: _Worker, ahead: bool = True) -> None:
        """Give ``w`` an item to run if it has none, and (``ahead``) items
        ahead while the queue is long."""
        if queue and not w.tasks:
            w.give(queue.popleft(), clock)
        while ahead and w.tasks and len(w.tasks) <= _AHEAD and len(queue) > _TAIL * pool:
            w.give(queue.popleft(), clock)

    def start_with_next(ahead: bool = True) -> None:
        w = _Worker(ctx, func, initializer, initargs)
        live.append(w)
        feed(w, ahead)

    def lose(w: _Worker, died: WorkerDied) -> None:
        """``w`` is gone (``died`` says how): retry its item or raise."""
        live.remove(w)
        w.conn.close()
        if not died.will_retry:
            raise died
        if on_death is not None:
            on_death(died)
        queue.extendleft(reversed(w.tasks))   # its item first, then those sent ahead
        start_with_next()

    def overran(w: _Worker) -> WorkerStalled | None:
        """Kill ``w`` if it has run its item past the item's deadline and
        has then used no CPU time for :data:`_IDLE_SECONDS`."""
        index, item = w.task
        limit = deadline(item, deaths[index] + 1)
        seconds = clock - w.given_at
        if limit is None or seconds <= limit:
            return None
        idle = w.idle_for(clock)       # from the first look past the limit on
        if idle is not None and idle < _IDLE_SECONDS:
            return None                # slow (a starved machine), not stuck
        stopped = _is_stopped(w.process.pid)
        w.process.kill()
        w.process.join(_JOIN_SECONDS)
        deaths[index] += 1
        return WorkerStalled(w.process.pid, w.process.exitcode, item, deaths[index],
                             retries + 1, seconds, limit, stopped)

    try:
        for _ in range(pool):
            start_with_next(ahead=False)   # an item each first (the longest, handed out first) ...
        for w in live:
            feed(w)                        # ... then those ahead
        while True:
            busy = [w for w in live if w.task is not None]
            if not busy:
                break
            waits = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            ready = set(mp.connection.wait(waits, timeout=_POLL_SECONDS))
            now = time.monotonic()
            clock += min(now - last_look, _CLOCK_STEP_MAX)
            last_look = now
            for w in busy:
                if w.conn not in ready and w.process.sentinel not in ready:
                    stalled = None if deadline is None else overran(w)
                    if stalled is not None:
                        lose(w, stalled)
                    continue
                outcome = w.receive()
                if outcome is None:
                    if w.process.sentinel not in ready:
                        continue  # its pipe closed first; the sentinel follows
                    index, item = w.task
                    w.process.join(_JOIN_SECONDS)
                    deaths[index] += 1
                    lose(w, WorkerDied(w.process.pid, w.process.exitcode, item,
                                       deaths[index], retries + 1))
                    continue
                kind, _, value = outcome
                w.answered(clock)     # outcomes come in the order the items were sent
                if kind == "error":
                    raise value
                feed(w)
                yield value
                last_look = time.monotonic()   # the caller's time is not the worker's
        done = True
    finally:
        for w in live:     # every worker told first, so that they end at the same time
            w.ask_to_stop(graceful=done)
        for w in live:
            w.stop(graceful=done)
