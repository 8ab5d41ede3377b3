"""`hindsight-pg --help` helps: every command listed with a whole phrase, no type placeholders on
flags, descriptions rewrapped rather than broken where the source broke them; the demo's
conversation ships with the package."""

import json

import pytest
from typer.testing import CliRunner

from hindsight_pg.cli import EXAMPLE_CONVERSATION, app

GROUPS = [[], ["server"], ["mental-model"]]


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: " ".join(g) or "top")
def test_command_lists_are_whole_phrases(group):
    result = CliRunner().invoke(app, [*group, "--help"], terminal_width=80)
    assert result.exit_code == 0
    listing = result.output.split("Commands:\n", 1)[1]
    lines = [line for line in listing.splitlines() if line.strip()]
    assert len(lines) >= 3
    assert not [line for line in lines if line.rstrip().endswith("...")]


def test_every_command_help_has_no_bool_placeholder_and_no_hard_breaks():
    runner = CliRunner()
    commands = ["retain", "recall", "entities", "consolidate", "reflect", "banks", "config", "import-locomo", "demo",
                "mcp", "serve-models", "server start", "mental-model create", "mental-model refresh"]  # fmt: skip
    for command in commands:
        output = runner.invoke(app, [*command.split(), "--help"], terminal_width=80).output
        assert "<bool>" not in output, command
        assert all(len(line) <= 80 for line in output.splitlines()), command
    config = runner.invoke(app, ["config", "--help"], terminal_width=100).output
    # the docstring breaks its line after "e.g."; on a wider terminal the help text flows on
    assert "lists the keys), e.g. `hindsight-pg config ana" in config


def test_the_demo_conversation_is_package_data():
    assert EXAMPLE_CONVERSATION.is_file() and "docs" not in EXAMPLE_CONVERSATION.parts
    assert EXAMPLE_CONVERSATION.parent.name == "data" and EXAMPLE_CONVERSATION.parent.parent.name == "hindsight_pg"
    turns = json.loads(EXAMPLE_CONVERSATION.read_text())
    assert len(turns) > 10 and {"speaker", "text"} <= set(turns[0])
