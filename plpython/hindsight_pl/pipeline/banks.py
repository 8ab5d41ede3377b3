"""What every step reads of a bank first."""

from __future__ import annotations

import json
from typing import Any

from .database import Database, one


def bank_config(db: Database, bank_id: str) -> dict[str, Any]:
    """The bank's effective config (``hindsight.bank_config``); the database raises HS404 for an unknown bank."""
    row = one(db, "SELECT hindsight.bank_config($1::text)::text AS config", bank_id)
    return json.loads(row["config"]) if row and row["config"] else {}
