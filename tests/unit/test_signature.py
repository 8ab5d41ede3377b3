"""What tells facts apart (hindsight_pl.signature), and the within-call deduplication that asks it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from hindsight_pl.retain.dedupe import SAME_TEXT, SIMILAR_EMBEDDING, Deduplicator
from hindsight_pl.retain.extract import Fact
from hindsight_pl.signature import compatible, difference, signature

SAID = datetime(2024, 6, 10, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("a", "b", "feature"),
    [
        ("Item 2: Mara planted 2 tulips.", "Item 3: Mara planted 3 tulips.", "numbers"),
        ("Mara planted two tulips.", "Mara planted three tulips.", "numbers"),
        ("The rent is $1,200 a month.", "The rent is $1,300 a month.", "numbers"),
        ("Ana paid 40 euros.", "Ana paid 40 dollars.", "numbers"),  # same number, other currency
        ("Ana paid €40.", "Ana paid $40.", "numbers"),
        ("Ana is in Room 101.", "Ana is in Room 102.", "numbers"),
        ("We shipped v2.3.1 today.", "We shipped v2.3.2 today.", "numbers"),
        ("Ticket JIRA-42 is open.", "Ticket JIRA-43 is open.", "numbers"),
        ("Ana took flight UA123.", "Ana took flight UA124.", "numbers"),
        ("我有三只猫。", "我有两只猫。", "numbers"),
        ("Ana hat zwei Katzen.", "Ana hat drei Katzen.", "numbers"),
        ("The team meets on Monday.", "The team meets on Tuesday.", "dates"),
        ("Ana moved in March.", "Ana moved in April.", "dates"),
        ("Ana likes jazz.", "Ana does not like jazz.", "negation"),
        ("Ana likes jazz.", "Ana doesn't like jazz.", "negation"),
        ("Ana mag Jazz.", "Ana mag keinen Jazz.", "negation"),
        ("Ana aime le jazz.", "Ana n'aime pas le jazz.", "negation"),
        ("我喜欢爵士乐。", "我不喜欢爵士乐。", "negation"),
    ],
)
def test_what_tells_two_facts_apart(a, b, feature):
    assert difference(signature(a), signature(b)) == feature


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ana adopted a grey cat named Pixel.", "ana adopted a grey cat named pixel!"),  # case, punctuation
        ("Ana adopted a grey cat.", "Ana adopted a gray cat."),  # wording only
        ("The rent is $1,000.", "The rent is 1000 dollars."),  # one amount, written two ways
        ("Ana arrived on the 1st.", "Ana arrived on the first."),
        ("Ana doesn't like jazz.", "Ana does not like jazz."),  # one negation either way
    ],
)
def test_the_same_fact_in_other_words_is_not_told_apart(a, b):
    assert difference(signature(a), signature(b)) is None


def test_entities_must_agree_but_a_name_in_the_other_text_counts():
    # the extractor finds no name in lower case: "ana adopted a cat" lists none, yet says Ana
    assert compatible("Ana adopted a cat.", ["Ana"], "ana adopted a cat!", []) is True
    assert compatible("Ana adopted a cat.", ["Ana"], "ana adopted a cat!", ["Cat"]) is True  # "cat" is in both texts
    assert compatible("Ana met Bo.", ["Ana", "Bo"], "Ana met Cy.", ["Ana", "Cy"]) is False
    # a caller's name the text does not show still tells two facts apart
    assert compatible("The meeting moved.", ["Team A"], "The meeting moved.", ["Team B"]) is False
    assert compatible("张三去了北京。", ["张三"], "张三去了北京", []) is True  # no spaces in Chinese
    assert difference(signature("Ana met Bo.", ["Bo"]), signature("Ana met Cy.", ["Cy"])) == "entities"


def test_occurred_dates_tell_facts_apart():
    monday, tuesday = SAID, SAID + timedelta(days=1)
    assert difference(signature("Ana ran.", (), monday, monday), signature("Ana ran.", (), tuesday, tuesday)) == "dates"
    assert difference(signature("Ana ran.", (), monday, monday), signature("Ana ran.")) == "dates"
    assert difference(signature("Ana ran.", (), monday, monday), signature("Ana ran.", (), monday, monday)) is None


def test_numbers_are_read_whole_and_compared_as_values():
    s = signature("Ticket #4512: refund of $1,000.50 on 2024-05-01 for JIRA-42, twelve seats")
    # thousands separators dropped, the amount tagged with its currency, ids and dates whole
    assert s.numbers == ("1000.50", "12", "2024-05-01", "4512", "USD 1000.50", "jira-42")
    assert s.currencies == frozenset({"USD"})


def test_within_a_call_the_300_tulips_are_300_facts():
    dedupe = Deduplicator(0.95)
    facts = [Fact(f"Item {i}: Mara planted {i} tulips in the Oslo garden on a rainy day.", 0, entities=[f"Item {i}"])
             for i in range(300)]  # fmt: skip
    same = np.array([1.0, 0.0])  # one vector for all: only the guard can keep them apart
    kept = [k for i, f in enumerate(facts) for k in dedupe.by_embedding([f], [same], SAID, item=i)]
    assert kept == facts and dedupe.merges == []


def test_repeats_merge_into_the_most_similar_fact_that_agrees_and_are_recorded():
    dedupe = Deduplicator(0.95)
    two = Fact("Mara planted 2 tulips.", 0, entities=["Mara"])
    three = Fact("Mara planted 3 tulips.", 0, entities=["Mara"])
    again = Fact("mara planted 3 tulips!", 0)
    kept = dedupe.by_text([two, three], SAID, item=0) + dedupe.by_text([again], SAID, item=1)
    assert kept == [two, three]
    (merge,) = dedupe.merges
    assert (merge.repeat, merge.item, merge.kept, merge.reason, merge.similarity) == (again, 1, three, SAME_TEXT, None)
    # "two" is the nearest (0.999) but says 2: the repeat goes to "three" (0.99)
    close = Fact("Mara put 3 tulips in the ground.", 0, entities=["Mara"])
    v2, v3, vc = np.array([1.0, 0.0]), np.array([0.99, np.sqrt(1 - 0.99**2)]), np.array([0.9995, 0.0316])
    assert dedupe.by_embedding([two, three], [v2, v3], SAID, item=0) == [two, three]
    assert dedupe.by_embedding([close], [vc / np.linalg.norm(vc)], SAID, item=2) == []
    merge = dedupe.merges[-1]
    assert (merge.repeat, merge.item, merge.kept, merge.reason) == (close, 2, three, SIMILAR_EMBEDDING)
    assert merge.similarity == pytest.approx(float(v3 @ (vc / np.linalg.norm(vc))), abs=1e-4)


def test_a_repeat_of_a_fact_that_is_merged_later_names_the_fact_finally_kept():
    dedupe = Deduplicator(0.95)
    first = Fact("Ana adopted a grey cat.", 0)
    second, echo = Fact("Ana adopted a gray cat.", 0), Fact("ana adopted a gray cat", 0)
    kept = dedupe.by_text([first, second, echo], SAID, item=0)
    assert kept == [first, second]
    v = np.array([1.0, 0.0])
    assert dedupe.by_embedding(kept, [v, v], SAID, item=0) == [first]
    assert [(m.repeat, m.kept, m.reason) for m in dedupe.merges] == [
        (echo, first, SAME_TEXT),  # echo went into second, and second into first
        (second, first, SIMILAR_EMBEDDING),
    ]


def test_a_repeat_names_the_place_of_the_unit_it_was_stored_as():
    """A fact by_embedding keeps is its item's n-th unit (n counting only the facts kept of that item); a repeat's
    merge names that place, which is how retain finds the unit id of a repeat (no object identity across calls)."""
    dedupe = Deduplicator(0.95)
    ran, swam, again = Fact("Ana ran 5 km.", 0), Fact("Bo swam 2 km.", 0), Fact("ana ran 5 km", 0)
    first = dedupe.by_text([ran, swam], SAID, item=3)
    assert dedupe.by_text([again], SAID, item=4) == []  # the same text as "ran": merged before any embedding
    assert dedupe.place(ran) is None  # kept by text only so far: no unit yet
    assert dedupe.by_embedding(first, [np.array([1.0, 0.0]), np.array([0.0, 1.0])], SAID, item=3) == first
    assert (dedupe.place(ran), dedupe.place(swam), dedupe.place(again)) == ((3, 0), (3, 1), None)
    (merge,) = dedupe.merges
    assert (merge.repeat, merge.item, merge.kept, merge.kept_at) == (again, 4, ran, (3, 0))
