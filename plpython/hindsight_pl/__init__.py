"""Python that runs inside PostgreSQL for the hindsight_pg extension.

The PL/Python functions of the extension import this package from the
versioned directory named by the setting ``hindsight.python_path``; the
driver imports the same pure modules, so each piece exists once.

Modules never import ``plpy``: whatever they need is passed in, so they are
unit-tested with plain pytest. ``hindsight_pl.retain`` holds retain's text work (chunks, sentences, names,
extractors, repeats, memory units; imported when a retain needs it), ``hindsight_pl.recall`` recall's Python
(spreading activation, packing), ``hindsight_pl.temporal`` the dates of facts and the windows of queries, and
``hindsight_pl.pipeline`` holds the orchestration (retain from
text, consolidation, reflect, the mental-model refresh, recall as the driver calls it) once, over a
small database protocol the PL/Python functions implement with ``plpy`` and the driver with psycopg.
"""

from . import recall, temporal, text, tokens

__version__ = "0.3.0"

__all__ = ["__version__", "recall", "temporal", "text", "tokens"]
