-- Text helpers shared by retain and recall: token counts, validation, keyword queries (the public
-- hindsight.count_tokens is count_tokens.sql).

CREATE OR REPLACE FUNCTION hindsight._unit_token_counts(
    texts text[],
    labels text[] DEFAULT NULL,
    OUT token_counts int[],
    OUT problem text,
    OUT hint text
)
LANGUAGE plpython3u STABLE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
try:
    return hpl.text.validate_and_count(texts or [], labels), None, None
except hpl.text.InvalidText as exc:
    return None, str(exc), exc.hint
$$;
COMMENT ON FUNCTION hindsight._unit_token_counts(text[], text[]) IS
    'Checks memory texts (not blank, not punctuation-only; hindsight._check_retain_items bounded their length) '
    'and returns their '
    'cl100k_base token counts in order, or (NULL, problem, hint) naming the first bad text by its label '
    '(default: its 1-based position). The caller raises.';

CREATE OR REPLACE FUNCTION hindsight._search_text(content text, for_query bool DEFAULT false)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Chinese, Japanese and Korean are written without spaces, so a text search
    -- parser sees a whole run as one word. Each CJK run becomes its overlapping
    -- character bigrams (and, when indexing, its single characters too, so that a
    -- one-character query matches); a query's one-character run stays as it is.
    -- Other text is unchanged (and keeps the configuration's stemming).
    SELECT coalesce(string_agg(
        CASE WHEN m[1] IS NULL THEN m[2]
             WHEN length(m[1]) = 1 THEN ' ' || m[1] || ' '
             ELSE ' ' || (SELECT string_agg(substr(m[1], i, 2), ' ') FROM generate_series(1, length(m[1]) - 1) i)
                  || CASE WHEN for_query THEN '' ELSE ' ' || (SELECT string_agg(substr(m[1], i, 1), ' ')
                                                               FROM generate_series(1, length(m[1])) i) END
                  || ' '
        END, ''), '')
    FROM regexp_matches(coalesce(content, ''),
                        '([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)|([^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)',
                        'g') AS m
$$;
COMMENT ON FUNCTION hindsight._search_text(text, bool) IS
    'The text a search_vector is built from: CJK runs as overlapping character bigrams (plus single characters '
    'when indexing; a one-character query run as itself), other text unchanged.';

CREATE OR REPLACE FUNCTION hindsight._search_vector(content text, config regconfig)
RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT to_tsvector(config, hindsight._search_text(content))
$$;
COMMENT ON FUNCTION hindsight._search_vector(text, regconfig) IS
    'search_vector of a memory unit: to_tsvector(config, hindsight._search_text(content)).';

CREATE OR REPLACE FUNCTION hindsight._query_terms(query text, config regconfig)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT tsvector_to_array(to_tsvector(config, hindsight._search_text(coalesce(query, ''), true)))
$$;
COMMENT ON FUNCTION hindsight._query_terms(text, regconfig) IS
    'The distinct lexemes of a query, as the keyword backends match them (CJK as bigrams).';

CREATE OR REPLACE FUNCTION hindsight._keyword_query(query text, config regconfig)
RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- The OR of the query's lexemes. Each lexeme is quoted as a tsquery literal
    -- (backslash and quote escaped), so no character of the query is ever parsed
    -- as a tsquery operator: "team:infra & a|b" cannot raise. NULL when the query
    -- has no searchable word (only stop words or punctuation).
    SELECT pg_catalog.string_agg(
               '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''', ' | ' ORDER BY lexeme
           )::tsquery
    FROM pg_catalog.unnest(hindsight._query_terms(query, config)) AS lexeme
$$;
COMMENT ON FUNCTION hindsight._keyword_query(text, regconfig) IS
    'The keyword arm''s query: OR of the lexemes of query under a text search configuration, each quoted, '
    'so operators and quotes in the query are plain text. NULL when nothing is searchable.';

CREATE OR REPLACE FUNCTION hindsight._tags_match(
    unit_tags text[],
    wanted text[],
    mode text
)
RETURNS bool
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Inlined into each arm's WHERE clause. Modes: any / all keep untagged
    -- units; the _strict forms and exact drop them.
    SELECT wanted IS NULL OR cardinality(wanted) = 0 OR CASE mode
        WHEN 'any'        THEN unit_tags && wanted OR cardinality(unit_tags) = 0
        WHEN 'all'        THEN unit_tags @> wanted OR cardinality(unit_tags) = 0
        WHEN 'any_strict' THEN unit_tags && wanted
        WHEN 'all_strict' THEN unit_tags @> wanted
        WHEN 'exact'      THEN unit_tags @> wanted AND unit_tags <@ wanted
    END
$$;
COMMENT ON FUNCTION hindsight._tags_match(text[], text[], text) IS
    'Tag filter of every recall arm. any: shares a tag or untagged; all: has every tag or untagged; '
    'any_strict / all_strict: the same without untagged units; exact: the same set of tags.';
