"""The bands of a kind the kind band tables count (:mod:`bandtables.kind_tables`):
every filling of a band whose row 1 is in order, and where a kind's one extra
house meets each band.

Example
-------
>>> band_fillings(2).shape          # 2x3: row 2 each box's other digits, in every order
(36, 2, 6)
>>> band_house_columns("2x3") is None  # no extra house
True
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from grids.kind import as_kind

__all__ = ["band_fillings", "band_house_columns"]


@lru_cache(maxsize=None)
def band_fillings(R: int) -> np.ndarray:
    """Every band of ``R`` rows whose row 1 reads ``0..N-1`` (0-based digits),
    ``(F, R, N)`` int8: rows ``2..R-1`` by filtering permutations, the last row as the
    digits each box still lacks, in every order inside each box."""
    N = 3 * R
    stack = np.arange(N) // 3
    bands = np.arange(N, dtype=np.int8)[None, None, :]
    if R > 2:
        perms = np.array(list(itertools.permutations(range(N))), dtype=np.int8)
    for _ in range(1, R - 1):
        out = []
        for band in bands:
            ok = np.ones(len(perms), dtype=bool)
            for row in band:
                ok &= np.all(perms != row[None, :], axis=1)
                for s in range(R):
                    box = set(row[stack == s].tolist())
                    ok &= ~np.isin(perms[:, stack == s], list(box)).any(axis=1)
            out.append(np.concatenate([np.broadcast_to(band, (int(ok.sum()),) + band.shape),
                                       perms[ok][:, None, :]], axis=1))
        bands = np.concatenate(out)
    orders = list(itertools.permutations(range(3)))
    lasts = []
    for s in range(R):
        seen = bands[:, :, stack == s].reshape(len(bands), -1)
        missing = np.array([sorted(set(range(N)) - set(r)) for r in seen.tolist()], dtype=np.int8)
        lasts.append(missing[:, orders])                           # (B, 6, 3)
    rows = []
    for combo in itertools.product(range(6), repeat=R):
        rows.append(np.concatenate([lasts[s][:, o] for s, o in enumerate(combo)], axis=1))
    last = np.stack(rows, axis=1).reshape(-1, N)                   # band-major, then combo
    full = np.concatenate([np.repeat(bands, 6 ** R, axis=0), last[:, None, :]], axis=1)
    return np.ascontiguousarray(full)


def band_house_columns(kind) -> tuple[tuple[tuple[int, int], ...], ...] | None:
    """For each band, its house cells as ``(row in the band, column in the box)`` by box,
    or None for a kind with no extra house.

    Raises
    ------
    ValueError
        Unless the kind has boxes of ``R`` rows × 3 columns (``R`` = 2, 3), no difference
        pairs and at most one extra house, with one cell in every box.
    """
    kind = as_kind(kind)
    s = kind.shape
    if s.latin or kind.regions() is not None or s.box_cols != 3 or s.box_rows not in (2, 3):
        raise ValueError(f"{kind}: kind band tables need boxes of 2 or 3 rows × 3 columns")
    if kind.differences():
        raise ValueError(f"{kind}: kind band tables carry house digits, not difference pairs")
    houses = kind.houses()
    if not houses:
        return None
    if len(houses) > 1:
        raise ValueError(f"{kind}: kind band tables carry one extra house, got {len(houses)}")
    R, n = s.box_rows, s.n
    cells: dict = {}
    for k in houses[0]:
        r, c = divmod(k, n)
        cells.setdefault((r // R, c // 3), []).append((r % R, c % 3))
    if len(houses[0]) != n or any(len(v) != 1 for v in cells.values()) or len(cells) != n:
        raise ValueError(f"{kind}: its extra house does not have one cell in every box")
    return tuple(tuple(cells[(b, st)][0] for st in range(R)) for b in range(3))
