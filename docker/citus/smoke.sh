#!/usr/bin/env bash
# Smoke test of the Citus deployment: register the workers, distribute, create 100
# banks, retain and recall in each, and show where the shards are.
set -euo pipefail
cd "$(dirname "$0")"
psql_coord() { docker compose exec -T coordinator psql -U postgres -v ON_ERROR_STOP=1 -qAt "$@"; }

for w in worker1 worker2; do
  until docker compose exec -T "$w" pg_isready -U postgres >/dev/null; do sleep 1; done
  psql_coord -c "SELECT citus_add_node('$w', 5432)" >/dev/null || true
done
psql_coord -c "SELECT hindsight.distribute(32)" >/dev/null

# 100 banks, three memories each (embeddings made in SQL: a unit vector per fact), then a recall per bank.
psql_coord <<'SQL'
DO $$
DECLARE
    b int;
BEGIN
    FOR b IN 1..100 LOOP
        PERFORM hindsight.create_bank('tenant-' || b);
    END LOOP;
END
$$;
SELECT count(*) FROM generate_series(1, 100) b, generate_series(1, 3) r,
     LATERAL hindsight.retain('tenant-' || b, jsonb_build_array(
         jsonb_build_object('units', jsonb_build_array(jsonb_build_object(
             'text', 'Tenant ' || b || ' ships release ' || r || ' on Friday.',
             'embedding', (SELECT jsonb_agg(CASE WHEN i = r THEN 1 ELSE 0 END) FROM generate_series(1, 384) i))))));
SELECT count(*) AS recalled FROM generate_series(1, 100) b,
     LATERAL hindsight.recall('tenant-' || b, 'release Friday') r WHERE r.rank = 1;
SELECT nodename, count(*) AS shards FROM citus_shards WHERE table_name = 'hindsight.memory_units'::regclass
GROUP BY nodename ORDER BY nodename;
SQL
