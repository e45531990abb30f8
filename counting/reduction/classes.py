"""Classes of reduced bands: from a graph on the bands to the numbered classes.

A band reduction joins reduced bands whose completion counts are provably
equal: the moves join a band to its normalised images, the column-set
patterns join bands with equivalent patterns.  Either way the classes are
the connected components of a graph, found by :func:`components` (a
vectorised union-find), and each band is *labelled* by the index of its
class's smallest band.  :func:`classes_from_labels` numbers the classes in
the order of those representatives and weighs each by its size.
"""
from __future__ import annotations

import numpy as np

from counting.reduction.base import BandClass

__all__ = ["components", "classes_from_labels"]


def components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Smallest vertex of each vertex's component in the graph with edges a–b.

    Hook-and-shortcut union-find.  Invariants: ``parent[x] <= x``; after
    each shortcut ``parent[x]`` is a root.  A root is hooked only under a
    smaller vertex, so at the end each component's root is its minimum.

    Examples
    --------
    >>> components(5, np.array([3, 1]), np.array([4, 3])).tolist()
    [0, 1, 2, 1, 1]
    """
    parent = np.arange(n)
    while True:
        pa, pb = parent[a], parent[b]
        differ = pa != pb
        if not differ.any():
            return parent
        lo = np.minimum(pa[differ], pb[differ])
        hi = np.maximum(pa[differ], pb[differ])
        np.minimum.at(parent, hi, lo)
        while True:  # shortcut until every vertex points at a root
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand


def classes_from_labels(bands: np.ndarray,
                        labels: np.ndarray) -> tuple[tuple[BandClass, ...], np.ndarray]:
    """The classes of ``bands`` given each band's label, and each band's class id.

    Parameters
    ----------
    bands : numpy.ndarray
        The reduced bands ``(n, R, N)``, in lexicographic order.
    labels : numpy.ndarray
        Per band, the index of the smallest band of its class.

    Returns
    -------
    classes : tuple of BandClass
        Sorted by representative (= by label, since ``bands`` is sorted);
        ``class_id`` is the position, ``weight`` the number of members.
    class_ids : numpy.ndarray
        Read-only: the class id of every band.
    """
    # Class ids follow the representatives' band indices, which follow
    # lexicographic order because the bands are sorted.
    reps, class_ids, weights = np.unique(labels, return_inverse=True, return_counts=True)
    out = tuple(
        BandClass(k, tuple(tuple(int(d) for d in row) for row in bands[rep]), int(w))
        for k, (rep, w) in enumerate(zip(reps, weights))
    )
    class_ids = class_ids.reshape(-1)
    class_ids.setflags(write=False)
    return out, class_ids
