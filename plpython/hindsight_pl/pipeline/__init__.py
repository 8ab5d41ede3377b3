"""The orchestration of hindsight_pg, written once: retain from text, consolidation with a language
model, reflect, the mental-model refresh, and recall as the driver and reflect's tools call it.

Each step runs over a :class:`~hindsight_pl.pipeline.database.Database` (run a statement, fetch its
rows), which the caller implements: inside PostgreSQL over PL/Python's ``plpy``
(:class:`~hindsight_pl.pipeline.database.PlpyDatabase`, used by
:mod:`hindsight_pl.pipeline.in_database`, which the extension's PL/Python functions call), and in the
driver over psycopg (``hindsight_pg._database.PsycopgDatabase``). The caller also gives the models:
inside the database the bank's providers and a language model client that checks its endpoint
(``hindsight._check_llm_endpoint``); in the driver its own embedder, reranker and client.
"""
