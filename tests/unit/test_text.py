import pytest

from hindsight_pl import text, tokens


def test_clean_text_strips_nul():
    assert text.clean_text("a\x00b\x00") == "ab"


def test_clean_text_replaces_lone_surrogates():
    assert text.clean_text("x\ud800y") == "x\ufffdy"
    assert text.clean_text("\udfffend") == "\ufffdend"


def test_clean_text_joins_surrogate_pairs():
    assert text.clean_text("smile \ud83d\ude00") == "smile \U0001f600"


def test_clean_text_keeps_normal_text():
    assert text.clean_text("Zoë 你好 🙂") == "Zoë 你好 🙂"


@pytest.mark.parametrize("value", ["", "   ", "...", "?!", "\n\t", "— … ¿", "。，！"])
def test_not_meaningful(value):
    assert not text.is_meaningful(value)


@pytest.mark.parametrize("value", ["a", "42", "你好", " ok. ", "Привет"])
def test_meaningful(value):
    assert text.is_meaningful(value)


def test_check_text_names_the_label():
    with pytest.raises(text.InvalidText, match=r"item 3, unit 0: content is blank or has only punctuation: '\.\.\.'"):
        text.check_text("...", "item 3, unit 0")


def test_validate_and_count_counts_cl100k_tokens():
    # cl100k_base: "hello world" is two tokens, "Alice leads Atlas." four ('Alice', ' leads', ' Atlas', '.')
    assert text.validate_and_count(["hello world", "Alice leads Atlas."]) == [2, 4]


def test_validate_and_count_default_labels_are_one_based():
    with pytest.raises(text.InvalidText, match="text 2:"):
        text.validate_and_count(["fine", "  "])


def test_special_token_text_counts_as_plain_text():
    assert tokens.count_tokens("<|endoftext|>") > 1


@pytest.mark.parametrize(
    ("value", "latin"),
    [("What did Caroline research?", True), ("Où est la réunion ? Übermorgen!", True), ("12:30 — ok…", True),
     ("卡罗琳研究了什么？", False), ("Что изучала Кэролайн?", False), ("Caroline 研究", False), ("", True)],
)  # fmt: skip
def test_latin_script(value, latin):
    assert text.latin_script(value) is latin
