"""grids.puzzles.explanation: explain one puzzle, rule statistics over many."""
import os
import re
import signal
import subprocess
import sys

import numpy as np
import pytest

from grids import puzzles as P

from puzzle_samples import FIXTURES, TWO, WIKI, WIKI_SOLUTION, completes, is_valid_grid, lines


def test_explain_names_the_rules_and_finds_the_solution():
    e = P.explain(WIKI)
    assert P.format_line(e.solution) == WIKI_SOLUTION
    assert e.branches == 0 and e.backtracks == 0 and e.max_depth == 0
    assert set(e.counts) == set(P.RULES)
    placed = [s for s in e.steps if s.placement]
    assert len(placed) == 81 - 30 == sum(e.counts[r] for r in P.RULES[:4])
    assert placed[0].text.startswith("r") and "single" in placed[0].text
    assert "naked single" in e.table() and "branches (guesses)" in e.table()


def test_rule_counts_are_deterministic():
    puzzles = lines("top1465_20.txt")[:8]
    a = [P.explain(p) for p in puzzles]
    b = [P.explain(p) for p in puzzles]
    assert [(x.counts, x.branches, x.backtracks) for x in a] == \
        [(x.counts, x.branches, x.backtracks) for x in b]
    assert [[s.text for s in x.steps] for x in a] == [[s.text for s in x.steps] for x in b]
    st1 = P.explain_stats(puzzles)
    st2 = P.explain_stats(puzzles, workers=2)
    assert st1.as_dict() == st2.as_dict()
    assert st1.puzzles == 8 == st1.solved
    assert st1.branches == sum(x.branches for x in a)
    assert P.explain(puzzles[0], steps=False).steps == []


def test_explain_a_puzzle_without_solution_and_one_with_several():
    for p in lines("sudopedia_none_7.txt"):
        e = P.explain(p)
        assert e.solution is None and e.reason
    assert "both hold" in P.explain(lines("sudopedia_none_7.txt")[0]).reason
    e = P.explain(TWO)
    assert e.solved and completes(P.to_array(TWO), e.solution)
    assert is_valid_grid(e.solution, "3x3")


@pytest.mark.parametrize("shape", ["2x2", "2x3", "1x5"])
def test_explain_other_shapes(shape):
    s = P.get_sudoku(shape)
    grid = P.random_grid(np.random.default_rng(7), s)
    puzzle = grid.copy()
    puzzle[np.random.default_rng(8).permutation(grid.size)[:grid.size // 2]] = 0
    e = P.explain(puzzle, shape=shape)
    assert e.solved and completes(puzzle, e.solution)
    if P.is_unique(puzzle, shape=shape):
        assert np.array_equal(e.solution, grid)


def test_explain_stats_in_workers_sums_every_chunk_as_one_process_does():
    puzzles = lines("top1465_20.txt") * 3 + lines("sudopedia_none_7.txt")   # 67: 5 chunks
    told = []
    alone = P.explain_stats(puzzles)
    pooled = P.explain_stats(puzzles, workers=2, progress=told.append)
    assert pooled.as_dict() == alone.as_dict()
    assert alone.puzzles == 67 and alone.solved == 60
    assert sum(told) == 67


# Run in a child process: it prints its workers' ids once they are busy, the
# test kills one, and the child must end at once with the library's message.
_KILLED_WORKER_RUN = """
import multiprocessing, sys
import numpy as np
from grids import puzzles as P
grids = np.tile(P.read_puzzles(sys.argv[1]).grids, (200, 1))    # 4,000 puzzles
def progress(k, told=[]):
    if not told:
        told.append(k)
        print(*(p.pid for p in multiprocessing.active_children()), flush=True)
try:
    P.explain_stats(grids, workers=2, progress=progress)
except RuntimeError as e:
    sys.exit(str(e))
print("finished")
"""


def test_explain_stats_stops_with_a_one_line_error_when_a_worker_is_killed(
        fails_instead_of_hanging):
    # a multiprocessing.Pool lost the chunk of a killed worker and then
    # waited for it for ever
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_WORKER_RUN,
                             str(FIXTURES / "top1465_20.txt")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)   # its workers too: killpg below
    workers = []
    try:
        workers = [int(w) for w in proc.stdout.readline().split()]
        assert len(workers) == 2, proc.communicate()
        os.kill(workers[0], signal.SIGKILL)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"explain_stats hung after its worker {workers[0]} was killed")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)    # a replacement worker holds the pipes
            proc.communicate()
    assert proc.returncode == 1 and out == "", (out, err)
    line = err.strip()
    found = re.fullmatch(rf"worker process {workers[0]} died \(signal 9, SIGKILL\) while "
                         r"explaining puzzles (\d+)\.\.(\d+) \(counted from 0\); out of "
                         r"memory\? try fewer workers", line)
    assert found, err
    first, last = int(found[1]), int(found[2])
    assert first % 16 == 0 and last == first + 15 < 4000
    for pid in workers[1:]:                    # the other worker was stopped
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
