"""The native threads of a local model in this process: HINDSIGHT_EMBED_THREADS, else 1, set for the thread
that computes (OpenMP keeps a count per thread). The in-database side: tests/db/test_backend_threads.py."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from hindsight_pl import providers
from hindsight_pl.providers import LocalEmbedder, LocalReranker

QUERY = "what did Caroline say about the adoption agency?"


def openmp_threads(embedder: LocalEmbedder) -> int:
    """The OpenMP thread count of the calling thread, read from the engine that computed its embeddings."""
    return int(embedder._load()._lib.omp_get_max_threads())


def test_default_is_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(providers.THREADS_ENV, raising=False)
    assert providers.threads() == 1
    assert LocalEmbedder().threads == 1
    assert LocalReranker(providers.READER).threads == 1


def test_the_setting_names_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(providers.THREADS_ENV, "3")
    assert providers.threads() == 3
    assert LocalEmbedder().threads == 3
    assert LocalEmbedder(threads=2).threads == 2  # an embedder's own count wins


@pytest.mark.parametrize("raw", ["0", "-1", "two", "", "1.5"])
def test_a_bad_setting_is_refused(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv(providers.THREADS_ENV, raw)
    with pytest.raises(ValueError, match=providers.THREADS_ENV):
        providers.threads()


@pytest.mark.parametrize("count", [0, -2, 1.5, True, "2"])
def test_a_bad_count_is_refused(count: object) -> None:
    with pytest.raises(ValueError, match="threads must be a whole number"):
        LocalEmbedder(threads=count)  # type: ignore[arg-type]


def test_the_computing_thread_runs_on_the_embedders_count() -> None:
    one, two = LocalEmbedder(threads=1), LocalEmbedder(threads=2)
    first = one.embed([QUERY], kind="query")
    assert openmp_threads(one) == 1
    second = two.embed([QUERY], kind="query")
    assert openmp_threads(two) == 2
    np.testing.assert_allclose(first, second, atol=1e-6)  # the same vector whatever the count
    seen: list[int] = []

    def elsewhere() -> None:  # a thread of its own starts at OpenMP's default; its first embed sets it
        one.embed([QUERY], kind="query")
        seen.append(openmp_threads(one))

    worker = threading.Thread(target=elsewhere)
    worker.start()
    worker.join()
    assert seen == [1]
