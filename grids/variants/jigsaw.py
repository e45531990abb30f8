"""A kind from a file: regions replacing the boxes, extra houses, difference pairs.

The constraint ``@PATH`` (``"3x3+@puzzles/j1.kind"``) reads the kind file at
``PATH`` (:mod:`grids.variants.kindfile`) when the kind is made, and checks
it against the grid size: the region grid is ``N × N`` with ``N`` regions of
``N`` cells; houses have ``N`` distinct cells on the grid; pairs are two
distinct cells on the grid; named rules exist.  A file without a ``regions``
block keeps the boxes.  It combines with the named rules (``"3x3+@j1.kind+x"``).

The constraint is named by the file's content, not its path:
``kind-DIGEST`` (:mod:`grids.variants.kindcontent`), which is also a name
this factory accepts for a kind file this process knows (one it has read,
or one a store keeps).  A file is parsed once per content: reading it again
costs a read and a hash, and the constraint of a content is made once.

Example
-------
>>> from grids.kind import as_kind
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp(), "j.kind")
>>> _ = path.write_text("regions\\nAABB\\nAABB\\nCCDD\\nCCDD\\n")
>>> kind = as_kind(f"2x2+@{path}")
>>> kind.regions()[0]
(0, 1, 4, 5)
>>> kind.name
'2x2+kind-91992113ebf4be22'
>>> as_kind(kind.name) == kind      # by its content, with no file
True
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import replace

from grids.shape import Shape
from grids.variants.differences import difference_rule
from grids.variants import kindfile
from grids.variants.kindcontent import digests_named, kind_name, recall, remember
from grids.variants.kindfile import KindSpec, read_kind_text

__all__ = ["KindFileConstraint", "kind_file_constraint"]


class KindFileConstraint:
    """The constraint ``@PATH``: what the kind file at ``PATH`` says.

    Parameters
    ----------
    digest : str
        The digest of the file's content (:func:`~grids.variants.kindcontent.remember`).
    spec : KindSpec
        The file in normal form (its ``source`` names it in messages).
    label : str
        What the kind was called (``"@PATH"``, or the name), for messages.

    Attributes
    ----------
    name : str
        ``"kind-DIGEST"``: the kind's canonical text names its content.
    """

    def __init__(self, digest: str, spec: KindSpec, label: str):
        self.name = kind_name(digest)
        self.spec = spec
        self.label = label
        for rule in spec.rules:
            if difference_rule(rule) is None:
                raise ValueError(f"kind file {spec.source}: unknown difference rule {rule!r}")

    def __repr__(self) -> str:
        return f"KindFileConstraint({self.name!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, KindFileConstraint) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def applies_to(self, shape: Shape) -> str | None:
        try:
            self.regions(shape)
            self.houses(shape)
            self.differences(shape)
        except ValueError as e:
            return str(e)
        return None

    def _cell(self, rc: tuple[int, int], n: int) -> int:
        r, c = rc
        if r >= n or c >= n:
            raise ValueError(f"kind file {self.spec.source}: r{r + 1}c{c + 1} is off the "
                             f"{n}×{n} grid")
        return r * n + c

    def regions(self, shape: Shape) -> tuple[tuple[int, ...], ...] | None:
        """The regions, in order of first appearance, or None (no regions block)."""
        grid, n, src = self.spec.regions, shape.n, self.spec.source
        if grid is None:
            return None
        if len(grid) != n or any(len(row) != n for row in grid):
            raise ValueError(f"kind file {src}: the region grid must be {n} lines of {n} "
                             f"symbols, got {len(grid)} lines of {sorted({len(r) for r in grid})}")
        cells = defaultdict(list)
        for r, row in enumerate(grid):
            for c, sym in enumerate(row):
                cells[sym].append(r * n + c)
        if len(cells) != n:
            raise ValueError(f"kind file {src}: {len(cells)} regions, a {n}×{n} grid needs {n}")
        for sym, members in cells.items():
            if len(members) != n:
                raise ValueError(f"kind file {src}: region {sym!r} has {len(members)} cells, "
                                 f"not {n}")
        return tuple(tuple(v) for v in cells.values())

    def houses(self, shape: Shape) -> tuple[tuple[int, ...], ...]:
        out, n = [], shape.n
        for k, house in enumerate(self.spec.houses):
            cells = [self._cell(rc, n) for rc in house]
            if len(set(cells)) != len(cells):
                raise ValueError(f"kind file {self.spec.source}: house {k + 1} repeats a cell")
            if len(cells) != n:
                raise ValueError(f"kind file {self.spec.source}: house {k + 1} has "
                                 f"{len(cells)} cells, not {n}")
            out.append(tuple(sorted(cells)))
        return tuple(out)

    def differences(self, shape: Shape) -> tuple[tuple[int, int], ...]:
        out = set()
        for a, b in self.spec.pairs:
            a, b = self._cell(a, shape.n), self._cell(b, shape.n)
            if a == b:
                raise ValueError(f"kind file {self.spec.source}: a cell cannot differ from itself "
                                 f"(r{a // shape.n + 1}c{a % shape.n + 1})")
            out.add((min(a, b), max(a, b)))
        for rule in self.spec.rules:
            out.update(difference_rule(rule).differences(shape))
        return tuple(sorted(out))


# (SHA-256 of a file's bytes, its path) -> its digest: a file read again is not parsed again
_READ: dict[tuple[bytes, str], str] = {}


def kind_file_constraint(name: str) -> KindFileConstraint | None:
    """``@PATH`` or ``kind-DIGEST`` -> the constraint of that kind file; None
    for other names (the factory).  ValueError in one line for a file that
    cannot be read or parsed, and for a digest this process does not know."""
    named = digests_named(name)
    if named:
        spec = recall(named[0])
        if spec is None:
            raise ValueError(f"grid kind {name!r} is a kind file this process has not read: "
                             f"name it by its path (@FILE), or read the store that keeps it")
        return KindFileConstraint(named[0], spec, name)
    if not name.startswith("@"):
        return None
    if len(name) == 1:
        raise ValueError("'@' must be followed by the path of a kind file")
    path = name[1:]
    text = read_kind_text(path)
    key = (hashlib.sha256(text.encode("ascii")).digest(), path)
    digest = _READ.get(key)
    if digest is None:
        digest = _READ[key] = remember(kindfile.parse_kind_text(text, path))
    return KindFileConstraint(digest, replace(recall(digest), source=path), name)
