"""A kind file's identity is its content: its normal text, that text's digest,
and the kind files this process knows by digest.

A kind file is named on the command line by its path (``2x3+@jig6.kind``),
but what is counted is what the file says, and the file can be edited, moved
or deleted.  So the kind it makes is named by its content: the constraint
``@PATH`` is called ``kind-DIGEST``, where ``DIGEST`` is the first 16 hex
digits of the SHA-256 of the file's :func:`normal_text`.  That name is the
kind's canonical text (``2x3+kind-0123456789abcdef``): the store's job row
and file name, every unit and every summary carry it, so a store counts one
content and its name is flat (no directory of the path gets into it).

The normal text is the kind file written one way: the region grid (if any)
with its symbols renamed ``A``, ``B``, ... in order of first appearance, then
one ``house`` line per distinct house with its cells in order, one
``differ`` line per distinct pair of cells (in order) and per named rule;
no comments and no blank lines.  Two files that differ only in comments,
spacing, the names of their regions or the order of their lines have one
normal text, so they are one kind.

The *known kinds* (:func:`remember`, :func:`recall`) are the kind files this
process has read, by digest: from a file (:mod:`grids.variants.jigsaw`), from
the store that keeps the normal texts of its job's kind files
(:mod:`counting.store.kinds`), or handed to a worker process
(:func:`learn_texts`, :func:`texts_named`).

Example
-------
>>> from grids.variants.kindfile import parse_kind_text
>>> spec = parse_kind_text("regions\\nxxyy\\nxxyy\\nzzww\\nzzww\\n"
...                        "differ r2c1 r1c1  # a comment\\n", "k")
>>> print(normal_text(spec), end="")
regions
AABB
AABB
CCDD
CCDD
differ r1c1 r2c1
>>> kind_name(remember(spec))
'kind-30249d04de992cdc'
"""
from __future__ import annotations

import hashlib
import re

from grids.variants.kindfile import KindSpec, parse_kind_text

__all__ = ["normal_form", "normal_text", "digest_of", "kind_name", "digests_named",
           "remember", "recall", "learn_texts", "texts_named", "DIGITS"]

DIGITS = 16  # hex digits of SHA-256 in a kind's name (64 bits)
_NAME = re.compile(rf"kind-([0-9a-f]{{{DIGITS}}})")
_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"  # every letter or digit

# digest -> the normal form of every kind file this process has read
_KNOWN: dict[str, KindSpec] = {}


def normal_form(spec: KindSpec) -> KindSpec:
    """``spec`` written one way (see the module docstring); ``source`` kept."""
    regions = None
    if spec.regions is not None:
        names: dict[str, str] = {}
        for row in spec.regions:
            for sym in row:
                names.setdefault(sym, _SYMBOLS[len(names)])
        regions = tuple("".join(names[s] for s in row) for row in spec.regions)
    houses = tuple(sorted({tuple(sorted(h)) for h in spec.houses}))
    pairs = tuple(sorted({tuple(sorted(p)) for p in spec.pairs}))
    return KindSpec(spec.source, regions, houses, pairs, tuple(sorted(set(spec.rules))))


def _cell(rc: tuple[int, int]) -> str:
    return f"r{rc[0] + 1}c{rc[1] + 1}"


def normal_text(spec: KindSpec) -> str:
    """The kind file that says what ``spec`` says, written one way."""
    n = normal_form(spec)
    lines = ["regions", *n.regions] if n.regions is not None else []
    lines += ["house " + " ".join(map(_cell, h)) for h in n.houses]
    lines += [f"differ {_cell(a)} {_cell(b)}" for a, b in n.pairs]
    lines += [f"differ {rule}" for rule in n.rules]
    return "\n".join(lines) + "\n"


def digest_of(text: str) -> str:
    """The digest of a normal text (the ``DIGEST`` of ``kind-DIGEST``)."""
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:DIGITS]


def kind_name(digest: str) -> str:
    """The name of the constraint of the kind file of that digest."""
    return f"kind-{digest}"


def digests_named(kind: str) -> list[str]:
    """The digests of the kind files a kind's canonical text names.

    >>> digests_named("2x3+kind-0123456789abcdef+x")
    ['0123456789abcdef']
    """
    return [m[1] for part in kind.split("+") if (m := _NAME.fullmatch(part.strip()))]


def remember(spec: KindSpec) -> str:
    """Know ``spec`` (a parsed kind file) by its content; its digest."""
    text = normal_text(spec)
    digest = digest_of(text)
    if digest not in _KNOWN:
        _KNOWN[digest] = normal_form(KindSpec(kind_name(digest), spec.regions, spec.houses,
                                              spec.pairs, spec.rules))
    return digest


def recall(digest: str) -> KindSpec | None:
    """The normal form of the known kind file of that digest, or None."""
    return _KNOWN.get(digest)


def learn_texts(texts: dict[str, str], where: str) -> None:
    """Know the kind files of the normal ``texts`` (digest -> text) kept
    elsewhere (a store, a worker's start); ValueError in one line, naming
    ``where``, for a text that is not the normal text of its digest."""
    for digest, text in texts.items():
        if not isinstance(text, str) or not text.isascii() or digest_of(text) != digest:
            raise ValueError(f"{where}: the rules kept for kind-{digest} are not those of "
                             f"that digest (edited or damaged)")
        if digest in _KNOWN:
            continue
        try:
            spec = parse_kind_text(text, kind_name(digest))
        except ValueError as e:
            raise ValueError(f"{where}: the rules kept for kind-{digest} are unreadable "
                             f"({e})") from None
        if normal_text(spec) != text:
            raise ValueError(f"{where}: the rules kept for kind-{digest} are not written "
                             f"in normal form (edited)")
        remember(spec)


def texts_named(kind: str) -> dict[str, str]:
    """The normal texts of the kind files a kind's canonical text names
    (digest -> text: what another process needs to know them); ValueError
    for one this process does not know."""
    out = {}
    for digest in digests_named(kind):
        spec = recall(digest)
        if spec is None:
            raise ValueError(f"grid kind kind-{digest} is a kind file this process has not "
                             f"read: name it by its path (@FILE)")
        out[digest] = normal_text(spec)
    return out
