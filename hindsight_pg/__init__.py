"""hindsight_pg: agent memory inside PostgreSQL.

>>> import hindsight_pg
>>> client = hindsight_pg.connect()          # embedded server unless $HINDSIGHT_PG_DSN
>>> client.create_bank("alice", exist_ok=True)
>>> client.retain("alice", "Alice joined Atlas as tech lead.", timestamp="2024-03-01")
>>> client.recall("alice", "Who leads Atlas?").results[0].text
"""

from hindsight_pl import __version__
from hindsight_pl.llm import LLMClient, LLMExtractor
from hindsight_pl.providers import Embedder, HTTPEmbedder, HTTPReranker, LocalEmbedder, LocalReranker, Reranker
from hindsight_pl.reflect import ReflectResult
from hindsight_pl.retain.extract import Extractor, Fact, OfflineExtractor, VerbatimExtractor

from ._async import AsyncClient, configure_async, connect_async
from ._client import Client
from ._connect import connect
from ._errors import (
    BankExistsError,
    BankNotFoundError,
    ConnectionLostError,
    EmbeddingModelError,
    ExtensionError,
    ExtensionVersionError,
    ExtractionError,
    HindsightError,
    InvalidInputError,
    LimitExceededError,
    MemoryNotFoundError,
    NotSupportedError,
    ProviderError,
    ServerError,
    WorkerError,
)
from ._server import EmbeddedServer
from ._temporal import parse_temporal
from ._types import (
    Bank,
    Entity,
    Memory,
    MemoryItem,
    MentalModel,
    MergedFact,
    RecallResponse,
    RecallResult,
    RetainResult,
    Scores,
)

__all__ = [
    "AsyncClient",
    "Bank",
    "BankExistsError",
    "BankNotFoundError",
    "Client",
    "ConnectionLostError",
    "EmbeddedServer",
    "Embedder",
    "EmbeddingModelError",
    "Entity",
    "ExtensionError",
    "ExtensionVersionError",
    "ExtractionError",
    "Extractor",
    "Fact",
    "HTTPEmbedder",
    "HTTPReranker",
    "HindsightError",
    "InvalidInputError",
    "LLMClient",
    "LLMExtractor",
    "LimitExceededError",
    "LocalEmbedder",
    "LocalReranker",
    "Memory",
    "MemoryItem",
    "MemoryNotFoundError",
    "MentalModel",
    "MergedFact",
    "NotSupportedError",
    "OfflineExtractor",
    "ProviderError",
    "RecallResponse",
    "RecallResult",
    "ReflectResult",
    "Reranker",
    "RetainResult",
    "Scores",
    "ServerError",
    "VerbatimExtractor",
    "WorkerError",
    "__version__",
    "configure_async",
    "connect",
    "connect_async",
    "parse_temporal",
]
