"""hindsight_pl.updates: which newer fact revises which older one, and the order recall gives them."""

from __future__ import annotations

import math

import pytest

from hindsight_pl.updates import (
    SCALAR_FEATURES,
    Pair,
    clauses,
    content_words,
    cue,
    features,
    judge_weights,
    link_confidence,
    order,
    probability,
    revises,
)


@pytest.mark.parametrize(
    ("newer", "older"),
    [
        # a reversal, sharing only the name of the thing
        ("Lena: We agreed to keep Stripe after all, the Adyen contract was too rigid.",
         "Lena: A switch from Stripe to Adyen is planned for the checkout."),
        # a cancellation and a move
        ("Omar: Porto is cancelled, the team offsite moved to Valencia.",
         "Omar: The team offsite is booked in Porto for the first week of October."),
        # other numbers with "now", the update mentioned in passing in a long turn
        ("I'm looking for ideas for my next post. By the way, I just checked and I'm now at 600 followers!",
         "By the way, I just reached 500 followers last week, and I'm hoping to keep that momentum going."),
        # the number in the clause after the subject's: the clause before counts
        ("By the way, I've been meaning to check my current follower count. I think I'm close to 1300 now.",
         "And by the way, I've got 1250 followers on Instagram now."),
        # other numbers and two shared words, no cue
        ("We raised the API rate limit to 250 requests per minute.", "The API rate limit is 100 requests per minute."),
        # other languages
        ("Die Weihnachtsfeier wurde in die Markthalle verlegt.", "Die Weihnachtsfeier findet im Ratskeller statt."),
        ("Non usiamo più Sapori, il catering lo fa Gusto invece.", "Il fornitore del catering è Sapori."),
        ("会议改到周五。", "会议在周四。"),
    ],
)  # fmt: skip
def test_a_newer_fact_that_changes_a_value_revises_the_older(newer: str, older: str) -> None:
    assert revises(newer, older)


@pytest.mark.parametrize(
    ("newer", "older"),
    [
        # same subject, nothing changed
        ("Ana drinks tea every afternoon.", "Ana likes green tea."),
        # a cue, but another subject
        ("The dentist appointment moved to Friday.", "The team offsite is booked in Porto."),
        # numbers, but nothing in common
        ("I ran 10 km on Sunday.", "We hired 3 engineers in March."),
        # no cue, no number
        ("The design review went well.", "The design review is on Thursday."),
        # a number, and the same person: two facts about Ana, not an update
        ("Ana ran 5 km in Riverside Park before work.", "Ana adopted a grey cat named Pixel."),
    ],
)
def test_a_fact_that_changes_nothing_or_talks_of_something_else_revises_nothing(newer: str, older: str) -> None:
    assert not revises(newer, older)


def test_a_shared_entity_named_in_both_clauses_makes_one_subject() -> None:
    newer, older = "Rosa has 3 cats now.", "Rosa's flat is small, she has 2 cats."
    assert revises(newer, older, ["Rosa"])
    assert not revises("Rosa ran 10 km.", "Rosa has 2 cats.", ["Rosa"])


def test_clauses_split_at_sentences_and_dashes_but_not_after_a_title() -> None:
    text = "Maya: I see Dr. Smith every week - she helps. And you?"
    assert clauses(text) == ["I see Dr. Smith every week", "she helps.", "And you?"]
    assert content_words("The teams were planning offsites") == {"team", "plann", "offsite"}


def test_cues_are_strong_for_a_reversal_and_weak_for_todays_value() -> None:
    assert cue("we kept Stripe after all") == "strong"
    assert cue("the hackathon was called off") == "strong"
    assert cue("I'm now at 600 followers") == "weak"
    assert cue("the review is on Thursday") is None


def test_order_moves_a_superseded_unit_right_below_its_update() -> None:
    assert order(list("abcdef"), [("d", "b")]) == list("adbcef")
    # a chain: f revises d, which revised b
    assert order(list("abcdef"), [("d", "b"), ("f", "d")]) == list("afdbce")
    # already below: nothing moves; unknown ids are ignored
    assert order(list("abcdef"), [("a", "b"), ("x", "c")]) == list("abcdef")
    assert order([], [("a", "b")]) == []


# -- the update judge (update_judge.json, bench/update_pairs.py) ------------------------------------------------


def test_the_shipped_judge_reads_the_features_this_module_computes() -> None:
    judge = judge_weights()
    assert judge["features"] == list(SCALAR_FEATURES)
    assert len(judge["weights"]) == len(judge["mean"]) == len(judge["scale"]) == len(SCALAR_FEATURES)
    assert all(s > 0 for s in judge["scale"])


def test_the_rule_proposes_and_the_judge_weighs() -> None:
    revision = Pair(
        "Omar: Porto is cancelled, the team offsite moved to Valencia.",
        "Omar: The team offsite is booked in Porto for the first week of October.",
        0.9,
        18.0,
    )
    unrelated = Pair("Sofia: New order confirmation screen for Falcon is in Figma.",
                     "Maya: Priya is the tech lead for Falcon.", 0.88, 140.0)  # fmt: skip
    question = Pair("so where is the offsite now, porto still?", "Omar: The team offsite is booked in Porto.", 0.9)
    confidence = link_confidence([revision, unrelated, question])
    assert confidence[1] == 0.0  # no change of one subject: the rule proposes nothing, the judge is not asked
    assert 0.5 <= confidence[0] < 1.0  # a link (the bank's update_min_confidence is 0.5)
    assert confidence[2] < confidence[0]  # a question about it revises less than a cancellation
    # the probability is the logistic of the standardised features' weighted sum
    judge = judge_weights()
    parts = zip(judge["weights"], features(revision), judge["mean"], judge["scale"], strict=True)
    z = judge["bias"] + sum(w * (v - m) / s for w, v, m, s in parts)
    assert probability([revision])[0] == pytest.approx(1 / (1 + math.exp(-z)))


def test_features_read_a_turn_without_its_speaker() -> None:
    named = Pair("Maya: climbing moves to tuesdays", "Maya: climbing is mondays", 0.9, 3.0, False, False)
    bare = Pair("climbing moves to tuesdays", "climbing is mondays", 0.9, 3.0, False, False)
    assert features(named) == features(bare)
    row = dict(zip(SCALAR_FEATURES, features(Pair("is the review still on the 12th?", "review on the 12th", 0.9)),
                   strict=True))  # fmt: skip
    assert (row["question"], row["confirmation"], row["same_numbers"]) == (1.0, 1.0, 1.0)
