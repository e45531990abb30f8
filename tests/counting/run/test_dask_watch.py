"""What a Dask run's worker watch says (:mod:`counting.run.dask_watch`),
with a stand-in for the client: no cluster, no timing."""
from __future__ import annotations

from counting.run.dask_watch import WorkerWatch


class Scheduler:
    """A client whose scheduler has ``n`` workers; counts how often it is asked."""

    def __init__(self, n: int):
        self.n = n
        self.asked = 0

    def scheduler_info(self, n_workers=-1) -> dict:
        self.asked += 1
        return {"n_workers": self.n, "workers": {}}


def test_a_result_after_no_workers_says_at_once_that_counting_goes_on():
    """The watch looks at most once a second; a replacement worker could count
    every unit left within that second, and the run ended having said only
    that counting had stopped (CI of adfcfd7, test_dask.py's restarted-worker
    spec).  A result coming in makes it look again at once."""
    said: list[str] = []
    client = Scheduler(0)
    watch = WorkerWatch(client, "tcp://h:1", 300, said.append)
    watch.check()
    assert said == ["no Dask worker is connected to the scheduler at tcp://h:1: counting has "
                    "stopped; waiting up to 300 s (--wait-workers) for one to join"]
    client.n = 1
    watch.check()                      # within the second: not asked again
    assert len(said) == 1
    watch.result_in()
    assert said[1:] == ["1 Dask worker(s) connected to the scheduler at tcp://h:1: "
                        "counting goes on"]


def test_a_result_while_workers_are_there_asks_the_scheduler_nothing():
    client = Scheduler(2)
    watch = WorkerWatch(client, "tcp://h:1", 300, lambda msg: None)
    watch.check()
    watch.result_in()
    watch.result_in()
    assert client.asked == 1
