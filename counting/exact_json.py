"""Large integers in gridcount's JSON outputs: a decimal string, with the
integer beside it.

A JSON number is read as a double by many readers (JavaScript's
``JSON.parse``, jq before 1.7, spreadsheets), which keep an integer exact
only up to 2^53 (9,007,199,254,740,992) and round larger ones without a
word (2^53 + 1 is read as 2^53; 3x3's Burnside term of the identity,
18,383,222,420,692,992, is printed back as 18,383,222,420,692,990).  So every integer field that can pass 2^53
(a count, a factor, a group or class order, a number of nodes) is given
as a decimal string under its name and as an integer under its name with
``_int`` added: ``"total": "6670903752021072936960"``, ``"total_int":
6670903752021072936960``.  A reader of doubles takes the string; a reader
of exact integers (Python, jq 1.7) either.  Fields that stay far below
2^53 (numbers of units, of classes, of workers, unit ids, seconds) are
plain numbers.  docs/json.md lists the fields of every command.

Example
-------
>>> exact("total", 2 ** 60)
{'total': '1152921504606846976', 'total_int': 1152921504606846976}
>>> exact("total", None)
{'total': None, 'total_int': None}
>>> exact_map({"|G|": 3_359_232})
{'|G|': '3359232', '|G|_int': 3359232}
"""
from __future__ import annotations

from typing import Mapping

__all__ = ["SAFE_LIMIT", "exact", "exact_map"]

SAFE_LIMIT = 2 ** 53   # the first integer a double does not tell from its neighbour (2^53 + 1)


def exact(name: str, value: int | None) -> dict:
    """``{name: "decimal", name + "_int": value}``; both None when ``value`` is."""
    return {name: None if value is None else str(value), f"{name}_int": value}


def exact_map(values: Mapping[str, int | None]) -> dict:
    """:func:`exact` of every ``(name, value)``, in order."""
    out: dict = {}
    for name, value in values.items():
        out.update(exact(name, value))
    return out
