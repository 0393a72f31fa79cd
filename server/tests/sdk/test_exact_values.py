"""Values read back exactly as the SDK logged them: float64 vectors, and a re-log with `fields: None`
refused as the reference refuses it."""

import pytest

import argilla as rg


@pytest.fixture
def dataset(client, workspace, unique_name):
    settings = rg.Settings(
        fields=[rg.TextField(name="text")],
        questions=[rg.LabelQuestion(name="label", labels=["a", "b"])],
        vectors=[rg.VectorField(name="emb", dimensions=4)],
    )
    ds = rg.Dataset(name=unique_name("exact"), workspace=workspace, settings=settings, client=client).create()
    yield ds
    ds.delete()


def test_vectors_read_back_with_full_precision(dataset):
    logged = [0.1234567890123456, -0.987654321987654, 1e-12, 3.141592653589793]
    dataset.records.log([rg.Record(id="v1", fields={"text": "exact"}, vectors={"emb": logged})])

    (record,) = list(dataset.records(with_vectors=True))
    assert record.vectors["emb"] == logged

    ((hit, score),) = list(dataset.records(query=rg.Query(similar=rg.Similar(name="emb", value=logged)), with_vectors=True, limit=1))
    assert hit.vectors["emb"] == logged
    assert score == pytest.approx(1.0, abs=1e-6)


def test_relog_of_existing_record_with_null_fields_is_refused(client, dataset):
    dataset.records.log([rg.Record(id="f1", fields={"text": "kept"})])
    (record,) = list(dataset.records)
    payload = {**record.api_model().model_dump(mode="json"), "fields": None}

    response = client.http_client.put(f"/api/v1/datasets/{dataset.id}/records/bulk", json={"items": [payload]})
    assert response.status_code == 422
    assert response.json() == {"detail": "Record at position 0 is not valid because fields cannot be empty"}
    assert [r.fields["text"] for r in dataset.records] == ["kept"]
