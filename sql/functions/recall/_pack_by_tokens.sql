-- Token-budget packing (sequential, so PL/Python over a pure function).

CREATE OR REPLACE FUNCTION hindsight._pack_by_tokens(
    token_counts int[],
    max_tokens int
)
RETURNS int[]
LANGUAGE plpython3u IMMUTABLE
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
return hpl.recall.packing.pack_by_tokens(token_counts or [], max_tokens)
$$;
COMMENT ON FUNCTION hindsight._pack_by_tokens(int[], int) IS
    'Greedy token-budget packing over results in score order: the 1-based positions of the results kept. '
    'A result is kept when it fits in what is left of max_tokens and skipped otherwise; when none fits, the '
    'first is kept whole; max_tokens = 0 keeps none. See hindsight_pl.recall.packing.pack_by_tokens.';
