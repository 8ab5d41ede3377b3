"""An agent loop with long-term memory in hindsight_pg (docs/agent-loop.md walks through it).

For each user message: recall the memories that answer it, put them in the prompt with their dates, ask the
model, then retain both the message and the answer, each with its speaker and time. A session ends with a
consolidation. Two short sessions a week apart; the second asks about what the first said, and one of its
messages corrects an earlier one.

The model: any OpenAI-compatible endpoint, named by OPENAI_BASE_URL (with OPENAI_API_KEY if it wants one, and
AGENT_MODEL, default gpt-4o-mini). Without OPENAI_BASE_URL the example sends nothing and prints each prompt it
would have sent instead, so it runs offline.

    python examples/agent_loop.py [--bank agent-loop-example]   # $HINDSIGHT_PG_DSN, else the embedded server
"""

from __future__ import annotations

import argparse
import os
from datetime import datetime, timedelta

import hindsight_pg

SESSIONS = [
    (datetime.fromisoformat("2025-06-02T09:00:00+00:00"), [
        "Hi! I'm Ana. I'm flying to Lisbon on Friday for the design offsite.",
        "My sister Marta will look after Biscuit, my dog, while I'm away.",
    ]),
    (datetime.fromisoformat("2025-06-09T18:30:00+00:00"), [
        "Small change: Marta can't make it, my neighbour Tom is looking after Biscuit instead.",
        "Back home! Who was looking after my dog again?",
    ]),
]  # fmt: skip
SYSTEM = "You are Ana's assistant. Answer from what you remember when it helps; say so when you do not know."


def prompt(client: hindsight_pg.Client, bank: str, message: str, at: datetime) -> list[dict[str, str]]:
    """The messages a model gets: the instructions, the memories that answer the message (with their dates and
    how likely each is to answer), and the message."""
    recalled = client.recall(bank, message, query_timestamp=at, max_results=5, max_tokens=800)
    lines = [f"- [{r.describe_when()}] {r.text} (relevance {r.relevance:.2f})" for r in recalled.results]
    memories = "\n".join(lines) or "(nothing relevant)"
    return [{"role": "system", "content": f"{SYSTEM}\n\nWhat you remember:\n{memories}"},
            {"role": "user", "content": message}]  # fmt: skip


def answer(messages: list[dict[str, str]]) -> str | None:
    """The model's reply, or, without a model, None after printing the prompt it would have been sent."""
    if not os.environ.get("OPENAI_BASE_URL"):
        print("  prompt:\n    " + "\n    ".join(m["content"].replace("\n", "\n    ") for m in messages))
        return None
    import openai

    reply = openai.OpenAI().chat.completions.create(
        model=os.environ.get("AGENT_MODEL", "gpt-4o-mini"),
        messages=messages,  # type: ignore[arg-type]
    )
    return reply.choices[0].message.content or ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bank", default="agent-loop-example", help="the bank (replaced on each run)")
    args = parser.parse_args()
    client = hindsight_pg.connect()
    client.delete_bank(args.bank)
    client.create_bank(args.bank, config={"agent_name": "assistant"})
    for start, messages in SESSIONS:
        for n, message in enumerate(messages):
            at = start + timedelta(minutes=2 * n)
            print(f"Ana ({at:%Y-%m-%d %H:%M}): {message}")
            reply = answer(prompt(client, args.bank, message, at))
            print(f"assistant: {reply or '(no model configured)'}")
            # both sides of the turn, each with its speaker and time: the agent's own words are its experience
            turn = [hindsight_pg.MemoryItem(message, timestamp=at, speaker="Ana")]
            if reply:
                turn.append(hindsight_pg.MemoryItem(reply, timestamp=at + timedelta(seconds=30), speaker="assistant"))
            client.retain_batch(args.bank, turn)
        observations = client.consolidate(args.bank, use_llm=False)
        print(f"(session over: {len(observations)} observation(s) made or updated)\n")


if __name__ == "__main__":
    main()
