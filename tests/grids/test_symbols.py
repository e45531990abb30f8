"""grids.symbols: the byte tables read and write what grids.grid's arrays
read and write, without NumPy."""
import numpy as np
import pytest

from grids import grid
from grids.symbols import (ALPHABET, BLANKS, NO_SYMBOL, symbol_bytes, text_block, text_bytes,
                           text_shape)


@pytest.mark.parametrize("n", [1, 4, 9, 16, 35])
def test_symbol_bytes_reads_each_symbol_and_nothing_else(n):
    table = symbol_bytes(n)
    want = {ord(ch): 0 for ch in BLANKS}
    for v, ch in enumerate(ALPHABET[:n], 1):
        want[ord(ch)] = want[ord(ch.lower())] = v
    assert [table[b] for b in range(256)] == [want.get(b, NO_SYMBOL) for b in range(256)]
    assert grid.symbol_table(n).tolist() == [-1 if v == NO_SYMBOL else v for v in table]


@pytest.mark.parametrize("n", [4, 9, 16, 35])
@pytest.mark.parametrize("blank", [".", "0"])
def test_text_block_writes_what_format_block_writes(n, blank):
    grids = np.random.default_rng(n).integers(0, n + 1, size=(37, n * n), dtype=np.uint8)
    block = text_block(grids.tobytes(), n * n, blank)
    assert block == grid.format_block(grids, blank)
    assert block.decode().splitlines() == grid.format_lines(grids, blank)


def test_text_block_of_nothing_and_a_bad_blank():
    assert text_block(b"", 81) == b"" == grid.format_block(np.zeros((0, 81), np.uint8))
    for blank in ("..", "", "é"):
        with pytest.raises(ValueError, match="one ASCII character"):
            text_bytes(blank)
        with pytest.raises(ValueError, match="one ASCII character"):
            grid.format_block([[1, 2, 3, 4]], blank)


def test_grid_exports_the_same_names():
    # one home: grids.grid gives the symbols' functions and error, not copies
    assert grid.text_shape is text_shape and grid.PuzzleError.__module__ == "grids.symbols"
    with pytest.raises(grid.PuzzleError, match="at most 35"):
        text_shape("6x6")
