"""Range filters as Argilla's filter docs write them: bounds may be numeric strings (`("label.score", "<=", "0.9")`),
read as numbers on numeric properties."""

import pytest

import argilla as rg
from argilla._exceptions import UnprocessableEntityError

SCORES = {"a": 0.5, "b": 0.95, "c": 0.99}
COUNTS = {"a": 5, "b": 20, "c": 100}


@pytest.fixture(scope="module")
def dataset(client, workspace):
    settings = rg.Settings(
        fields=[rg.TextField(name="text")],
        questions=[
            rg.LabelQuestion(name="label", labels=["yes", "no"]),
            rg.RatingQuestion(name="rating", values=[1, 2, 3, 4, 5], required=False),
        ],
        metadata=[rg.IntegerMetadataProperty(name="views"), rg.FloatMetadataProperty(name="ratio")],
    )
    ds = rg.Dataset(name=f"string_bounds_{id(settings)}", workspace=workspace, settings=settings, client=client).create()
    ds.records.log(
        [
            rg.Record(
                id=key,
                fields={"text": f"record {key}"},
                metadata={"views": COUNTS[key], "ratio": SCORES[key] * 10},
                suggestions=[rg.Suggestion("label", "yes", score=SCORES[key]), rg.Suggestion("rating", COUNTS[key] // 20 or 1)],
            )
            for key in SCORES
        ]
    )
    yield ds
    ds.delete()


def hits(dataset, *conditions):
    return sorted(record.id for record in dataset.records(query=rg.Query(filter=rg.Filter(list(conditions)))))


def test_numeric_string_bounds_compare_as_numbers(dataset):
    assert hits(dataset, ("label.score", "<=", "0.9")) == ["a"]
    assert hits(dataset, ("label.score", ">=", "0.96")) == ["c"]
    assert hits(dataset, ("metadata.views", ">=", "20")) == ["b", "c"]
    assert hits(dataset, ("metadata.views", "<=", "9")) == ["a"]
    assert hits(dataset, ("metadata.ratio", ">=", "9.6")) == ["c"]
    assert hits(dataset, ("rating", ">=", "2")) == ["c"]


def test_a_non_numeric_string_bound_on_a_number_is_refused(dataset):
    with pytest.raises(UnprocessableEntityError):
        hits(dataset, ("metadata.views", ">=", "twenty"))
