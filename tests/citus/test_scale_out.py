"""Adding a worker and moving banks to it with citus_rebalance_start (runs last: it changes the cluster)."""

from __future__ import annotations

import pytest
from _cluster import worker_of

pytestmark = pytest.mark.slow


def test_a_new_worker_takes_banks_and_they_still_recall(db, client, cluster):
    banks = [f"scale-{i:02d}" for i in range(12)]
    for b in banks:
        client.create_bank(b)
        client.retain_batch(b, [f"Tenant {b} ships release {r} on Friday." for r in range(3)])
    before = {b: [r.id for r in client.recall(b, "When does the release ship?").results] for b in banks}
    new = cluster.add_worker()
    db.execute("SELECT citus_rebalance_start(shard_transfer_mode => 'block_writes')")
    db.execute("SELECT citus_rebalance_wait()")
    placement = dict(db.execute(
        "SELECT p.nodeport, count(*) FROM pg_dist_shard s JOIN pg_dist_shard_placement p USING (shardid)"
        " WHERE s.logicalrelid = 'hindsight.memory_units'::regclass GROUP BY 1").fetchall())  # fmt: skip
    assert placement.get(new.port, 0) >= 2 and sum(placement.values()) == 8
    moved = [b for b in banks if worker_of(db, b) == new.port]
    assert moved  # some banks now live on the new worker, with everything they had
    for b in banks:
        assert [r.id for r in client.recall(b, "When does the release ship?").results] == before[b], b
    for b in banks:
        client.delete_bank(b)
