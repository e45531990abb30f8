"""The store of a layer job: each finished unit's partial next layer, checked.

A layer job (:mod:`factorization.layer_job`) cuts each transition
``L -> L + 1`` into units, ranges ``[lo, hi)`` of the ids of layer ``L``'s
states (the states sorted by their canonical form).  A unit's result is a
partial next layer ``{form: (T, stabiliser order)}``: a pure function of
layer ``L`` and the range, so it is stored once, under ``(L, lo, hi)`` with
two digests (SHA-256):

* ``parents``: the digest of the whole layer ``L`` it was computed from
  (:func:`layer_digest`).  A unit is reused only for that same layer: a
  store written from other parents (another program version, a damaged
  earlier unit) is refused, naming the unit, rather than summed in;
* ``result``: the digest of its own records, checked on every read, so a
  damaged row is an error, never a wrong total.

Each unit is written in its own transaction (``BEGIN IMMEDIATE`` ...
``COMMIT``): a process killed while writing leaves the unit absent, and the
next run counts it again.  Writing a unit that is there already with the
same records is a no-op (units are idempotent); with other records it is an
error.

Example
-------
>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> with LayerStore.open(os.path.join(d, "s.sqlite"), C=3, unit_states=2) as s:
...     s.put(1, 0, 1, "p" * 64, {(3, 5, 48, 56, 15, 17): (6, 2)})
...     s.get(1, 0, 1, "p" * 64)
{(3, 5, 48, 56, 15, 17): (6, 2)}
"""
from __future__ import annotations

import hashlib
import sqlite3
import zlib
from pathlib import Path

__all__ = ["LayerStore", "LayerStoreError", "layer_digest", "FORMAT", "VERSION"]

FORMAT = "gridcount layer job"   # meta "format": a store of anything else is refused
VERSION = 1


class LayerStoreError(ValueError):
    """A store that is not a layer job's, of another job, or damaged (the
    message names the file and what is wrong, in one line)."""


def _records(layer: dict) -> bytes:
    """A layer's records as text, one state a line, in form order:
    ``masks... T stabiliser`` (one format string a line: the same text as
    joining each field's ``str``, at half the cost)."""
    if not layer:
        return b""
    line = " ".join(["%d"] * (len(next(iter(layer))) + 2)) + "\n"
    return "".join([line % (*form, t, st) for form, (t, st) in sorted(layer.items())]).encode()


def _parse(text: bytes) -> dict:
    """The records of :func:`_records` back: every field read at once, then
    cut into lines (each line's field count checked)."""
    lines = text.split(b"\n")
    if not lines[-1]:
        lines.pop()
    if not lines:
        return {}
    width = len(lines[0].split())
    fields = list(map(int, text.split()))
    if width < 3 or len(fields) != width * len(lines):
        raise ValueError("records of unequal lengths")
    it = iter(fields)
    rows = zip(*[it] * width)
    return {row[:-2]: (row[-2], row[-1]) for row in rows}


def layer_digest(layer: dict) -> str:
    """SHA-256 of a layer's records (independent of the dict's order)."""
    return hashlib.sha256(_records(layer)).hexdigest()


