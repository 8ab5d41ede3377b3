"""Model providers in this process: local models, the TEI-protocol client against the real model
server, retries, errors and configs. (The in-database providers: tests/db/test_providers.py.)"""

from __future__ import annotations

import http.server
import threading
import time

import numpy as np
import pytest
import requests
from _models import free_port, model_server

from hindsight_pl import providers
from hindsight_pl.errors import ProviderError
from hindsight_pl.providers import HTTPEmbedder, HTTPReranker, LocalEmbedder, LocalReranker

TEXTS = ["Caroline went to a support group.", "Melanie signed up for a pottery class.", "The lake at sunset."]


@pytest.fixture(scope="module")
def minilm() -> LocalEmbedder:
    return LocalEmbedder(providers.MINILM)


@pytest.fixture(scope="module")
def cross_encoder(tiny_cross_encoder) -> LocalReranker:
    return LocalReranker(tiny_cross_encoder)


@pytest.fixture(scope="module")
def server(minilm, cross_encoder):
    with model_server(minilm, cross_encoder) as url:
        yield url


def test_minilm_vectors_are_unit_length_and_ignore_the_kind(minilm):
    vectors = minilm.embed(TEXTS)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert np.array_equal(minilm.embed(TEXTS, kind="query"), vectors)
    assert float(vectors[0] @ vectors[1]) < 0.5  # different sentences, different vectors
    with pytest.raises(ValueError, match="kind must be query or passage"):
        minilm.embed(TEXTS, kind="document")


def test_the_default_local_model_is_e5():
    assert LocalEmbedder().model == providers.E5 == providers.embedder({"kind": "local"}).model


def test_e5_embeds_queries_and_passages_differently():
    e5 = LocalEmbedder(providers.E5)
    query, passage = e5.embed(["pottery class"], kind="query"), e5.embed(["pottery class"], kind="passage")
    assert query.shape == passage.shape == (1, 384)
    assert np.allclose(np.linalg.norm(query), 1, atol=1e-3)
    assert 0.8 < float(query[0] @ passage[0]) < 0.999  # the same words behind different prefixes
    (relevant, other) = e5.embed(["Melanie signed up for a pottery class.", "The stock market fell."])
    assert float(query[0] @ relevant) > float(query[0] @ other)


def test_the_tiny_cross_encoder_gives_raw_logits_outside_0_1(cross_encoder):
    scores = cross_encoder.rerank("what class did melanie take", TEXTS)
    assert scores.shape == (3,) and scores.dtype == np.float64
    assert len(set(np.round(scores, 6))) == 3
    assert (np.abs(scores) > 1).any()  # raw logits, not sigmoid probabilities
    assert np.array_equal(cross_encoder.rerank("what class did melanie take", TEXTS), scores)  # deterministic
    assert cross_encoder.rerank("q", []).shape == (0,)


def test_the_onnx_export_scores_as_pytorch_does_without_pytorch(cross_encoder, tiny_onnx_cross_encoder):
    onnx = LocalReranker(tiny_onnx_cross_encoder)
    query, texts = "what class did melanie take", [*TEXTS, "melanie went to a pottery class " * 100]
    got, want = onnx.rerank(query, texts), cross_encoder.rerank(query, texts)
    assert np.allclose(got, want, atol=1e-4) and len(set(np.round(got, 4))) == 4
    assert type(onnx._load()).__name__ == "_OnnxCrossEncoder"


def test_a_missing_cross_encoder_names_the_path(tmp_path):
    with pytest.raises(ProviderError, match=f"cross-encoder '{tmp_path}/nothing' could not be loaded"):
        LocalReranker(str(tmp_path / "nothing")).rerank("q", ["d"])


def test_http_provider_equals_local_to_1e_5(server, minilm, cross_encoder):
    remote = HTTPEmbedder(server)
    assert remote.health()
    texts = [f"fact number {i}: {TEXTS[i % 3]}" for i in range(300)]  # three batches of at most 128
    assert np.allclose(remote.embed(texts, kind="query"), minilm.embed(texts), atol=1e-5)
    query = "what did caroline research"
    assert np.allclose(HTTPReranker(server).rerank(query, texts), cross_encoder.rerank(query, texts), atol=1e-5)


