"""The records half of Dataset.to_hub / Dataset.from_hub, run offline: to_hub converts
`records(with_vectors=True, with_responses=True, with_suggestions=True)` to a Hugging Face dataset and pushes it;
from_hub(settings=...) creates the dataset and logs the rows back (resolving response users via GET /users).
Here the push/pull is replaced by a local parquet folder; the SDK code talking to the server is the same."""

import pytest

import argilla as rg

from sdk_helpers import VECTOR_NAME, full_settings, make_record, owner_status, annotator_status, vector_for

N = 40


def test_hub_records_round_trip(client, workspace, owner, annotator, unique_name, tmp_path):
    source = rg.Dataset(
        name=unique_name("hubsrc"), workspace=workspace, settings=full_settings(with_image=False), client=client
    ).create()
    records = []
    for i in range(N):
        # Ranking responses are left out: the HF conversion keeps only the ranked values (not the ranks), and a
        # submitted ranking response without ranks is rejected by the server (as by the reference server).
        record = make_record(i, owner.id, annotator.id, with_ranking_response=False)
        del record.fields["image"]
        records.append(record)
    source.records.log(records)

    hf_dataset = source.records(with_vectors=True, with_responses=True, with_suggestions=True).to_datasets()
    assert hf_dataset.num_rows == N
    (tmp_path / "data").mkdir()
    hf_dataset.to_parquet(str(tmp_path / "data" / "train-00000-of-00001.parquet"))

    name = unique_name("hubcopy")
    # from_hub(settings=Settings) creates its dataset with the SDK's default client (the latest one
    # created, possibly another test's server), so make ours the default first.
    rg.Argilla._set_default(client)
    copy = rg.Dataset.from_hub(
        repo_id=str(tmp_path), name=name, settings=full_settings(with_image=False), split="train", client=client
    )
    try:
        fresh = client.datasets(name=name)
        assert fresh is not None and fresh.id == copy.id
        imported = list(fresh.records(with_vectors=True))
        assert sorted(r.id for r in imported) == sorted(f"rec-{i}" for i in range(N))
        for r in imported:
            i = int(r.id.split("-")[1])
            assert r.vectors[VECTOR_NAME] == vector_for(i)
            assert r.suggestions["label"].value == source.settings.questions["label"].labels[i % 3]
            statuses = {}
            for response in r.responses:
                statuses[response.user_id] = str(getattr(response.status, "value", response.status))
            expected = {}
            if owner_status(i):
                expected[owner.id] = owner_status(i)
            if annotator_status(i):
                expected[annotator.id] = annotator_status(i)
            assert statuses == expected, f"record {r.id}"
        assert fresh.progress() == source.progress()
    finally:
        copy.delete()
        source.delete()
