"""The counting options (counting/options.py): one frozen value, checked
when it is made."""
import dataclasses
import math
import pickle

import pytest

from counting.options import CountOptions
from dlx.api import MEMO_MB_MAX


def test_the_defaults_are_memo_and_tail_with_16_mib():
    o = CountOptions()
    assert (o.memo, o.memo_mb, o.tail, o.tail_enabled) == (True, 16.0, None, True)


@pytest.mark.parametrize("memo, tail, enabled", [
    (True, None, True),      # the tail follows the memo ...
    (False, None, False),    # ... so --no-memo alone is plain dancing links
    (True, False, False),    # --no-tail
    (False, True, True),     # asked for explicitly
])
def test_the_tail_follows_the_memo_unless_given(memo, tail, enabled):
    assert CountOptions(memo=memo, tail=tail).tail_enabled is enabled


@pytest.mark.parametrize("changes", [{"memo": 1}, {"memo": None}, {"memo": "no"},
                                     {"tail": 0}, {"tail": "off"}])
def test_the_switches_must_be_bools(changes):
    name = next(iter(changes))
    with pytest.raises(ValueError, match=f"CountOptions.{name} must be a bool"):
        CountOptions(**changes)


@pytest.mark.parametrize("memo_mb", [0, -1.0, math.nan, math.inf, MEMO_MB_MAX * 2, "16", True])
def test_the_memo_size_is_checked_when_made(memo_mb):
    with pytest.raises(ValueError, match="memo size must be a number of MiB") as e:
        CountOptions(memo_mb=memo_mb)
    assert "\n" not in str(e.value)


def test_the_memo_size_is_kept_as_a_float():
    o = CountOptions(memo_mb=8)
    assert o.memo_mb == 8.0 and type(o.memo_mb) is float


def test_options_are_frozen_and_travel_to_workers_intact():
    o = CountOptions(memo=True, memo_mb=4.5, tail=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.memo = False
    assert pickle.loads(pickle.dumps(o)) == o
    assert hash(o) == hash(CountOptions(memo=True, memo_mb=4.5, tail=False))
