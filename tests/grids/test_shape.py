"""grids.shape: the cells of units and peers as ints are the geometry the
arrays give, and a Shape is made and read without NumPy."""
import numpy as np
import pytest

from grids.shape import Shape

SHAPES = [Shape(1, 1), Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(1, 5), Shape(5, 1),
          Shape(3, 3), Shape(3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_unit_and_peer_cells_are_the_units_and_peers(shape):
    assert shape.unit_cells == tuple(tuple(cells.tolist()) for _, cells in shape.units)
    assert shape.peer_cells == tuple(tuple(p.tolist()) for p in shape.peers)
    n = shape.n
    for k in range(shape.n_cells):
        r, c = divmod(k, n)
        want = {j for j in range(shape.n_cells)
                if j != k and (j // n == r or j % n == c
                               or shape.box_of(j // n, j % n) == shape.box_of(r, c))}
        assert set(shape.peer_cells[k]) == want


def test_numpy_integers_are_box_sizes_and_numpy_bools_are_not():
    assert Shape(np.int64(2), np.uint8(3)) == Shape(2, 3)
    for bad in (np.bool_(True), True, 2.0, "2"):
        with pytest.raises(ValueError, match="integer >= 1"):
            Shape(bad, 2)


def test_a_shape_is_made_and_read_without_numpy(python_probe):
    out = python_probe("import sys; from grids.shape import Shape; s = Shape.parse('2x3'); "
                       "print(len(s.unit_cells), len(s.peer_cells), 'numpy' in sys.modules)")
    assert out == "18 36 False"
