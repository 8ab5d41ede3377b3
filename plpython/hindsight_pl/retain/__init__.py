"""Retain's text work, the same in the driver and in the database: a text cut into chunks (``chunking``), split into
sentences and grouped into facts (``sentences``), its names found (``names``), the facts extracted (``extract``: the
offline, verbatim and language-model extractors share one interface), repeats merged (``dedupe``), and each item's
memory units made (``units``). ``hindsight_pl.pipeline.retain`` runs them; docs/retain.md describes them."""
