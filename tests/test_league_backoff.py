"""The league sync's wait after failed passes: doubling, capped, jittered, and defined for
any number of failures (a table offline for a week fails thousands of passes in a row)."""

import random

import pytest

from league.sync import backoff


@pytest.mark.parametrize("failures", [1025, 5000, 10**6])
def test_a_table_offline_for_days_still_gets_a_wait_within_the_cap(failures):
    wait = backoff(failures, 1.0, 300.0, random.Random(1))
    assert 150.0 <= wait <= 300.0


def test_the_wait_doubles_from_the_base_up_to_the_cap():
    class Top(random.Random):
        def uniform(self, a, b):  # no jitter: the upper end
            return b

    waits = [backoff(n, 1.0, 300.0, Top()) for n in range(0, 12)]
    assert waits == [1.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 300.0, 300.0]


def test_jitter_keeps_tables_apart_between_half_and_all_of_the_wait():
    rng = random.Random(7)
    waits = {round(backoff(4, 1.0, 300.0, rng), 6) for _ in range(50)}
    assert len(waits) > 40 and all(4.0 <= w <= 8.0 for w in waits)