def test_the_server_sorts_rerank_results_and_applies_sigmoid_unless_raw(server, cross_encoder):
    raw = cross_encoder.rerank("pottery", TEXTS)
    answer = requests.post(f"{server}/rerank", json={"query": "pottery", "texts": TEXTS}, timeout=10).json()
    assert [a["index"] for a in answer] == list(np.argsort(-raw))
    assert np.allclose([a["score"] for a in sorted(answer, key=lambda a: a["index"])], 1 / (1 + np.exp(-raw)))
    single = requests.post(f"{server}/embed", json={"inputs": "one text"}, timeout=10).json()
    assert len(single) == 1 and len(single[0]) == 384


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/embed", {"inputs": 3}, "inputs must be a string or a list of strings"),
        ("/embed", {"inputs": ["a"], "prompt_name": "doc"}, "prompt_name must be query or passage"),
        ("/rerank", {"query": None, "texts": ["a"]}, "query must be a string"),
        (
            "/rerank",
            {"query": "q", "texts": ["a"] * 1001},
            "texts has 1,001 texts, more than the 1,000 allowed (rerank_texts)",
        ),
        ("/embed", {"inputs": ["a"] * 1025}, "inputs has 1,025 texts, more than the 1,024 allowed (embed_texts)"),
    ],
)
def test_the_server_refuses_bad_requests_with_422(server, path, body, message):
    response = requests.post(f"{server}{path}", json=body, timeout=10)
    assert response.status_code == 422
    assert response.json() == {"error": response.json()["error"], "error_type": "Validation"}
    assert message in response.json()["error"]


def test_a_server_without_a_cross_encoder_answers_424_and_the_client_names_the_url(minilm):
    with model_server(minilm, None) as url, pytest.raises(ProviderError) as caught:
        HTTPReranker(url, retries=0).rerank("q", ["d"])
    assert f"model server {url}/rerank refused the request (HTTP 424" in str(caught.value)


class _Flaky(http.server.BaseHTTPRequestHandler):
    """Answers 503 to the first ``failures`` POSTs, then a valid TEI /embed answer; counts requests."""

    failures = 2
    seen = 0

    def do_POST(self):
        type(self).seen += 1
        self.rfile.read(int(self.headers["Content-Length"]))
        ok = type(self).seen > self.failures
        body = b"[[" + b",".join([b"0.0"] * 383 + [b"1.0"]) + b"]]" if ok else b"overloaded"
        self.send_response(200 if ok else 503)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def flaky():
    _Flaky.seen = 0
    server = http.server.HTTPServer(("127.0.0.1", 0), _Flaky)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_5xx_is_retried_with_backoff_then_succeeds(flaky):
    vectors = HTTPEmbedder(flaky, retries=3, backoff=0.01).embed(["x"])
    assert _Flaky.seen == 3 and vectors.shape == (1, 384) and vectors[0, 383] == 1.0


def test_retries_run_out_with_an_error_naming_the_url(flaky):
    with pytest.raises(ProviderError, match=f"model server {flaky}/embed failed after 2 attempts \\(HTTP 503"):
        HTTPEmbedder(flaky, retries=1, backoff=0.01).embed(["x"])
    assert _Flaky.seen == 2


def test_an_unreachable_server_is_named():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ProviderError, match=f"model server {url}/embed failed after 1 attempts \\(ConnectionError"):
        HTTPEmbedder(url, retries=0).embed(["x"])
    assert not HTTPEmbedder(url).health()


