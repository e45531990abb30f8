"""Specification of counting/reduction/classes.py: components and class lists."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from counting.reduction.classes import classes_from_labels, components


def smallest_in_component(n: int, edges: list[tuple[int, int]]) -> list[int]:
    """Depth-first search from each vertex: the smallest vertex it reaches."""
    adjacent = [[] for _ in range(n)]
    for a, b in edges:
        adjacent[a].append(b)
        adjacent[b].append(a)
    out = []
    for start in range(n):
        seen, todo = {start}, [start]
        while todo:
            for w in adjacent[todo.pop()]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        out.append(min(seen))
    return out


@given(st.integers(1, 40).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=60))))
def test_components_label_each_vertex_by_the_smallest_vertex_it_reaches(graph):
    n, edges = graph
    a = np.array([e[0] for e in edges], dtype=np.intp)
    b = np.array([e[1] for e in edges], dtype=np.intp)
    assert components(n, a, b).tolist() == smallest_in_component(n, edges)


def test_a_long_path_is_one_component():
    # the worst case for hooking: every edge joins two roots at first
    n = 1000
    order = np.random.default_rng(1).permutation(n)
    assert components(n, order[:-1], order[1:]).tolist() == [0] * n


def test_classes_are_numbered_by_representative_and_weighed_by_size():
    bands = np.arange(5 * 2 * 3, dtype=np.uint8).reshape(5, 2, 3)  # stand-ins, in order
    labels = np.array([0, 1, 0, 1, 4])
    classes, ids = classes_from_labels(bands, labels)
    assert [(c.class_id, c.weight) for c in classes] == [(0, 2), (1, 2), (2, 1)]
    assert [c.representative for c in classes] == \
        [tuple(map(tuple, bands[i].tolist())) for i in (0, 1, 4)]
    assert ids.tolist() == [0, 1, 0, 1, 2]
    assert not ids.flags.writeable
