import pytest

from hindsight_pl.recall.packing import pack_by_tokens


@pytest.mark.parametrize(
    ("counts", "budget", "kept"),
    [
        ([10, 20, 30], 100, [1, 2, 3]),  # everything fits
        ([10, 20, 30], 30, [1, 2]),  # 10 + 20 = 30 fills it exactly; 30 more does not fit
        ([50, 10, 10], 30, [2, 3]),  # the top result is too long: skipped, the shorter ones below fit
        ([10, 25, 5], 20, [1, 3]),  # 25 is skipped, 5 still fits after 10
        ([50, 60, 70], 30, [1]),  # nothing fits: the top result is returned whole
        ([10, 20], 0, []),  # max_tokens = 0 returns nothing
        ([], 100, []),
    ],
)
def test_pack_by_tokens(counts, budget, kept):
    assert pack_by_tokens(counts, budget) == kept


def test_negative_budget_is_an_error():
    with pytest.raises(ValueError, match="max_tokens must be >= 0"):
        pack_by_tokens([1], -1)


def test_negative_count_is_an_error():
    with pytest.raises(ValueError, match="position 2 is negative"):
        pack_by_tokens([1, -3], 10)