class LayerStore:
    """A layer job's store: an SQLite file (see the module).

    Use :meth:`open` (creates the file, or checks that it is this job's:
    the same ``C`` and ``unit_states``), as a context manager.
    """

    def __init__(self, path: Path, con: sqlite3.Connection):
        self.path, self._con = path, con

    @classmethod
    def open(cls, path, *, C: int, unit_states: int | None = None,
             parts: int | None = None) -> "LayerStore":
        """Open (or create) the store of a job of ``C`` stacks whose units
        are ranges of at most ``unit_states`` ids (the layer job), or each
        layer's ids cut into ``parts`` ranges (the ``layers`` reduction):
        exactly one of the two; a store of another job is refused."""
        if (unit_states is None) == (parts is None):
            raise ValueError("give exactly one of unit_states and parts")
        path = Path(path)
        try:
            con = sqlite3.connect(path, isolation_level=None, timeout=30)
            con.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            con.execute("CREATE TABLE IF NOT EXISTS unit (layer INTEGER, lo INTEGER, "
                        "hi INTEGER, parents TEXT, digest TEXT, records BLOB, cpu REAL, "
                        "PRIMARY KEY (layer, lo))")
            meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError as e:
            raise LayerStoreError(f"{path} is not a layer job's store ({e})") from None
        want = {"format": FORMAT, "version": str(VERSION), "C": str(C),
                **({"unit_states": str(unit_states)} if parts is None else
                   {"parts": str(parts)})}
        if not meta:
            # INSERT OR IGNORE, then read again: two processes that open a new
            # store at once (the pool's workers) both see the first one's meta.
            con.execute("BEGIN IMMEDIATE")
            con.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", want.items())
            con.execute("COMMIT")
            meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        if meta != want:
            con.close()
            got = ", ".join(f"{k} {meta.get(k)!r}" for k in {**meta, **want}
                            if meta.get(k) != want.get(k))
            raise LayerStoreError(f"{path} is another layer job's store ({got})")
        return cls(path, con)

    def __enter__(self) -> "LayerStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._con.close()

    def __len__(self) -> int:
        return self._con.execute("SELECT COUNT(*) FROM unit").fetchone()[0]

    def get(self, L: int, lo: int, hi: int, parents: str) -> dict | None:
        """Unit ``(L, lo, hi)``'s partial layer, computed from the layer of
        digest ``parents``; None if it is not stored.  A unit stored from
        other parents, over another range, or whose records do not match
        their digest is a :class:`LayerStoreError`."""
        row = self._con.execute("SELECT hi, parents, digest, records FROM unit "
                                "WHERE layer = ? AND lo = ?", (L, lo)).fetchone()
        if row is None:
            return None
        where = f"{self.path}: unit [{lo}, {hi}) of layer {L}"
        if row[0] != hi or row[1] != parents:
            raise LayerStoreError(f"{where} was computed from other parents (another run's "
                                  f"layer {L}); start a new store")
        try:
            text = zlib.decompress(row[3])
        except (zlib.error, TypeError):
            raise LayerStoreError(f"{where} is damaged (its records do not decompress)") from None
        if hashlib.sha256(text).hexdigest() != row[2]:
            raise LayerStoreError(f"{where} is damaged (its records do not match their digest)")
        return _parse(text)

    def put(self, L: int, lo: int, hi: int, parents: str, part: dict, cpu: float = 0.0,
            before_commit=None) -> None:
        """Store unit ``(L, lo, hi)``'s partial layer ``part`` in one
        transaction (``before_commit()``, when given, is called inside it: the
        tests' stand-in for a process killed while writing).  The same unit
        again with the same records is a no-op; with others, an error."""
        text = _records(part)
        digest = hashlib.sha256(text).hexdigest()
        self._con.execute("BEGIN IMMEDIATE")
        try:
            old = self._con.execute("SELECT digest, parents FROM unit WHERE layer = ? AND "
                                    "lo = ?", (L, lo)).fetchone()
            if old is not None and old != (digest, parents):
                raise LayerStoreError(f"{self.path}: unit [{lo}, {hi}) of layer {L} is stored "
                                      f"with other records: a unit must be pure")
            if old is None:
                self._con.execute("INSERT INTO unit VALUES (?, ?, ?, ?, ?, ?, ?)",
                                  (L, lo, hi, parents, digest, zlib.compress(text, 1), cpu))
            if before_commit is not None:
                before_commit()
            self._con.execute("COMMIT")
        except BaseException:
            self._con.execute("ROLLBACK")
            raise

    def drop(self, L: int, lo: int) -> None:
        """Forget unit ``(L, lo)`` (a stale or damaged record of a store kept
        as a cache, to be counted again).  Dropping a good record loses
        nothing: units are pure, so it is written again the same."""
        self._con.execute("DELETE FROM unit WHERE layer = ? AND lo = ?", (L, lo))  # autocommit

    def cpu_seconds(self) -> float:
        """CPU seconds of the stored units, as measured when each was counted."""
        return self._con.execute("SELECT COALESCE(SUM(cpu), 0) FROM unit").fetchone()[0]