@pytest.mark.parametrize(
    ("config", "what", "message"),
    [
        ({"kind": "none"}, "embedding", "embedding_provider kind must be local or http, not 'none'"),
        ({"kind": "http"}, "reranker", "reranker_provider http needs a url"),
        ({"kind": "http", "url": "ftp://x"}, "embedding", "needs a url starting with http://"),
        ({"kind": "local"}, "reranker", "reranker_provider local needs a model"),
        ({"kind": "http", "url": "http://x", "timeout": -1}, "embedding", "timeout must be a number >= 0.001"),
        (["local"], "embedding", "must be a JSON object, not list"),
    ],
)
def test_bad_configs_are_refused(config, what, message):
    with pytest.raises(ValueError, match=message):
        providers.check(config, what)


def test_configs_choose_the_provider():
    assert isinstance(providers.embedder(None), LocalEmbedder)
    assert providers.embedder({"kind": "local", "model": providers.E5}).model == providers.E5
    remote = providers.embedder({"kind": "http", "url": "http://m:8081/", "timeout": 5, "retries": 1})
    assert isinstance(remote, HTTPEmbedder) and (remote.url, remote.timeout, remote.retries) == ("http://m:8081", 5, 1)
    assert providers.reranker({"kind": "none"}) is None
    assert providers.reranker(None).model == providers.READER  # type: ignore[union-attr]  # the packaged reader
    assert isinstance(providers.reranker({"kind": "local", "model": "/m"}), LocalReranker)


class _Silent(http.server.BaseHTTPRequestHandler):
    """Takes a request and answers nothing for 3 s; counts requests."""

    seen = 0

    def log_message(self, *args):
        pass

    def do_POST(self):
        type(self).seen += 1
        self.rfile.read(int(self.headers["Content-Length"]))
        time.sleep(3)


def test_a_server_that_does_not_answer_in_time_is_not_asked_again():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Silent)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    with pytest.raises(ProviderError, match=f"model server {url}/embed did not answer within 0.5 s"):
        HTTPEmbedder(url, timeout=0.5, retries=3).embed(["a text"])
    assert _Silent.seen == 1  # not four requests queued on a busy server
    server.shutdown()


def test_the_default_reader_steps_aside_only_where_it_is_not_installed(tmp_path):
    """The packaged reader is the default where its model loads: reader_missing says why it does not (recall then
    runs its passthrough); a copy of the in-database Python with neither its models folder nor the driver
    package beside it (python -S: no site-packages, so no onnxruntime either) finds no reader."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    shutil.copytree(Path(providers.__file__).parent, tmp_path / "lib" / "hindsight_pl")
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); from hindsight_pl import providers; "
             "print(providers.reader_missing(providers.LocalReranker(providers.READER)))")  # fmt: skip

    def said(where: Path) -> str:
        return subprocess.run([sys.executable, "-S", "-c", probe, str(tmp_path / "lib")], capture_output=True,
                              text=True, check=True, cwd=where).stdout  # fmt: skip

    nowhere = said(tmp_path)
    assert nowhere.startswith("the packaged reader 'hindsight-reader' is not installed (looked in ")
    assert "run make install" in nowhere
    # beside the checkout its files are there (hindsight_pg/data/reader) but onnxruntime is not
    assert said(Path(__file__).resolve().parents[2]) == "No module named 'onnxruntime'\n"
    assert providers.reader_missing(LocalReranker(providers.READER)) is None  # here it loads
    assert providers.reader_missing(LocalReranker(str(tmp_path / "nothing"))) is None  # another model: its own error


def test_every_part_of_a_long_chunk_counts_in_its_embedding(embedder):
    filler = "The committee reviewed the routine budget lines one by one. " * 40  # ~2,400 characters
    needle = "The secret launch code is purple elephant."
    base, with_needle = embedder.embed([filler.strip(), filler.strip() + " " + needle])
    assert float(np.dot(base, with_needle)) < 0.995  # the last sentence changes the vector
    assert float(np.linalg.norm(with_needle)) == pytest.approx(1.0, abs=1e-5)
    short = embedder.embed(["hello world"])[0]
    assert float(np.linalg.norm(short)) == pytest.approx(1.0, abs=1e-5)
