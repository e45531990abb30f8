"""A kind's full group beside today's (:func:`.cover_automorphisms.compare`),
kept on disk so that ``status`` and ``report`` can say it at once.

nauty finds a 9×9 kind's full group in under a second but a 12×12 one's in
about 10 s and a 16×16 one's in 40–90 s, and today's group of a 9×9 kind
with rules takes seconds to search.  So the comparison is computed once per
machine (by ``gridcount classes KIND --group``, or by ``status`` for a kind
cheap enough, :mod:`.group_note`) and written to
``$XDG_CACHE_HOME/gridcount/cover-groups-v1/DIGEST.json``, ``DIGEST`` the
first 16 hex digits of the SHA-256 of the kind's canonical text (a kind
file's canonical text is named by its content, so an edited kind file is
another kind).

* **Written atomically**: to a temporary beside the file, renamed into place
  (:func:`counting.outputs.write_atomic`).  A cache that cannot be written
  (read-only, full) costs only the time of computing again.
* **Checked when read**: a regular file only (a FIFO is never waited on,
  :func:`bandtables.cache_files.open_regular`), at most
  :data:`MAX_BYTES`, JSON of the expected shape, the format
  :data:`FORMAT`, the kind's own text, and a SHA-256 checksum over the
  fields.  Anything else (damaged, truncated, edited, another kind's file)
  is not believed: it reads as absent and is written again when computed.

Example
-------
>>> import tempfile
>>> from counting.group.cover_automorphisms import Comparison
>>> from grids.kind import as_kind
>>> root = tempfile.mkdtemp()
>>> c = Comparison(as_kind("1x3"), 1296, 216, (("rows", "columns"),))
>>> write_cached(c, root)
True
>>> read_cached("1x3", root) == c
True
>>> read_cached("1x4", root) is None
True
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from bandtables.cache import cache_root
from bandtables.cache_files import NotARegularFile, open_regular
from counting.group.cover_automorphisms import Comparison, compare
from counting.outputs import OutputError, write_atomic
from grids.kind import GridKind, as_kind

__all__ = ["FORMAT", "MAX_BYTES", "cache_path", "read_cached", "write_cached",
           "cached_compare", "checksum"]

#: The layout of a cached comparison, and the meaning of its fields: a new
#: layout, or a change of what :func:`.cover_automorphisms.compare` computes
#: (the item types, the graph), is a new number, hence a new directory.
FORMAT = 1
#: A cached comparison is a few hundred bytes: a larger file is damage.
MAX_BYTES = 1 << 16
_DIGITS = 16   # hex digits of SHA-256 in a file name
_KEYS = frozenset({"format", "kind", "full_order", "today_order", "new_pairs", "unknown",
                   "sha256"})


def cache_path(kind, root: Path | str | None = None) -> Path:
    """Where the comparison of ``kind`` is kept under ``root`` (default
    :func:`bandtables.cache.cache_root`)."""
    name = as_kind(kind).name
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:_DIGITS]
    return Path(root if root is not None else cache_root()) / f"cover-groups-v{FORMAT}" / \
        f"{digest}.json"


def _fields(c: Comparison) -> dict:
    return {"format": FORMAT, "kind": c.kind.name, "full_order": str(c.full_order),
            "today_order": None if c.today_order is None else str(c.today_order),
            "new_pairs": None if c.new_pairs is None else [list(p) for p in c.new_pairs],
            "unknown": c.unknown}


def checksum(fields: dict) -> str:
    """The SHA-256 a cached comparison of ``fields`` records (of their canonical JSON)."""
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_cached(c: Comparison, root: Path | str | None = None) -> bool:
    """Keep ``c``; whether it was written (False: the cache cannot be written)."""
    fields = _fields(c)
    doc = {**fields, "sha256": checksum(fields)}
    path = cache_path(c.kind, root)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic({path: json.dumps(doc, indent=1) + "\n"})
    except (OSError, OutputError):
        return False
    return True


def _order(text, optional: bool = False) -> int | None:
    if text is None and optional:
        return None
    if not isinstance(text, str) or not text.isdigit() or text.startswith("0"):
        raise ValueError(f"not an order: {text!r}")
    return int(text)


def _pairs(value) -> tuple | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(t, str) for t in p)
            for p in value):
        raise ValueError("not a list of pairs of item types")
    return tuple(tuple(p) for p in value)


def read_cached(kind, root: Path | str | None = None) -> Comparison | None:
    """The kept comparison of ``kind``, or None (none kept, or one not to be
    believed: see the module docstring)."""
    kind: GridKind = as_kind(kind)
    try:
        with open_regular(cache_path(kind, root)) as fh:
            blob = fh.read(MAX_BYTES + 1)
        if len(blob) > MAX_BYTES:
            return None
        doc = json.loads(blob.decode("utf-8"))
        if not isinstance(doc, dict) or set(doc) != _KEYS:
            return None
        fields = {k: v for k, v in doc.items() if k != "sha256"}
        if doc["sha256"] != checksum(fields) or fields["format"] != FORMAT \
                or fields["kind"] != kind.name:
            return None
        unknown = fields["unknown"]
        if unknown is not None and not isinstance(unknown, str):
            return None
        c = Comparison(kind, _order(fields["full_order"]),
                       _order(fields["today_order"], optional=True),
                       _pairs(fields["new_pairs"]), unknown)
    except (OSError, NotARegularFile, ValueError, UnicodeDecodeError, RecursionError):
        return None   # RecursionError: JSON nested too deeply for the reader
    if (c.today_order is None) != (c.new_pairs is None):
        return None
    return c


def cached_compare(kind, root: Path | str | None = None, compute=None) -> Comparison:
    """The comparison of ``kind``: the kept one, else ``compute(kind)``
    (None: :func:`~.cover_automorphisms.compare`, which needs pynauty), kept for
    next time."""
    kind = as_kind(kind)
    found = read_cached(kind, root)
    if found is not None:
        return found
    c = (compute or compare)(kind)
    write_cached(c, root)
    return c
