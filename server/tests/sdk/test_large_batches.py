"""`dataset.records.log()` of large records in the SDK's own batches of 256 (one bulk write each):
what a bulk body may hold (at most 16 MiB, 64 KiB a record at the SDK's batch size), and what a
client that sends more is told."""

import random

import pytest

import argilla as rg

DIMENSIONS = 1_536
TEXT_CHARS = 24_000


@pytest.fixture
def dataset(client, workspace, unique_name):
    settings = rg.Settings(
        fields=[rg.TextField(name="text")],
        questions=[rg.LabelQuestion(name="label", labels=["yes", "no"])],
        vectors=[rg.VectorField(name="embedding", dimensions=DIMENSIONS)],
    )
    ds = rg.Dataset(name=unique_name("large"), workspace=workspace, settings=settings, client=client).create()
    yield ds
    ds.delete()


def text_for(i: int, chars: int = TEXT_CHARS) -> str:
    return (f"record {i}: " + "a long document of many words " * (chars // 29 + 1))[:chars]


def test_log_of_large_records_in_default_batches(dataset):
    rng = random.Random(7)
    records = [
        rg.Record(id=f"doc-{i}", fields={"text": text_for(i)}, vectors={"embedding": [rng.uniform(-1, 1) for _ in range(DIMENSIONS)]})
        for i in range(512)
    ]
    # Two bulk writes of 256 records, each a body of about 14 MB (24 KB of text and a 1,536-number vector a record).
    dataset.records.log(records)
    stored = {r.id: r for r in dataset.records(with_vectors=True)}
    assert len(stored) == 512
    assert stored["doc-300"].fields["text"] == text_for(300)
    assert stored["doc-511"].vectors["embedding"] == pytest.approx(records[511].vectors["embedding"])


def test_log_past_the_body_limit_is_refused_and_goes_in_smaller_batches(dataset):
    records = [rg.Record(id=f"big-{i}", fields={"text": text_for(i, 80_000)}) for i in range(256)]
    # 256 records of 80 KB: a 20 MB body, past what one bulk write takes.
    with pytest.raises(Exception, match="batch_size"):
        dataset.records.log(records)
    assert sum(1 for _ in dataset.records) == 0
    dataset.records.log(records, batch_size=64)
    assert sum(1 for _ in dataset.records) == 256
