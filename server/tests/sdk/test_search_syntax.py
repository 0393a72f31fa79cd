"""Text search through `dataset.records(query=rg.Query(query=...))` with the reference's query syntax
(Elasticsearch's simple_query_string, default operator AND) and its standard words."""

import pytest

import argilla as rg

CORPUS = {
    "intro": ("Argilla intro", "argilla is a collaboration tool for AI engineers"),
    "distilabel": ("Distilabel", "distilabel and argilla work together"),
    "snake": ("Snake case", "use my_term in python code"),
    "contraction": ("Contractions", "you can't stop the signal"),
    "numbers": ("Numbers", "pi is 3.14 and the code a1b2"),
    "order": ("Order", "quick brown fox jumps over the lazy dog"),
    "reverse": ("Reverse", "the dog lazy jumps over the brown quick fox"),
    "typo": ("Typos", "argila is misspelled here"),
}


@pytest.fixture(scope="module")
def dataset(client, workspace):
    settings = rg.Settings(
        fields=[rg.TextField(name="title"), rg.TextField(name="text")],
        questions=[rg.LabelQuestion(name="label", labels=["a", "b"])],
    )
    ds = rg.Dataset(name=f"search_syntax_{id(settings)}", workspace=workspace, settings=settings, client=client).create()
    ds.records.log([rg.Record(id=key, fields={"title": title, "text": text}) for key, (title, text) in CORPUS.items()])
    yield ds
    ds.delete()


def hits(dataset, q):
    return sorted(record.id for record in dataset.records(query=rg.Query(query=q)))


@pytest.mark.parametrize(
    "q, expected",
    [
        ("argilla -distilabel", ["intro"]),
        ("argilla | python", ["distilabel", "intro", "snake"]),
        ("argilla + distilabel", ["distilabel"]),
        ("python | dog lazy", ["order", "reverse"]),
        ("(argilla | python) -distilabel", ["intro", "snake"]),
        ('"quick brown"', ["order"]),
        ('"brown fox"~1', ["order", "reverse"]),
        ("arg*", ["distilabel", "intro", "typo"]),
        ("argilla~1", ["distilabel", "intro", "typo"]),
        # fuzzy_transpositions is off: a swap of neighbours is two edits
        ("argilal~1", ["typo"]),
        ("argilal~2", ["distilabel", "intro", "typo"]),
        ("my_term", ["snake"]),
        ("my", []),
        ("can't", ["contraction"]),
        ("3.14", ["numbers"]),
        ("\\-argilla", ["distilabel", "intro"]),
        ('"argilla', ["distilabel", "intro"]),
        ("argilla (", ["distilabel", "intro"]),
        ("-", []),
    ],
)
def test_query_syntax(dataset, q, expected):
    assert hits(dataset, q) == expected


def test_negation_alone_lists_every_other_record(dataset):
    assert hits(dataset, "-argilla") == sorted(set(CORPUS) - {"intro", "distilabel"})


def test_records_that_match_more_come_first(dataset):
    ranked = [record.id for record in dataset.records(query=rg.Query(query="argilla | distilabel"))]
    assert ranked[0] == "distilabel"
    assert sorted(ranked) == ["distilabel", "intro"]


def test_a_fuzzy_term_expands_to_at_most_10_words_the_closest_first(client, workspace):
    settings = rg.Settings(fields=[rg.TextField(name="text")], questions=[rg.LabelQuestion(name="label", labels=["a", "b"])])
    ds = rg.Dataset(name=f"fuzzy_expansions_{id(settings)}", workspace=workspace, settings=settings, client=client).create()
    # kx00 itself, then ten words one edit away (kx01..kx09, kx10), then kx11 two edits away
    words = [f"kx{i:02d}" for i in range(12)]
    ds.records.log([rg.Record(id=word, fields={"text": word}) for word in words])
    try:
        assert hits(ds, "kx00~2") == [f"kx{i:02d}" for i in range(10)]
    finally:
        ds.delete()
