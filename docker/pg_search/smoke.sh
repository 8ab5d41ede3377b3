#!/usr/bin/env bash
# Smoke test of the pg_search backend: a bank using it, English and Chinese memories, keyword recall.
set -euo pipefail
cd "$(dirname "$0")"
until docker compose exec -T postgres pg_isready -U postgres >/dev/null; do sleep 1; done
docker compose exec -T postgres psql -U postgres -v ON_ERROR_STOP=1 <<'SQL'
SELECT hindsight.create_bank('search', config => '{"keyword_backend": "pg_search"}');
SELECT count(*) FROM hindsight.retain('search', jsonb_build_array(
    jsonb_build_object('units', jsonb_build_array(jsonb_build_object('text', 'The billing migration finished on Friday.',
        'embedding', (SELECT jsonb_agg(CASE WHEN i = 1 THEN 1 ELSE 0 END) FROM generate_series(1, 384) i))))),
    jsonb_build_object('units', jsonb_build_array(jsonb_build_object('text', '我们上周讨论了新的推荐算法方案',
        'embedding', (SELECT jsonb_agg(CASE WHEN i = 2 THEN 1 ELSE 0 END) FROM generate_series(1, 384) i)))))));
SELECT rank, text, keyword_rank FROM hindsight.recall('search', 'billing migration', arms => '{keyword}');
SELECT rank, text, keyword_rank FROM hindsight.recall('search', '推荐算法', arms => '{keyword}');
SQL
