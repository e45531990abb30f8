"""One thread at a time on an ExactCover (private; see ``dlx.api``)."""
from __future__ import annotations

import threading
from contextlib import contextmanager


class ThreadGuard:
    """Which thread may use an ExactCover.

    The engine holds the state of one search and runs without the GIL, so
    two threads searching one object at once would corrupt its links.  A
    thread *holds* the object while one of its calls runs or one of its
    ``solutions()`` iterations is under way; any other thread is refused at
    once (RuntimeError), never made to wait.  The holding thread may start
    another search (which ends its own open iteration, as documented)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()   # guards the two fields below
        self._owner: int | None = None  # thread holding the object
        self._holds = 0                 # its calls and iterations under way

    def acquire(self) -> None:
        """Hold the object for this thread (again); RuntimeError if another
        thread holds it."""
        me = threading.get_ident()
        with self._lock:
            if self._holds and self._owner != me:
                raise RuntimeError("ExactCover is in use by another thread; "
                                   "use one object per thread")
            self._owner = me
            self._holds += 1

    def release(self) -> None:
        with self._lock:
            self._holds -= 1
            if self._holds == 0:
                self._owner = None

    @contextmanager
    def held(self):
        """Hold the object for the duration of a ``with`` block."""
        self.acquire()
        try:
            yield
        finally:
            self.release()
