"""Export a dataset to disk and import it back as a new dataset (Dataset.to_disk / Dataset.from_disk).
Both directions run client-side over the ordinary endpoints (settings create + records bulk upsert + listing)."""

import json
import os

import pytest

import argilla as rg

from sdk_helpers import (
    assert_full_settings,
    fields_for,
    full_settings,
    make_record,
    metadata_for,
    owner_status,
    annotator_status,
)

N = 60


def test_to_disk_and_from_disk(client, workspace, owner, annotator, unique_name, tmp_path):
    source = rg.Dataset(name=unique_name("src"), workspace=workspace, settings=full_settings(), client=client).create()
    source.records.log([make_record(i, owner.id, annotator.id) for i in range(N)])

    export_dir = tmp_path / "export"
    export_dir.mkdir()
    source.to_disk(str(export_dir))
    assert sorted(os.listdir(export_dir)) == [".argilla", "records.json"]
    exported = json.loads((export_dir / "records.json").read_text())
    assert [r["id"] for r in exported] == [f"rec-{i}" for i in range(N)]

    new_name = unique_name("copy")
    copy = rg.Dataset.from_disk(str(export_dir), client=client, name=new_name, workspace=workspace.name)
    assert copy.id != source.id
    assert copy.name == new_name

    fresh = client.datasets(name=new_name, workspace=workspace)
    assert fresh is not None and fresh.id == copy.id
    assert_full_settings(fresh.settings)
    assert fresh.settings.guidelines == source.settings.guidelines
    assert fresh.settings.distribution.min_submitted == source.settings.distribution.min_submitted

    records = list(fresh.records(with_suggestions=True, with_responses=True, with_vectors=True))
    assert [r.id for r in records] == [f"rec-{i}" for i in range(N)]
    source_server_ids = {r._server_id for r in source.records(with_suggestions=False, with_responses=False)}
    for r in records:
        i = int(r.id.split("-")[1])
        assert r._server_id not in source_server_ids  # a new record, not the exported server id re-used
        assert r.fields.to_dict() == fields_for(i)
        assert dict(r.metadata) == metadata_for(i)
        # Dataset.to_disk() exports records without vectors (records(...) defaults to with_vectors=None)
        assert "vectors" in exported[0] and exported[0]["vectors"] == {}
        assert {s.question_name for s in r.suggestions} == {"label", "topics", "ranking", "rating", "comment", "entities"}
        # the JSON export keeps response values and user ids (not statuses); users are the same on this server
        expected_users = set()
        if owner_status(i):
            expected_users.add(owner.id)
        if annotator_status(i):
            expected_users.add(annotator.id)
        assert {resp.user_id for resp in r.responses} == expected_users

    assert fresh.progress()["total"] == N
    source.delete()
    fresh.delete()
