"""find_names with the names a bank knows: sentence-initial names, abbreviations, runs of names, plurals."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from hindsight_pl.retain.extract import OfflineExtractor, VerbatimExtractor
from hindsight_pl.retain.names import find_names

SAID = datetime(2025, 1, 20, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("passage", "known", "names"),
    [
        # a sentence's first word before a noun: one message cannot tell, the bank can
        ("Falcon sync notes: wireframes approved.", (), []),
        ("Falcon sync notes: wireframes approved.", ("falcon",), ["Falcon"]),
        ("Tom and Sofia, could you do the walkthrough?", ("Tom", "Sofia"), ["Tom", "Sofia"]),
        ("Quiet one. Biscuit and the sofa.", ("Biscuit",), ["Biscuit"]),
        # ... but a verb opening a sentence is none, known or not
        ("See you soon, Nate! Got it.", ("See", "Got", "Nate"), ["Nate"]),
        ("Search is at 50% now, and search quality is up.", ("Search",), []),
        # a capital that only opens the sentence before a known name or an abbreviation
        ("Pictures of Biscuit or it didn't happen", ("Biscuit",), ["Biscuit"]),
        ("Pictures of Biscuit or it didn't happen", (), ["Pictures of Biscuit"]),
        ("External GDPR audit in October.", (), []),
        ("External GDPR audit in October.", ("GDPR",), ["GDPR"]),
        # an abbreviation of two to four capitals: a name only when known, an owner or joined to a name
        ("I'll start on the new SDK. The 3DS tests on Android are in CI. No SQL and DDL.", (), ["Android"]),
        ("I'll start on the new SDK.", ("SDK",), ["SDK"]),
        ("Ask NASA's press office.", (), ["NASA"]),
        ("She moved from Apple and IBM to Google.", (), ["Apple", "IBM", "Google"]),
        ("Wired to COBOL and UA123.", (), ["COBOL", "UA123"]),  # five capitals, or a digit: a name as before
        ("Warrior II is my favourite pose.", (), ["Warrior II"]),  # a Roman numeral: a version
        # ... and within a longer name it stays: "Android SDK" is one
        ("Android SDK needs a newer Kotlin.", ("Android",), ["Android SDK", "Kotlin"]),
        # two known names run together are two
        ("A crash in the Falcon Android prototype.", ("Falcon", "Android"), ["Falcon", "Android"]),
        ("Android Google Pay will be ready.", ("Android", "Google Pay"), ["Android", "Google Pay"]),
        ("A crash in the Falcon Android prototype.", ("Falcon",), ["Falcon Android"]),
        ("We met at Google Pay headquarters.", ("Google", "Pay", "Google Pay"), ["Google Pay"]),
        # a plural of a known name is that name
        ("Tested on three Androids, works.", ("Android",), ["Android"]),
        ("Tested on three Androids, works.", (), ["Androids"]),
        ("Tom's tests pass.", ("Tom",), ["Tom"]),
        # names as written: particles inside a name, a title kept with it
        ("We had dinner at Casa do Largo last night.", (), ["Casa do Largo"]),
        ("I met Ana da Silva and Ludwig van Beethoven fans.", (), ["Ana da Silva", "Ludwig van Beethoven"]),
        ("Omar al-Farsi joins the team from Villa della Rosa.", (), ["Omar al-Farsi", "Villa della Rosa"]),
        ("Dr Okafor said the scan was clear.", (), ["Dr Okafor"]),
        ("Ask Dr. Okafor and Prof. Lindqvist.", (), ["Dr. Okafor", "Prof. Lindqvist"]),
        ("When do Tom and Sofia land?", (), ["Tom", "Sofia"]),  # "do" joins two names only
        ("The dr said no.", (), []),
        # a word after "!" or "?" opens a sentence even where the segmenter did not split
        ("Yum! Sounds great.", (), []),
        ("Wow! Lena flew to Oslo.", (), ["Lena", "Oslo"]),
    ],
)
def test_names_with_what_the_bank_knows(passage, known, names):
    assert find_names(passage, known) == names


def test_an_item_knows_the_names_of_its_earlier_facts_and_of_the_bank():
    chunk = "Priya: Summary: Priya leads Falcon.\nPriya: Falcon sync notes: wireframes approved."
    facts = OfflineExtractor().extract([chunk], timestamp=SAID)
    assert [f.entities for f in facts] == [["Priya", "Falcon"], ["Priya", "Falcon"]]
    # one turn alone: a first word before a noun is no name, unless the bank knows it
    alone = "Priya: Falcon sync notes: wireframes approved."
    assert OfflineExtractor().extract([alone], timestamp=SAID)[0].entities == ["Priya"]
    assert OfflineExtractor().extract([alone], timestamp=SAID, known={"falcon"})[0].entities == ["Priya", "Falcon"]
    # the bank's names are not the fact's entities unless it names them
    assert OfflineExtractor().extract([alone], timestamp=SAID, known={"tom"})[0].entities == ["Priya"]


def test_the_verbatim_extractor_knows_the_speaker_and_the_names_before():
    extractor = VerbatimExtractor()
    chunks = ["Jonas: Jonas owns the GDPR audit.", "Maya: The GDPR audit is done. Jonas did well."]
    assert [f.entities for f in extractor.extract(chunks, timestamp=SAID)] == [["Jonas"], ["Maya", "Jonas"]]
    first, second = extractor.extract(chunks, timestamp=SAID, known=("GDPR",))
    assert (first.entities, second.entities) == (["Jonas", "GDPR"], ["Maya", "GDPR", "Jonas"])
    assert extractor.extract(["Falcon: ship it."], timestamp=SAID)[0].entities == ["Falcon"]
