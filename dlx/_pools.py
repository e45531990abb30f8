"""A spawn process pool that is shut down the same way on every exit.

Private helper shared by ``dlx.puzzles`` (rule statistics) and
``counting.pool`` (work units): it lives in ``dlx`` because ``dlx`` must not
import ``counting``.

Example
-------
>>> with spawn_pool(2) as pool:
...     sorted(pool.imap_unordered(abs, [-2, 1]))
[1, 2]
"""
from __future__ import annotations

import contextlib
import multiprocessing as mp
import signal
from typing import Callable, Iterator

__all__ = ["spawn_pool", "ignore_sigint"]


def ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def spawn_pool(workers: int, initializer: Callable[..., None] = ignore_sigint,
               initargs: tuple = ()) -> Iterator[mp.pool.Pool]:
    """A ``multiprocessing`` pool of ``workers`` spawned processes.

    Spawn, not fork: forking a process that runs threads (tqdm's monitor, a
    ``solve_batch`` thread pool) is unsafe, and spawn behaves the same on
    every platform.  When the block ends normally the pool is closed (its
    workers finish); on any exception, ``KeyboardInterrupt`` and a closed
    generator included, the workers are terminated at once.  Either way the
    pool is joined before the block's exit returns.
    """
    pool = mp.get_context("spawn").Pool(workers, initializer=initializer,
                                        initargs=initargs)
    try:
        yield pool
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
