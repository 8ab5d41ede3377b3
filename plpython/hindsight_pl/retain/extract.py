"""Fact extraction: from a retained item's chunks to the facts stored as memory units.

The extractors share one interface (:class:`Extractor`); a bank picks one with its
``extractor`` config key. This module runs in the driver and inside the database
(``hindsight.retain_text``):

* :class:`OfflineExtractor` (default): deterministic rules, no network. Facts are
  conversational turns or groups of one to three sentences; dates come from the
  query analyzer's rules (``hindsight_pl.temporal``); entities are the speaker, the
  caller's names, and proper-noun spans and quoted names in the text.
* :class:`VerbatimExtractor`: each chunk is one fact as written (no dates), the
  "one memory per turn" protocol of the LoCoMo literature.
* ``hindsight_pg.LLMExtractor`` (the driver only): any OpenAI-compatible chat-completions
  endpoint.

docs/retain.md describes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

from .. import limits
from ..temporal import facts
from .names import find_names
from .sentences import group_sentences, is_fact, split_sentences

# A conversational turn: "Name: what they said" (up to four words of name).
_TURN = re.compile(r"^\s*(?P<speaker>[^\W\d_][^\n:：.!?\"]{0,39}?)\s*[:：]\s*(?P<said>(?!//)\S.*)$")


_ONE_YEAR = timedelta(days=365)


@dataclass
class Fact:
    """One extracted fact: the text stored as a memory unit and what it is about.

    ``chunk_index`` names the item's chunk it came from; ``occurred_start`` /
    ``occurred_end`` (aware, UTC) are set for an event fact with a time expression;
    ``caused_by`` holds indexes of the item's other facts that caused this one; ``context``: the Markdown
    headings it was written under ("Trip › Flights"), None outside any.
    """

    text: str
    chunk_index: int
    fact_type: str = "world"
    entities: list[str] = field(default_factory=list)
    occurred_start: datetime | None = None
    occurred_end: datetime | None = None
    caused_by: list[int] = field(default_factory=list)
    context: str | None = None


class Extractor(Protocol):
    """Turns one item's chunks into facts. Implementations: OfflineExtractor, LLMExtractor."""

    def extract(
        self,
        chunks: Sequence[str],
        *,
        timestamp: datetime,
        entities: Sequence[str] = (),
        speaker: str | None = None,
    ) -> list[Fact]:
        """The facts of ``chunks`` (in order), said at ``timestamp`` (aware) by ``speaker`` if known."""
        ...


