"""Dataset creation with every field / question / metadata type and a vector field, re-reading the
settings from the server, settings updates and dataset deletion (contract §2.4–§2.8, §3.2–§3.5, §6.7)."""

import pytest

import argilla as rg
from argilla._exceptions import ConflictError, SettingsError

from sdk_helpers import LABELS, VECTOR_DIMS, VECTOR_NAME, assert_full_settings, full_settings


@pytest.fixture
def dataset(client, workspace, unique_name):
    ds = rg.Dataset(name=unique_name("ds"), workspace=workspace, settings=full_settings(), client=client)
    ds.create()
    yield ds
    if client.datasets(id=ds.id) is not None:
        ds.delete()


def test_create_dataset_with_every_settings_type(client, workspace, dataset):
    assert dataset.id is not None
    # Dataset.create() already re-read everything (GET dataset/fields/questions/vectors-settings/metadata)
    assert_full_settings(dataset.settings)
    assert dataset.guidelines == "Label every record."
    assert dataset.allow_extra_metadata is False
    assert dataset.distribution.min_submitted == 1
    assert dataset.workspace.id == workspace.id

    # Fetch it again from scratch by name (/me/workspaces -> /me/datasets -> get) and by id.
    by_name = client.datasets(name=dataset.name, workspace=workspace)
    assert by_name is not None and by_name.id == dataset.id
    assert_full_settings(by_name.settings)
    assert by_name.settings == dataset.settings  # whole-settings round trip is stable
    by_id = client.datasets(id=dataset.id).get()
    assert by_id is not None and by_id.name == dataset.name
    assert by_id.settings.guidelines == "Label every record."

    assert dataset.name in [d.name for d in workspace.datasets]
    assert dataset.id in [d.id for d in client.datasets.list()]


def test_created_dataset_is_published_and_empty(client, dataset):
    model = client.api.datasets.get(dataset.id)
    assert model.status == "ready"
    assert list(dataset.records) == []
    assert dataset.progress() == {"total": 0, "completed": 0, "pending": 0}


def test_duplicate_dataset_name_in_workspace_is_rejected(client, workspace, dataset):
    duplicate = rg.Dataset(name=dataset.name, workspace=workspace, settings=full_settings(), client=client)
    with pytest.raises(ConflictError):
        duplicate.create()


def test_invalid_settings_roll_back_the_draft_dataset(client, workspace, unique_name):
    # A span question on a field that does not exist: rejected by the server after POST /datasets;
    # the SDK then DELETEs the draft dataset.
    settings = rg.Settings(
        fields=[rg.TextField(name="text")],
        questions=[rg.SpanQuestion(name="spans", field="missing_field", labels=["A", "B"])],
    )
    name = unique_name("bad")
    with pytest.raises(SettingsError):
        rg.Dataset(name=name, workspace=workspace, settings=settings, client=client).create()
    assert client.datasets(name=name, workspace=workspace) is None


def test_update_settings_and_reread(client, workspace, dataset):
    dataset.settings.guidelines = "New guidelines, **markdown** allowed."
    dataset.settings.questions["label"].title = "Overall sentiment"
    dataset.settings.questions["label"].description = "Choose the best label"
    dataset.settings.fields["text"].title = "Main text"
    dataset.settings.metadata.add(rg.TermsMetadataProperty(name="source", title="Source", options=["web", "book"]))
    dataset.settings.metadata.add(rg.IntegerMetadataProperty(name="year", min=1900, max=2100))
    dataset.settings.metadata["group"].title = "Group (renamed)"
    dataset.settings.vectors.add(rg.VectorField(name="small", dimensions=2))
    dataset.settings.distribution = rg.TaskDistribution(min_submitted=3)
    dataset.update()

    fresh = client.datasets(name=dataset.name, workspace=workspace)
    s = fresh.settings
    assert s.guidelines == "New guidelines, **markdown** allowed."
    assert s.distribution.min_submitted == 3
    assert s.questions["label"].title == "Overall sentiment"
    assert s.questions["label"].description == "Choose the best label"
    assert s.questions["label"].labels == LABELS  # options unchanged
    assert s.fields["text"].title == "Main text"
    assert [m.name for m in s.metadata] == ["group", "position", "score", "source", "year"]
    assert s.metadata["group"].title == "Group (renamed)"
    assert isinstance(s.metadata["source"], rg.TermsMetadataProperty) and s.metadata["source"].options == ["web", "book"]
    assert (s.metadata["year"].min, s.metadata["year"].max) == (1900, 2100)
    assert [(v.name, v.dimensions) for v in s.vectors] == [(VECTOR_NAME, VECTOR_DIMS), ("small", 2)]

    # remove a metadata property and a vector field again (DELETE /metadata-properties/{id}, /vectors-settings/{id})
    fresh.settings.metadata.remove("source")
    fresh.settings.vectors.remove("small")
    fresh.settings.guidelines = None
    fresh.update()
    again = client.datasets(id=dataset.id).get()
    assert [m.name for m in again.settings.metadata] == ["group", "position", "score", "year"]
    assert [v.name for v in again.settings.vectors] == [VECTOR_NAME]
    assert again.settings.guidelines is None


def test_delete_dataset(client, workspace, unique_name):
    ds = rg.Dataset(
        name=unique_name("del"),
        workspace=workspace,
        settings=rg.Settings(fields=[rg.TextField(name="text")], questions=[rg.LabelQuestion(name="l", labels=["x", "y"])]),
        client=client,
    ).create()
    ds.records.log([{"text": "hello", "l": "x"}, {"text": "world"}])
    assert len(list(ds.records)) == 2

    ds.delete()
    assert client.datasets(id=ds.id) is None
    assert client.api.datasets.exists(ds.id) is False
    assert ds.name not in [d.name for d in workspace.datasets]


def test_dataset_without_workspace_goes_to_default_workspace(client, unique_name):
    default = client.workspaces.list()[0]  # GET /me/workspaces, first = oldest
    assert client.workspaces.default.id == default.id
    name = unique_name("dflt")
    ds = rg.Dataset(
        name=name,
        settings=rg.Settings(fields=[rg.TextField(name="text")], questions=[rg.RatingQuestion(name="r", values=[1, 2])]),
        client=client,
    ).create()
    assert ds.workspace.id == default.id
    found = client.datasets(name)  # /me/workspaces -> /me/datasets -> match by name -> get()
    assert found is not None and found.id == ds.id
    assert found == client.datasets(name)  # whole-model equality after re-fetch (stable timestamps)
    ds.delete()


def test_changing_label_options_of_published_dataset_is_rejected(client, dataset):
    question = dataset.settings.questions["label"]
    question.labels = ["positive", "negative", "neutral", "mixed"]  # option count cannot change
    with pytest.raises(SettingsError):
        dataset.update()
    fresh = client.datasets(id=dataset.id).get()
    assert fresh.settings.questions["label"].labels == LABELS
