import pytest

from hindsight_pl.retain.chunking import chunk_text


def test_short_text_is_one_chunk():
    assert chunk_text("  Alice leads Atlas.  ") == ["Alice leads Atlas."]


def test_blank_text_has_no_chunks():
    assert chunk_text(" \n\t ") == []


def test_paragraphs_are_packed_while_they_fit():
    text = "a" * 40 + "\n\n" + "b" * 40 + "\n\n" + "c" * 40
    # 40 + 2 + 40 = 82 fits in 90; adding the third paragraph (124) does not.
    assert chunk_text(text, max_chars=90) == ["a" * 40 + "\n\n" + "b" * 40, "c" * 40]


def test_long_paragraph_splits_on_sentences():
    sentences = [f"Sentence number {i} ends here." for i in range(10)]  # 29 characters each
    chunks = chunk_text(" ".join(sentences), max_chars=60)
    # two sentences joined by a space are 59 characters: five chunks of two sentences
    assert chunks == [f"{sentences[i]} {sentences[i + 1]}" for i in range(0, 10, 2)]


def test_long_sentence_splits_on_words():
    words = ["word"] * 30  # "word word ..." = 149 characters, no sentence end
    chunks = chunk_text(" ".join(words), max_chars=50)
    assert all(len(c) <= 50 for c in chunks)
    assert " ".join(chunks).split() == words
    assert chunks[0] == " ".join(["word"] * 10)  # 10 words = 49 characters


def test_unbroken_text_is_cut_at_max_chars():
    assert chunk_text("x" * 7005, max_chars=3000) == ["x" * 3000, "x" * 3000, "x" * 1005]


def test_cjk_sentences_split_without_spaces():
    text = "今天我们讨论了项目进度。" * 30  # 12 characters a sentence, 360 in all
    chunks = chunk_text(text, max_chars=100)
    assert all(len(c) <= 100 for c in chunks)
    assert all(c.endswith("。") for c in chunks)
    assert "".join(c.replace(" ", "") for c in chunks) == text


def test_default_is_3000_characters():
    text = ("This is a sentence of moderate length. " * 200).strip()
    chunks = chunk_text(text)
    assert len(chunks) == 3
    assert all(len(c) <= 3000 for c in chunks)


def test_max_chars_must_be_positive():
    with pytest.raises(ValueError):
        chunk_text("x", max_chars=0)
