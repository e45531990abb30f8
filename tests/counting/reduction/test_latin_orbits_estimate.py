"""The cost estimate of a Latin-group job (counting/reduction/latin_orbits.py:
``strata``, ``sample_units``, ``sample_shares``, over counting/reduction/cost.py
and counting/reach.py): its sample holds the terms that carry the work, each
standing for its stratum, so the estimate is of the order of the job.

Order 9's main classes are the job whose cost is known and dominated by a few
terms: 5,889 terms took 154.7 CPU s, one of them 47 s and four 84 s, while
the smallest classes (what the estimate used to sample) fix nothing and took
milliseconds (results/latin-classes-terms-9-main.csv, measured by
scripts/count_latin_classes.py).  No clock is read here: each sampled term's
seconds are taken from that measurement, so each estimate is a fixed number."""
import csv
from pathlib import Path

import pytest

from counting import reach
from counting.plan import in_process_reason
from counting.reduction.latin_orbits import MainClassReduction

RESULTS = Path(__file__).resolve().parents[3] / "results"
#: The estimate, made from a dozen terms, is within this factor of the job,
#: either way; the quick look, from five, within the second (it decides only
#: whether the estimate is made, and whether a pool is started).
FACTOR, QUICK_FACTOR = 5, 10


def measured(order: int, name: str) -> dict[str, tuple[float, int]]:
    """class label -> (CPU seconds, Fix) of every main-class term of ``order``."""
    out = {}
    with open(RESULTS / name, newline="") as f:
        for row in csv.DictReader(f):
            if int(row["n"]) == order and row["group"] == "main classes":
                out[row["class"]] = (float(row["cpu_seconds"]), int(row["fixed"]))
    return out


@pytest.fixture(scope="module", params=[(8, "latin-classes-terms-1-8.csv"),
                                        (9, "latin-classes-terms-9-main.csv")],
                ids=["order 8", "order 9"])
def job(request):
    """The main-class reduction of the order, each term's estimate its
    measured seconds, and the job's measured CPU seconds."""
    order, name = request.param
    terms = measured(order, name)
    red = MainClassReduction(f"1x{order}")
    assert len(terms) == len(red.units())

    def seconds(spec, options, **kw):
        return 0.0 if spec.is_identity else terms[spec.latin_class.label()][0]

    mp = pytest.MonkeyPatch()
    mp.setattr(red, "estimate_unit_seconds", seconds)
    yield red, terms, sum(t for t, _ in terms.values())
    mp.undo()


def test_the_sample_holds_terms_that_fix_squares(job):
    red, terms, _ = job
    for seed in range(5):
        sample = red.sample_units(reach.QUICK["sample"], seed)
        assert any(terms[u.latin_class.label()][1] > 0 for u in sample), seed


def test_each_sampled_term_stands_for_its_stratum_and_all_of_them_for_every_term(job):
    red, _, _ = job
    sample = red.sample_units(2, 3)
    shares = red.sample_shares(sample)
    assert sum(shares) == pytest.approx(len(red.units()) - 1)      # the identity is recorded
    assert [s for s in red.strata() if not any(u in s for u in sample)] == []


@pytest.mark.parametrize("quick", [True, False], ids=["quick look", "estimate"])
def test_the_estimate_is_within_a_factor_of_the_measured_job(job, quick):
    red, _, total = job
    factor = QUICK_FACTOR if quick else FACTOR
    for seed in range(10):
        kw = {**reach.QUICK, "seed": seed} if quick else {"seed": seed}
        cost = reach.job_cost(red, **kw)
        assert total / factor <= cost.cpu_seconds <= total * factor, (seed, cost.cpu_seconds)


def test_a_job_of_many_seconds_is_not_counted_in_the_command_s_process(job):
    red, _, total = job
    look = reach.quick_cost(red)
    assert total > 3 * reach.IN_PROCESS_SECONDS
    assert in_process_reason([look], 2) is None
