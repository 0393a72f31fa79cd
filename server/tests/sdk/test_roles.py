"""What admins and annotators can do through the SDK with their own api keys (contract §1.5)."""

import pytest

import argilla as rg
from argilla._exceptions import ForbiddenError

from conftest import api_key_of


@pytest.fixture
def as_user(client):
    """Build a client for another user; restore the owner client as the SDK default afterwards."""
    made = []

    def make(user: rg.User) -> rg.Argilla:
        other = rg.Argilla(api_url=client.api_url, api_key=api_key_of(client, user))
        made.append(other)
        return other

    yield make
    rg.Argilla._set_default(client)


def _settings(client):
    return rg.Settings(
        fields=[rg.TextField(name="text", client=client)],
        questions=[rg.LabelQuestion(name="label", labels=["yes", "no"], client=client)],
    )


def test_admin_creates_dataset_and_logs_records_in_its_workspace(client, workspace, admin, as_user, unique_name):
    admin_client = as_user(admin)
    assert admin_client.me.role == "admin"
    assert workspace.name in [w.name for w in admin_client.workspaces]

    ds = rg.Dataset(name=unique_name("adm"), workspace=workspace.name, settings=_settings(admin_client), client=admin_client)
    ds.create()
    ds.records.log([{"text": f"admin record {i}", "label": "yes"} for i in range(5)])
    records = list(ds.records)
    assert [r.fields["text"] for r in records] == [f"admin record {i}" for i in range(5)]
    assert all(r.suggestions["label"].value == "yes" for r in records)  # question columns map to suggestions

    # the owner sees the admin's dataset too
    assert client.datasets(name=ds.name, workspace=workspace) is not None
    ds.delete()


def test_annotator_cannot_create_datasets(client, workspace, annotator, as_user, unique_name):
    annotator_client = as_user(annotator)
    assert annotator_client.me.role == "annotator"
    ds = rg.Dataset(
        name=unique_name("ann"), workspace=workspace.name, settings=_settings(annotator_client), client=annotator_client
    )
    with pytest.raises(ForbiddenError):
        ds.create()
    assert client.datasets(name=ds.name, workspace=workspace) is None


def test_annotator_sees_only_member_workspaces_and_their_datasets(client, workspace, annotator, as_user, unique_name):
    other_ws = rg.Workspace(name=unique_name("private"), client=client).create()
    annotator_client = as_user(annotator)
    names = [w.name for w in annotator_client.workspaces]
    assert workspace.name in names and other_ws.name not in names
    rg.Argilla._set_default(client)
    other_ws.delete()
