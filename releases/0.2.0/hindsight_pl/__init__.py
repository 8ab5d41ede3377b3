"""Python that runs inside PostgreSQL for the hindsight_pg extension.

The PL/Python functions of the extension import this package from the
versioned directory named by the setting ``hindsight.python_path``; the
driver imports the same pure modules, so each piece exists once.

Modules never import ``plpy``: whatever they need is passed in, so they are
unit-tested with plain pytest.
"""

from . import chunking, packing, spreading, temporal, text, tokens

__version__ = "0.2.0"

__all__ = ["__version__", "chunking", "packing", "spreading", "temporal", "text", "tokens"]