class OfflineExtractor:
    """Rule-based extraction: deterministic, offline, a few milliseconds per item.

    ``agent_name``: a speaker (or item ``speaker``) of that name (case-insensitive)
    is the agent itself, so its facts are ``experience``; others are ``world``.
    ``time_zone`` and ``hemisphere`` give relative dates their days (as in
    ``hindsight.parse_temporal``).
    """

    def __init__(self, *, agent_name: str = "assistant", time_zone: str = "UTC", hemisphere: str = "north") -> None:
        self.agent_name = agent_name.strip().lower()
        self.time_zone = time_zone
        self.hemisphere = hemisphere

    def extract(
        self,
        chunks: Sequence[str],
        *,
        timestamp: datetime,
        entities: Sequence[str] = (),
        speaker: str | None = None,
        known: Iterable[str] = (),
        headings: Sequence[Headings] | None = None,
    ) -> list[Fact]:
        """The facts of ``chunks``; ``known``: names the bank already holds (:func:`find_names`), to which each
        fact adds its own for the facts after it. Markdown headings are no facts: each fact's ``context`` is the
        headings it is under (:func:`sections`; ``headings``: those open where each chunk starts, when the chunks
        are not the whole text, else carried from chunk to chunk)."""
        facts: list[Fact] = []
        seen = {k.lower() for k in known}
        carried: Headings = ()
        for index, chunk in enumerate(chunks):
            limits.checkpoint()  # a cancel takes effect between chunks (docs/reliability.md)
            parts, carried = sections(chunk, headings[index] if headings is not None else carried)
            for under, part in parts:
                for who, passage, is_turn in _blocks(part, speaker):
                    names = [*entities, *([who] if who else [])]
                    for group in group_sentences(split_sentences(passage), whole=is_turn):
                        if is_fact(group):
                            facts.append(self._fact(group, index, who, is_turn, names, timestamp, seen))
                            facts[-1].context = HEADING_JOIN.join(title for _, title in under) or None
                            seen.update(e.lower() for e in facts[-1].entities)
        return facts

    def read(self, said: str, timestamp: datetime, known: Iterable[str] = ()) -> Fact:
        """``said`` read as one fact of chunk 0 (a memory's new text: ``hindsight.update_memory``): the names
        it holds of ``known`` (case-insensitive, as written in ``known``) and the ones it names itself
        (:func:`find_names`), and the dates it gives as of ``timestamp`` (aware), as :meth:`extract` reads a
        fact's. Never raises for a text :func:`is_fact` refuses."""
        known = [k for k in known if k and k.strip()]
        blocks = _blocks(said)  # a turn ("Name: ...") is read as extract reads one: the speaker, then what was said
        who, passage, is_turn = blocks[0] if len(blocks) == 1 else (None, said, False)
        fact = self._fact(passage, 0, who, is_turn, [who] if who else [], timestamp, known)
        fact.text = said
        held = [k for k in known if k.strip().lower() in said.lower()]
        names: dict[str, str] = {}
        for name in [*held, *fact.entities]:
            names.setdefault(name.strip().lower(), name.strip())
        fact.entities = list(names.values())
        return fact

    def _fact(
        self,
        said: str,
        index: int,
        who: str | None,
        is_turn: bool,
        names: list[str],
        timestamp: datetime,
        known: Iterable[str] = (),
    ) -> Fact:
        found = find_names(said, known=[*names, *known])
        entities: dict[str, str] = {}
        for name in [*names, *found]:
            entities.setdefault(name.lower(), name)
        fact = Fact(
            text=f"{who}: {said}" if is_turn else said,
            chunk_index=index,
            fact_type="experience" if who and who.strip().lower() == self.agent_name else "world",
            entities=list(entities.values()),
        )
        # each date read from its own clause: "Starts April 1st" said in February is the coming one
        # (hindsight_pl.temporal.facts, docs/retain.md "Dates")
        window = facts.statement_window(said, timestamp, self.time_zone, self.hemisphere)
        if window is not None and _open_ended(*window):
            window = None  # "wireframes by Friday": a deadline, not the decade before it a question would search
        if window is not None:
            fact.occurred_start, fact.occurred_end = (w.astimezone(UTC) for w in window)
        return fact


class VerbatimExtractor:
    """One fact per chunk, its text as given: no splitting and no dates (only ``mentioned_at``).

    Entities are the caller's, the speaker (``speaker`` or a leading ``Name:``) and the
    names :func:`find_names` finds; the fact is ``experience`` when the speaker is
    ``agent_name`` (case-insensitive). Chunks with no letter or digit give no fact.
    """

    def __init__(self, *, agent_name: str = "assistant") -> None:
        self.agent_name = agent_name.strip().lower()

    def extract(
        self,
        chunks: Sequence[str],
        *,
        timestamp: datetime,
        entities: Sequence[str] = (),
        speaker: str | None = None,
        known: Iterable[str] = (),
    ) -> list[Fact]:
        """One fact per chunk; ``known``: names the bank already holds (:func:`find_names`), to which each
        fact adds its own for the chunks after it."""
        facts = []
        seen = {k.lower() for k in known}
        for index, chunk in enumerate(chunks):
            limits.checkpoint()  # a cancel takes effect between chunks (docs/reliability.md)
            said = chunk.strip()
            if not is_fact(said):
                continue
            turn = None if speaker else _TURN.match(said)  # the item's speaker said all of it, "Updated: ..." too
            is_turn = bool(turn and len(turn.group("speaker").split()) <= 4)
            who = turn.group("speaker").strip() if turn and is_turn else speaker
            body = turn.group("said") if turn and is_turn else said
            names: dict[str, str] = {}
            said_by = [who] if who else []
            for name in [*entities, *said_by, *find_names(body, known=[*entities, *said_by, *seen])]:
                names.setdefault(name.lower(), name)
            seen.update(names)
            fact_type = "experience" if who and who.lower() == self.agent_name else "world"
            facts.append(Fact(text=said, chunk_index=index, fact_type=fact_type, entities=list(names.values())))
        return facts


