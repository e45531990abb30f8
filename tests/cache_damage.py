"""Damage done to a directory of a bandtables cache (the band tables',
``tests/bandtables/test_cache.py``, and the kind tables',
``tests/bandtables/test_kind_cache.py``): both check their files against a
manifest of one shape (:mod:`bandtables.cache_files`), so each must refuse
every kind of damage below."""
from __future__ import annotations

import json
from pathlib import Path

from bandtables.cache_files import MANIFEST

#: Every kind of damage :func:`damage` does.
DAMAGE = ("missing file", "truncated", "no manifest", "bad manifest", "a manifest of another shape",
          "no files")


def damage(d: Path, file: str, how: str) -> None:
    """Damage the cache directory ``d``, one of whose array files is ``file``, as ``how``
    (one of :data:`DAMAGE`) says."""
    if how == "missing file":
        (d / file).unlink()
    elif how == "truncated":
        with open(d / file, "r+b") as fh:
            fh.truncate(10)
    elif how == "no manifest":
        (d / MANIFEST).unlink()
    elif how == "bad manifest":
        (d / MANIFEST).write_text("{")
    elif how == "a manifest of another shape":          # one changed byte in a key
        (d / MANIFEST).write_text((d / MANIFEST).read_text().replace('"bytes"', '"bytgs"', 1))
    elif how == "no files":
        m = json.loads((d / MANIFEST).read_text())
        m["files"] = {}
        (d / MANIFEST).write_text(json.dumps(m))
    else:
        raise ValueError(f"no damage {how!r}")
