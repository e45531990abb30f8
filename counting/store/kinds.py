"""The kind files of a store's job, kept in the store by their rules.

A kind file's kind is named by its content, ``kind-DIGEST``
(:mod:`grids.variants.kindcontent`): the store's ``shape`` says which rules
were counted, but not what they are, and the file the count was started from
may be edited, moved or deleted since.  So a store of such a kind keeps the
normal text of each of its kind files, in meta key ``kind_rules`` (a JSON
object, digest -> normal text), written with the store's other meta rows
(:func:`meta_rows`).  Every opening of the store checks each text against
its digest and makes it known to this process (:func:`learn_kept`), so
``status``, ``export``, ``recount`` and ``report`` work from the store
alone, and ``count`` resumes a store only for a file of that very content
(another content is another ``shape``: its store is refused, naming both).

Stores of built-in kinds have no such key and are read as before.  A store
made before kinds were named by content (its ``shape`` names a path,
``2x3+@jig6.kind``) counted whatever that file said then, which nothing
recorded: it is refused in one line.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from counting.store.format import CorruptStoreError, JobInfo, StoreError
from grids.variants.kindcontent import digests_named, learn_texts, texts_named

__all__ = ["KEY", "meta_rows", "learn_kept"]

KEY = "kind_rules"  # meta key: {digest: normal text} of the job's kind files


def meta_rows(path: Path, job: JobInfo) -> list[tuple[str, str]]:
    """The meta rows that keep the rules of ``job``'s kind files (none for
    a built-in kind); StoreError when this process does not know them."""
    try:
        texts = texts_named(job.shape)
    except ValueError as e:
        raise StoreError(f"cannot create database {path}: {e}") from None
    return [(KEY, json.dumps(texts, sort_keys=True))] if texts else []


def learn_kept(conn: sqlite3.Connection, path: Path, job: JobInfo) -> None:
    """Check the rules the store at ``path`` keeps against the digests its
    job names, and know them here.

    Raises
    ------
    StoreError
        The store was made for a kind file named by its path (before kinds
        were named by their content).
    CorruptStoreError
        A rule text is missing, unreadable, or not that of its digest.
    """
    if "+@" in job.shape:
        raise StoreError(f"{path} was made by an older gridcount for the kind file "
                         f"{job.shape.split('+@', 1)[1]!r} named by its path, whose rules it does "
                         f"not keep; count the kind again (its store is now named by its "
                         f"content)")
    digests = digests_named(job.shape)
    if not digests:
        return
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (KEY,)).fetchone()
    except sqlite3.Error as exc:
        raise CorruptStoreError(f"{path} is damaged: {exc}") from exc
    damaged = f"{path} is damaged or was edited"
    try:
        texts = json.loads(row[0]) if row is not None else {}
    except (ValueError, RecursionError):   # nested too deeply for the reader: not ours either
        raise CorruptStoreError(f"{damaged}: its meta {KEY} is not JSON") from None
    if not isinstance(texts, dict) or not all(isinstance(t, str) for t in texts.values()):
        raise CorruptStoreError(f"{damaged}: its meta {KEY} is not a table of rules")
    missing = [d for d in digests if d not in texts]
    if missing:
        raise CorruptStoreError(f"{damaged}: it keeps no rules for kind-{missing[0]} of its "
                                f"job {job.shape}")
    try:
        learn_texts({d: texts[d] for d in digests}, f"its meta {KEY}")
    except ValueError as e:
        raise CorruptStoreError(f"{damaged}: {e}") from None