# An ATX heading of Markdown (CommonMark 4.2): up to three spaces, one to six #, a space, the title, optional
# closing #s.
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")


HEADING_JOIN = " › "


Headings = tuple[tuple[int, str], ...]  # the headings open at a point of a text: (level, title), outermost first


def sections(chunk: str, open_headings: Headings = ()) -> tuple[list[tuple[Headings, str]], Headings]:
    """``chunk`` cut at its Markdown headings: the text under each heading (blank parts dropped) with the
    headings it is under (``open_headings``: those open where the chunk starts; a heading closes the ones of its
    level and deeper), and the headings open at its end. A text without headings is one part."""
    parts: list[tuple[Headings, str]] = []
    current, lines = open_headings, []
    for line in chunk.splitlines():
        heading = _HEADING.match(line)
        if heading is None:
            lines.append(line)
            continue
        if "\n".join(lines).strip():
            parts.append((current, "\n".join(lines)))
        level = len(heading.group(1))
        current, lines = (*(h for h in current if h[0] < level), (level, heading.group(2).strip())), []
    if "\n".join(lines).strip():
        parts.append((current, "\n".join(lines)))
    return parts, current


def opening_headings(chunks: Sequence[str]) -> list[Headings]:
    """The Markdown headings open where each chunk starts (:func:`sections`), so that a chunk read alone (one a
    document retained again changed) is under the headings the chunks before it opened."""
    opening: list[Headings] = []
    current: Headings = ()
    for chunk in chunks:
        opening.append(current)
        current = sections(chunk, current)[1]
    return opening


def _open_ended(start: datetime, end: datetime) -> bool:
    """Whether a window is an open end ("by Friday", "before 2020", "since 2019" said of the future): more
    than five years long and not a decade ("in the 1990s" starts on 1 January of a year ending in 0)."""
    named_decade = start.month == 1 and start.day == 1 and start.year % 10 == 0
    return end - start > 5 * _ONE_YEAR and not named_decade


def _blocks(chunk: str, speaker: str | None = None) -> list[tuple[str | None, str, bool]]:
    """(speaker, passage, is_turn) per block of a chunk: a line "Name: ..." opens a turn; other
    lines continue the block before, until a blank line; prose blocks have no speaker. With the item's
    ``speaker``, every paragraph is a turn of theirs, a leading "Word:" included ("Updated: the trip is
    in May" said by the assistant is the assistant's)."""
    if speaker:
        paragraphs = re.split(r"\n\s*\n", chunk)
        return [(speaker, " ".join(line.strip() for line in p.splitlines() if line.strip()), True)
                for p in paragraphs if p.strip()]  # fmt: skip
    blocks: list[tuple[str | None, list[str], bool]] = []
    closed = True
    for line in chunk.splitlines():
        if not line.strip():
            closed = True
            continue
        match = _TURN.match(line)
        if match and len(match.group("speaker").split()) <= 4:
            blocks.append((match.group("speaker").strip(), [match.group("said").strip()], True))
        elif blocks and not closed:
            blocks[-1][1].append(line.strip())
        else:
            blocks.append((None, [line.strip()], False))
        closed = False
    return [(who, " ".join(lines), is_turn) for who, lines, is_turn in blocks]
