"""A store a command made and then refused to use, removed rather than left empty.

``gridcount count`` makes its store (:func:`counting.plan.open_store`) before some
refusals can be known: a symmetry job's identity taken from a grid store of another
kernel (:mod:`counting.store.identity`), a scheduler that does not answer.  Such a
refusal used to leave a new, empty store (and its ``-wal``/``-shm``) where the user had
none.  :func:`removed_if_unused` removes it, and only it: a store that existed before
the command, or that holds a unit, is never deleted.
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from counting.store.database import Store, StoreError

__all__ = ["removed_if_unused"]


@contextmanager
def removed_if_unused(store: Store, path: Path | str, new: bool, *kept_by: type):
    """``with store:``, and the store at ``path`` removed (its ``-wal`` and ``-shm``
    too, :meth:`Store.delete`) when this command made it (``new``: nothing was at
    ``path`` before it was opened) and an exception ends the block while it holds no
    unit.  Kept when it existed before, holds a unit, or the exception is a
    ``KeyboardInterrupt`` or one of ``kept_by`` (a run that stopped: its message names
    the store to resume).  The caller holds the store's lock throughout.

    Example
    -------
    >>> import tempfile
    >>> from counting.store.database import JobInfo
    >>> d = Path(tempfile.mkdtemp())
    >>> store = Store.create_or_open(d / "s.sqlite", JobInfo("2x2", "cycles", "dlx1-memo-3", 1))
    >>> try:
    ...     with removed_if_unused(store, d / "s.sqlite", True):
    ...         raise ValueError("refused")
    ... except ValueError:
    ...     pass
    >>> sorted(p.name for p in d.iterdir())
    []
    """
    unused = False
    try:
        with store:
            try:
                yield store
            except BaseException as e:
                unused = new and not isinstance(e, (KeyboardInterrupt, *kept_by)) \
                    and _holds_no_unit(store)
                raise
    except BaseException:
        if unused:
            try:
                Store.delete(path)
            except (StoreError, OSError):
                pass     # left as it is: the refusal is what is said
        raise


def _holds_no_unit(store: Store) -> bool:
    try:
        return len(store) == 0
    except (StoreError, OSError):
        return False
