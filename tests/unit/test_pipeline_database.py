"""The pipeline's statements carry their parameter types ($n::type), which plpy.prepare needs."""

import pytest

from hindsight_pl.pipeline import consolidate, recall, reflect, retain
from hindsight_pl.pipeline.database import parameter_types


def test_types_come_from_the_first_cast_of_each_parameter():
    statement = "SELECT f($1::text, $2::uuid[], $3::double precision, $1, $4::hindsight.recall_candidate[])"
    assert parameter_types(statement) == ["text", "uuid[]", "double precision", "hindsight.recall_candidate[]"]
    assert parameter_types("SELECT 1") == []


def test_a_parameter_without_a_cast_is_refused():
    with pytest.raises(ValueError, match=r"parameters \[2\] are not cast"):
        parameter_types("SELECT f($1::text, $2, $3::int)")


@pytest.mark.parametrize(
    "statement",
    [recall.RECALL_JSON, recall.CANDIDATES, recall.FINISH, consolidate.OFFLINE, consolidate.FACTS, consolidate.WRITE,
     reflect.SOURCE, reflect.MODELS, reflect.MENTAL_MODEL, reflect.STORE, retain.STORE, retain.CHUNK_HASHES],
)  # fmt: skip
def test_every_statement_of_the_pipeline_types_its_parameters(statement):
    types = parameter_types(statement)
    assert types and all(types)
