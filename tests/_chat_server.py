"""A small local server of the chat-completions protocol, for the LLM client's tests.

It answers with responses written in the shape an OpenAI-compatible endpoint returns
(tests/data/llm_responses.json), chosen by a marker found in the last message; it records
every request so the tests can check what the client sent.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

RESPONSES = json.loads((Path(__file__).parent / "data" / "llm_responses.json").read_text())


def send_completion(
    handler: BaseHTTPRequestHandler, model: str, message: dict[str, Any], finish: str, tokens: tuple[int, int]
) -> None:
    """Answer with one chat completion (the OpenAI shape): ``message``, its finish reason, and usage."""
    reply = {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1717977600, "model": model,
        "choices": [{"index": 0, "finish_reason": finish, "message": message}],
        "usage": {"prompt_tokens": tokens[0], "completion_tokens": tokens[1], "total_tokens": sum(tokens)},
    }  # fmt: skip
    data = json.dumps(reply).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


class ChatServer(ThreadingHTTPServer):
    requests: list[dict[str, Any]]


class ChatHandler(BaseHTTPRequestHandler):
    server: ChatServer

    def log_message(self, *args: object) -> None:  # keep pytest output clean
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        user = body["messages"][-1]["content"]
        answer = next(
            (
                a
                for marker, a in RESPONSES.items()
                if marker in user or (isinstance(a, dict) and any(h["marker"] in user for h in a.get("halves", ())))
            ),
            None,
        )
        if answer is None or answer == "error":
            self.send_response(500)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"error": {"message": "the model is overloaded", "type": "server_error"}}')
            return
        if isinstance(answer, dict) and "halves" in answer:  # overflow on the whole chunk, facts for each half
            present = [h for h in answer["halves"] if h["marker"] in user]
            if len(present) == 1:
                content, finish = json.dumps({"facts": present[0]["facts"]}), "stop"
            else:
                content, finish = '{"facts": [{"what": "Part one', "length"
        elif isinstance(answer, str):
            content, finish = answer, "stop"
        else:
            content, finish = json.dumps(answer), "stop"
        send_completion(self, body["model"], {"role": "assistant", "content": content}, finish, (200, 120))


class ScriptServer(ThreadingHTTPServer):
    """A chat-completions server that plays a script: one assistant turn per request, in order."""

    script: list[dict[str, Any]]
    requests: list[dict[str, Any]]


class ScriptHandler(BaseHTTPRequestHandler):
    """Each turn of the script is ``{"tool": name, "arguments": {...}}`` (a tool call) or
    ``{"content": text}``. In arguments, the string "$first" becomes the id of the first result the
    last tool message returned, and "$all" the list of all of them (ids are made at run time)."""

    server: ScriptServer

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        turn = self.server.script.pop(0)
        tool_results = [json.loads(m["content"]).get("results", []) for m in body["messages"] if m["role"] == "tool"]
        ids = [r["id"] for r in tool_results[-1]] if tool_results else []

        def fill(value: Any) -> Any:
            if value == "$first":
                return ids[0] if ids else "none"
            if value == "$all":
                return ids
            if isinstance(value, dict):
                return {k: fill(v) for k, v in value.items()}
            if isinstance(value, list):
                return [fill(v) for v in value]
            return value

        if "tool" in turn:
            n = len(self.server.requests)
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"call_{n}", "type": "function",
                "function": {"name": turn["tool"], "arguments": json.dumps(fill(turn["arguments"]))}}]}  # fmt: skip
            finish = "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": turn["content"]}, "stop"
        send_completion(self, body["model"], message, finish, (300, 40))
