"""Lists of unit ids as people type and read them: ``0-9,15,700-709``.

``gridcount count --units`` reads one (:func:`parse_unit_list`);
``gridcount status`` prints the units left as one, cut to the terminal
(:func:`format_unit_list`).
"""
from __future__ import annotations

import re
from typing import Iterable

__all__ = ["parse_unit_list", "format_unit_list"]

_UNIT_ITEM = re.compile(r"([0-9]+)(?:-([0-9]+))?")  # ASCII digits only: not '٣', '+3', '1_0'


def parse_unit_list(text: str, n_units: int) -> list[int]:
    """Parse ``"0-9,15,700-709"`` into unit ids, checking the range.

    Ids are ASCII decimal digits; spaces around an item are allowed, empty
    items between commas are skipped, but a list with no id at all (``""``,
    ``","``) is refused.

    Example
    -------
    >>> parse_unit_list("0-2,7", 710)
    [0, 1, 2, 7]
    """
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        match = _UNIT_ITEM.fullmatch(part)
        if match is None:
            raise ValueError(f"bad unit list item {part!r}: use ids and ranges like 0-9,15")
        a = int(match[1])
        b = a if match[2] is None else int(match[2])
        if a > b:
            raise ValueError(f"bad unit range {part!r}: start after end")
        if a < 0 or b >= n_units:
            raise ValueError(f"unit ids {part!r} out of range 0..{n_units - 1}")
        ids.update(range(a, b + 1))
    if not ids:
        raise ValueError("empty unit list: give ids and ranges like 0-9,15")
    return sorted(ids)


def format_unit_list(ids: Iterable[int], width: int | None = None) -> str:
    """Unit ids as :func:`parse_unit_list` reads them, runs as ranges; with
    ``width``, at most that many characters: the first ranges that fit (at
    least one), then ``… and N more``, ``N`` the ids left out.

    Example
    -------
    >>> format_unit_list([0, 1, 2, 7, 9, 10])
    '0-2,7,9-10'
    >>> format_unit_list(range(0, 400, 2), width=24)
    '0,2,4,6,8,… and 195 more'
    """
    ids = list(ids)
    runs: list[list[int]] = []    # [first, last, how many ids come before first]
    for k, i in enumerate(ids):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i, k])
    parts = [f"{a}" if a == b else f"{a}-{b}" for a, b, _ in runs]
    text = ",".join(parts)
    if width is None or len(text) <= width or len(parts) < 2:
        return text

    def more(k: int) -> str:   # what follows the first k ranges
        return f",… and {len(ids) - runs[k][2]:,} more"

    shown, used = 1, len(parts[0])   # the ranges kept, and their characters
    while shown < len(parts) - 1 and used + 1 + len(parts[shown]) + len(more(shown + 1)) <= width:
        shown, used = shown + 1, used + 1 + len(parts[shown])
    return ",".join(parts[:shown]) + more(shown)
