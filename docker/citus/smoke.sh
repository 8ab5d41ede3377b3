#!/usr/bin/env bash
# Smoke test of the Citus image: the same checks as tests/citus/ (make test-citus), run inside the
# coordinator container, where the suite starts its own throwaway coordinator and two workers from
# the image's Citus and extension; then the compose cluster itself is wired up and distributed.
#   docker compose -f docker/citus/docker-compose.yml up -d --build
#   docker/citus/smoke.sh
set -euo pipefail
cd "$(dirname "$0")"
docker compose exec -T -u postgres coordinator bash -c 'cd /src/hindsight_pg && .venv/bin/pytest tests/citus'

psql_coord() { docker compose exec -T coordinator psql -U postgres -v ON_ERROR_STOP=1 -qAt "$@"; }
for w in worker1 worker2; do
  until docker compose exec -T "$w" pg_isready -U postgres >/dev/null; do sleep 1; done
  psql_coord -c "SELECT citus_add_node('$w', 5432)" >/dev/null || true
done
psql_coord -c "SELECT citus_set_coordinator_host('coordinator', 5432)" >/dev/null
psql_coord -c "SELECT count(*) FROM unnest(hindsight.distribute(32))"
psql_coord -c "SELECT p.nodename, count(*) FROM pg_dist_shard s JOIN pg_dist_shard_placement p USING (shardid)
               WHERE s.logicalrelid = 'hindsight.banks'::regclass GROUP BY 1 ORDER BY 1"
