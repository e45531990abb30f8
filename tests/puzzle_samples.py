"""Puzzles with known answers, shared by the puzzle tests of ``dlx`` and of
the command line (``tests/`` is on ``sys.path`` through its conftest)."""
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "puzzles"

# Wikipedia's example puzzle and its solution
WIKI = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6"
        ".6....28....419..5....8..79")
WIKI_SOLUTION = ("534678912672195348198342567859761423426853791713924856"
                 "961537284287419635345286179")
# Sudopedia's "Not Unique — 2 Solutions"
TWO = ".39...12....9.7...8..4.1..6.42...79...........91...54.5..1.9..3...8.5....14...87."
# an unsolvable square, no repeated given (Sudopedia)
UNSOLVABLE = "....41....6.....2...2......32.6.........5..417.......2......23..48......5.1..2..."
