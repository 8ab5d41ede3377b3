import json
from datetime import UTC, datetime

import pytest

from hindsight_pg import InvalidInputError
from hindsight_pg._inputs import LOCOMO_ENV, load_locomo, locomo_path, parse_locomo_time, read_items


def test_text_file_is_one_document_named_by_its_path(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# Notes\n\nAlice leads Atlas.\n")
    (item,) = read_items(str(path))
    assert item.content == "# Notes\n\nAlice leads Atlas.\n"
    assert item.document_id == str(path.resolve())  # two notes.md in two folders stay two documents


def test_document_id_names_a_single_item_only(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text('{"content": "one"}\n{"content": "two"}\n')
    with pytest.raises(InvalidInputError, match=r"a document id names one item, and items\.jsonl holds 2"):
        read_items(str(path), document_id="mine")


def test_binary_and_undecodable_files_are_refused(tmp_path):
    binary = tmp_path / "a.out"
    binary.write_bytes(b"\x7fELF\x02\x01\x00\x00")
    with pytest.raises(InvalidInputError, match=r"a\.out looks like a binary file"):
        read_items(str(binary))
    latin = tmp_path / "old.txt"
    latin.write_bytes("Café crème".encode("latin-1"))
    with pytest.raises(InvalidInputError, match=r"old.txt is not valid utf-8 \(byte 3\)") as info:
        read_items(str(latin))
    assert "--encoding latin-1" in info.value.hint
    assert read_items(str(latin), encoding="latin-1")[0].content == "Café crème"


def test_json_turns_become_speaker_text_with_the_speaker_as_entity(tmp_path):
    path = tmp_path / "chat.json"
    path.write_text(
        json.dumps(
            [
                {"speaker": "Alice", "text": "I lead Atlas.", "timestamp": "2024-03-01T10:00:00Z"},
                {"speaker": "Bob", "text": "Great.", "mood": "happy"},
            ]
        )
    )
    first, second = read_items(str(path))
    assert (first.content, first.timestamp, list(first.entities)) == (
        "Alice: I lead Atlas.",
        "2024-03-01T10:00:00Z",
        ["Alice"],
    )
    assert (second.content, second.timestamp, second.metadata) == ("Bob: Great.", None, {"mood": "happy"})


def test_jsonl_items(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text('{"content": "one", "tags": ["a"]}\n\n{"speaker": "S", "text": "two"}\n')
    items = read_items(str(path))
    assert [i.content for i in items] == ["one", "S: two"]
    assert list(items[0].tags) == ["a"]


def test_bad_json_names_the_line(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text('{"content": "one"}\n{oops\n')
    with pytest.raises(InvalidInputError, match=r"items.jsonl:2: invalid JSON"):
        read_items(str(path))


def test_unknown_item_fields_are_refused(tmp_path):
    path = tmp_path / "items.json"
    path.write_text('[{"content": "x", "colour": "red"}]')
    with pytest.raises(InvalidInputError, match=r"items.json\[0\]: unknown fields \['colour'\]"):
        read_items(str(path))


def test_missing_file():
    with pytest.raises(InvalidInputError, match=r"cannot read /nonexistent/x\.txt"):
        read_items("/nonexistent/x.txt")


def test_locomo_time():
    assert parse_locomo_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_locomo_time("10:37 am on 27 June, 2023") == datetime(2023, 6, 27, 10, 37, tzinfo=UTC)
    with pytest.raises(InvalidInputError, match="unrecognised LoCoMo session time"):
        parse_locomo_time("yesterday")


def test_load_locomo(tmp_path):
    path = tmp_path / "l.json"
    path.write_text(
        json.dumps(
            [
                {
                    "sample_id": "conv-x",
                    "conversation": {
                        "speaker_a": "Ann",
                        "speaker_b": "Ben",
                        "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "Later."}],
                        "session_2_date_time": "9:00 am on 2 June, 2023",
                        "session_1": [
                            {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Ben!"},
                            {"speaker": "Ben", "dia_id": "D1:2", "text": "..."},
                        ],
                        "session_1_date_time": "1:56 pm on 8 May, 2023",
                    },
                    "qa": [{"question": "q", "answer": "a", "evidence": ["D1:1"], "category": 4}],
                }
            ]
        )
    )
    (conv,) = load_locomo(path)
    assert conv.sample_id == "conv-x" and conv.speakers == ("Ann", "Ben")
    assert [i.content for i in conv.items] == ["Ann: Hi Ben!", "Ben: Later."]  # sessions in order
    assert conv.items[0].timestamp == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert conv.items[0].metadata == {"dia_id": "D1:1", "session": 1, "conversation": "conv-x"}
    assert conv.skipped_turns == 1  # "..." has no words
    assert conv.last_session_time == datetime(2023, 6, 2, 9, 0, tzinfo=UTC)
    assert len(conv.questions) == 1


def test_locomo_path_is_the_argument_else_the_variable_else_the_callers_default(tmp_path, monkeypatch):
    given, named, default = (tmp_path / n for n in ("given.json", "named.json", "default.json"))
    for p in (given, named, default):
        p.write_text("[]")
    monkeypatch.delenv(LOCOMO_ENV, raising=False)
    assert locomo_path(default=default) == default
    monkeypatch.setenv(LOCOMO_ENV, str(named))
    assert locomo_path(default=default) == named
    assert locomo_path(given, default=default) == given


def test_locomo_path_names_the_variable_when_there_is_no_file(tmp_path, monkeypatch):
    monkeypatch.delenv(LOCOMO_ENV, raising=False)
    with pytest.raises(InvalidInputError, match="no LoCoMo file: pass its path or set HINDSIGHT_LOCOMO"):
        locomo_path()
    monkeypatch.setenv(LOCOMO_ENV, str(tmp_path / "gone.json"))
    with pytest.raises(InvalidInputError, match=r"gone.json \(\$HINDSIGHT_LOCOMO\) does not exist"):
        locomo_path(default=tmp_path)
