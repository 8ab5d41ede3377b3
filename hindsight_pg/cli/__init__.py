"""The ``hindsight-pg`` command line: one module per command group (memory, banks, mental_models,
services, examples), what they print in ``_render``, the application in ``_app``.

Every command talks to the database named by ``--dsn`` or ``$HINDSIGHT_PG_DSN``, else to the
embedded server (started on first use). Errors print one line on standard error and exit with
status 1.
"""

# isort: off
# the command modules register their commands, in the order --help lists them
from . import memory, banks, examples, services, mental_models  # noqa: F401

# isort: on
from ._app import app, main
from .examples import EXAMPLE_CONVERSATION

__all__ = ["EXAMPLE_CONVERSATION", "app", "main"]
