"""Reading content to retain: text and Markdown files, JSON lists of turns, JSONL, and LoCoMo."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ._errors import InvalidInputError
from ._types import MemoryItem

_ITEM_FIELDS = {"content", "timestamp", "context", "document_id", "tags", "metadata", "entities"}


def read_items(source: str, *, document_id: str | None = None, encoding: str = "utf-8") -> list[MemoryItem]:
    """Items to retain from a file path, or ``-`` for standard input.

    - ``.json``: a list of turns ``{"speaker", "text", "timestamp"?}`` (each
      becomes ``"<speaker>: <text>"`` with the speaker as an entity) or of item
      objects ``{"content", "timestamp"?, "context"?, "tags"?, ...}``;
    - ``.jsonl``: one such object per line;
    - anything else (plain text, Markdown): one item holding the whole text,
      with ``document_id`` defaulting to the file's absolute path, so retaining
      the file again replaces it.

    ``document_id`` names the document of a single item; it is refused for a
    file of several items (each is its own document). Files are decoded with
    ``encoding`` (strictly). Standard input is sniffed: ``[`` starts JSON,
    ``{`` starts JSONL, else text. Raises :class:`InvalidInputError` naming
    the file and the line or index.
    """
    if source == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        path = Path(source)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InvalidInputError(f"cannot read {source}: {exc.strerror}") from None
        name = path.name
    if b"\x00" in data[:8192]:
        raise InvalidInputError(f"{name} looks like a binary file (it holds NUL bytes), not text")
    try:
        raw = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InvalidInputError(
            f"{name} is not valid {encoding} (byte {exc.start})", hint="Pass its encoding, e.g. --encoding latin-1."
        ) from None
    except LookupError:
        raise InvalidInputError(f"unknown encoding {encoding!r}") from None
    if source == "-":
        stripped = raw.lstrip()
        kind = "json" if stripped.startswith("[") else "jsonl" if stripped.startswith("{") else "text"
    else:
        suffix = Path(source).suffix.lower()
        kind = "json" if suffix == ".json" else "jsonl" if suffix == ".jsonl" else "text"
    if kind == "text":
        default_id = None if source == "-" else str(Path(source).resolve())
        return [MemoryItem(content=raw, document_id=document_id or default_id)]
    if kind == "json":
        try:
            records = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{name}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
        if not isinstance(records, list):
            raise InvalidInputError(f"{name}: expected a JSON list of turns or items, got {type(records).__name__}")
        where = [f"{name}[{i}]" for i in range(len(records))]
    else:
        records, where = [], []
        for number, line in enumerate(raw.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InvalidInputError(f"{name}:{number}: invalid JSON: {exc.msg}") from None
            where.append(f"{name}:{number}")
    items = [_item(record, label) for record, label in zip(records, where, strict=True)]
    if document_id:
        if len(items) != 1:
            raise InvalidInputError(
                f"a document id names one item, and {name} holds {len(items)}",
                hint="Give each item its own document_id field instead.",
            )
        items[0] = MemoryItem(**{**items[0].__dict__, "document_id": document_id})
    return items


def _item(record: Any, label: str) -> MemoryItem:
    if not isinstance(record, Mapping):
        raise InvalidInputError(f"{label}: expected an object, got {type(record).__name__}")
    if "speaker" in record and "text" in record:
        speaker = str(record["speaker"]).strip()
        extra = {k: v for k, v in record.items() if k not in ("speaker", "text", "timestamp")}
        return MemoryItem(
            content=f"{speaker}: {record['text']}",
            timestamp=record.get("timestamp"),
            entities=[speaker] if speaker else [],
            metadata=extra or None,
        )
    if "content" in record:
        unknown = set(record) - _ITEM_FIELDS
        if unknown:
            raise InvalidInputError(f"{label}: unknown fields {sorted(unknown)}; known: {sorted(_ITEM_FIELDS)}")
        return MemoryItem(**record)
    raise InvalidInputError(f"{label}: needs either speaker and text (a turn) or content (an item)")


# -- LoCoMo ----------------------------------------------------------------------------

LOCOMO_ENV = "HINDSIGHT_LOCOMO"


def locomo_path(path: str | Path | None = None, *, default: Path | None = None) -> Path:
    """The LoCoMo file (locomo10.json format) to read: ``path`` when given, else ``$HINDSIGHT_LOCOMO``,
    else ``default`` (a caller's own place: the project's benchmarks pass one beside the source tree).
    Raises :class:`InvalidInputError` naming the variable when none of them is given or the file it
    names does not exist. The data is read where it lies, never copied."""
    import os

    if path:
        found, source = Path(path), "the path given"
    elif os.environ.get(LOCOMO_ENV):
        found, source = Path(os.environ[LOCOMO_ENV]), f"${LOCOMO_ENV}"
    elif default is not None:
        found, source = default, f"the default place (${LOCOMO_ENV} is not set)"
    else:
        raise InvalidInputError(f"no LoCoMo file: pass its path or set {LOCOMO_ENV}",
                                hint=f"e.g. {LOCOMO_ENV}=/data/locomo/locomo10.json")  # fmt: skip
    if not found.is_file():
        raise InvalidInputError(f"LoCoMo file {found} ({source}) does not exist",
                                hint=f"Pass the path of a LoCoMo file or set {LOCOMO_ENV} to one.")  # fmt: skip
    return found


@dataclass(frozen=True)
class LocomoConversation:
    """One LoCoMo conversation: its turns as items (in order) and its questions."""

    sample_id: str
    speakers: tuple[str, str]
    items: list[MemoryItem]
    questions: list[dict[str, Any]] = field(default_factory=list)
    skipped_turns: int = 0

    @property
    def last_session_time(self) -> datetime | None:
        """Time of the last session (the ``query_timestamp`` the benchmark protocol uses)."""
        times = [i.timestamp for i in self.items if isinstance(i.timestamp, datetime)]
        return max(times) if times else None


def parse_locomo_time(value: str) -> datetime:
    """A LoCoMo session time such as ``"1:56 pm on 8 May, 2023"``, as a UTC datetime."""
    try:
        return datetime.strptime(value.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        raise InvalidInputError(f"unrecognised LoCoMo session time {value!r}") from None


def load_locomo(path: str | Path) -> list[LocomoConversation]:
    """Every conversation of a LoCoMo file (``locomo10.json`` format), turn by turn.

    Each turn becomes an item with text ``"<speaker>: <text>"``, timestamp = its
    session's start time, the speaker as an entity, and ``dia_id``, ``session``
    and ``conversation`` in metadata; turns with no words are skipped and counted.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, list):
        raise InvalidInputError(f"{path}: expected a JSON list of LoCoMo conversations")
    return [_conversation(sample) for sample in data]


def _conversation(sample: Mapping[str, Any]) -> LocomoConversation:
    from hindsight_pl.text import is_meaningful

    sample_id = str(sample.get("sample_id", "?"))
    conv = sample.get("conversation")
    if not isinstance(conv, Mapping):
        raise InvalidInputError(f"LoCoMo sample {sample_id}: no conversation object")
    sessions = sorted(
        (int(key.split("_")[1]), key)
        for key, value in conv.items()
        if key.startswith("session_") and key.split("_")[1].isdigit() and isinstance(value, list)
    )
    items: list[MemoryItem] = []
    skipped = 0
    for number, key in sessions:
        when = parse_locomo_time(conv[f"{key}_date_time"])
        for turn in _turns(conv[key]):
            if not is_meaningful(turn["text"]):
                skipped += 1
                continue
            items.append(
                MemoryItem(
                    content=f"{turn['speaker']}: {turn['text']}",
                    timestamp=when,
                    entities=[turn["speaker"]],
                    document_id=f"{sample_id}:{turn['dia_id']}",
                    metadata={"dia_id": turn["dia_id"], "session": number, "conversation": sample_id},
                )
            )
    return LocomoConversation(
        sample_id=sample_id,
        speakers=(str(conv.get("speaker_a", "")), str(conv.get("speaker_b", ""))),
        items=items,
        questions=list(sample.get("qa", [])),
        skipped_turns=skipped,
    )


def _turns(turns: Iterable[Any]) -> Iterable[dict[str, str]]:
    for turn in turns:
        if isinstance(turn, Mapping) and {"speaker", "dia_id", "text"} <= turn.keys():
            yield {"speaker": str(turn["speaker"]), "dia_id": str(turn["dia_id"]), "text": str(turn["text"])}


def normalise_evidence(raw: list[str], known: set[str]) -> tuple[set[str], int]:
    """A LoCoMo question's evidence dialog ids made canonical (``D<session>:<turn>``; the data also writes
    ``D:1:3``, ``D1:03`` and several ids in one string): the ids of ``known`` turns, and how many pieces named
    no known turn (dropped)."""
    kept: set[str] = set()
    dropped = 0
    for item in raw:
        for piece in re.split(r"[;,\s]+", item):
            match = re.fullmatch(r"D:?(\d+):0*(\d+)", piece.strip())
            if not match:
                dropped += bool(piece.strip())
                continue
            dia = f"D{int(match.group(1))}:{int(match.group(2))}"
            if dia in known:
                kept.add(dia)
            else:
                dropped += 1
    return kept, dropped
