-- count_tokens: the cl100k_base token count recall packs budgets with.

CREATE OR REPLACE FUNCTION hindsight.count_tokens(content text)
RETURNS int
LANGUAGE plpython3u STABLE PARALLEL SAFE STRICT
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
return hpl.tokens.count_tokens(content)
$$;
COMMENT ON FUNCTION hindsight.count_tokens(text) IS
    'Number of cl100k_base tokens in a text (the tokenizer recall packs budgets with; loads offline). A text '
    'longer than count_chars (hindsight.limits()) is encoded in pieces cut before a space, checking for a cancel '
    'between two, and the count is their sum.';
