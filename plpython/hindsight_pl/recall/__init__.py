"""Recall's Python inside the database: the graph arm's spreading activation over links (``spreading``) and the
packing of results into a token budget (``packing``). The rest of recall is SQL (sql/functions/recall/);
``hindsight_pl.pipeline.recall`` is recall as the driver calls it; docs/recall.md describes every stage."""

from . import packing, spreading

__all__ = ["packing", "spreading"]
