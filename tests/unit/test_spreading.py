import pytest

from hindsight_pl.recall.spreading import Link, SpreadParams, spread

P = SpreadParams()


def links_from(table):
    """fetch_links over a fixed table {source: [Link, ...]}, recording what was asked."""
    asked = []

    def fetch(frontier):
        asked.append(list(frontier))
        return [link for unit in frontier for link in table.get(unit, [])]

    return fetch, asked


def test_causal_then_temporal_chain():
    fetch, asked = links_from(
        {
            "A": [Link("A", "B", "causes", 0.5, 0.4)],
            "B": [Link("B", "C", "temporal", 0.8, None)],
            "C": [Link("C", "D", "temporal", 0.5, 0.15)],
            "D": [Link("D", "E", "temporal", 1.0, 0.9)],
        }
    )
    scores = spread({"A": 0.9}, fetch, P, max_nodes=100)
    assert scores["B"] == pytest.approx(0.63)  # max(0.4, 0.9 * 0.5 * 2.0 * 0.7)
    assert scores["C"] == pytest.approx(0.3528)  # max(0.3 (no date), 0.63 * 0.8 * 1.0 * 0.7)
    assert scores["D"] == pytest.approx(0.15)  # max(0.15, 0.3528 * 0.5 * 0.7 = 0.123)
    assert "E" not in scores  # D (0.15) is not above 0.2, so it does not spread
    assert asked == [["A"], ["B"], ["C"]]


def test_enables_and_prevents_boost_is_1_5():
    fetch, _ = links_from({"A": [Link("A", "B", "enables", 1.0, 0.0), Link("A", "C", "prevents", 0.5, 0.0)]})
    scores = spread({"A": 0.5}, fetch, P, max_nodes=10)
    assert scores == {"A": 0.5, "B": pytest.approx(0.525), "C": pytest.approx(0.2625)}


def test_entry_below_threshold_does_not_spread():
    fetch, asked = links_from({"A": [Link("A", "B", "causes", 1.0, 0.9)]})
    assert spread({"A": 0.2}, fetch, P, max_nodes=10) == {"A": 0.2}
    assert asked == []


def test_a_stronger_path_raises_a_score_and_entries_keep_theirs():
    fetch, _ = links_from(
        {
            "A": [Link("A", "C", "temporal", 0.5, 0.1)],
            "B": [Link("B", "C", "causes", 1.0, 0.1), Link("B", "A", "temporal", 0.1, 0.3)],
        }
    )
    scores = spread({"A": 1.0, "B": 1.0}, fetch, P, max_nodes=10)
    assert scores["C"] == pytest.approx(1.4)  # via B: 1.0 * 1.0 * 2.0 * 0.7 beats 0.35 via A
    assert scores["A"] == 1.0  # 0.07 via B does not lower an entry point


def test_max_nodes_and_rounds_bound_the_walk():
    chain = {f"n{i}": [Link(f"n{i}", f"n{i + 1}", "temporal", 1.0, 1.0)] for i in range(20)}
    fetch, _ = links_from(chain)
    assert sorted(spread({"n0": 1.0}, fetch, P, max_nodes=100)) == [f"n{i}" for i in range(6)]  # 5 rounds
    fetch, _ = links_from(chain)
    assert len(spread({"n0": 1.0}, fetch, P, max_nodes=3)) == 3


def test_params_from_config():
    config = {
        "temporal_max_rounds": 2,
        "temporal_links_per_node": 4,
        "temporal_min_link_weight": 0.2,
        "temporal_decay": 0.5,
        "temporal_spread_threshold": 0.1,
        "temporal_no_date_score": 0.25,
        "temporal_link_boosts": {"temporal": 1.0, "causes": 3.0},
    }
    params = SpreadParams.from_config(config)
    assert (params.max_rounds, params.links_per_node, params.decay, params.boosts["causes"]) == (2, 4, 0.5, 3.0)


def test_negative_max_nodes():
    with pytest.raises(ValueError):
        spread({}, lambda f: [], P, max_nodes=-1)
