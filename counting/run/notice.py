"""Saying what a slow step is doing, and only when it is slow.

Enumerating the classes of a large shape (2x6: minutes) or estimating a
long job takes a while before any bar can be drawn; a person should not
stare at a silent terminal, and a quick command should not print a line it
does not need.  :func:`say_if_slow` says a line once a step has taken
:data:`SLOW_SECONDS`, from a timer thread, and nothing if it ends sooner.

Example
-------
>>> lines = []
>>> with say_if_slow(lines.append, "enumerating ..."):
...     pass
>>> lines
[]
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator

__all__ = ["say_if_slow", "SLOW_SECONDS"]

#: A step still running after this many seconds is said.
SLOW_SECONDS = 1.0


@contextmanager
def say_if_slow(say: Callable[[str], None], message: str,
                after: float | None = None) -> Iterator[None]:
    """Call ``say(message)`` once if the ``with`` block is still running
    after ``after`` seconds (default :data:`SLOW_SECONDS`, read at entry)."""
    timer = threading.Timer(SLOW_SECONDS if after is None else after, say, (message,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
