"""Record upsert semantics on a small dataset (contract §2.9 PUT bulk, §3.6 RecordUpsert, §6.3): partial
re-logs keep other relationships, responses upsert per user, invalid batches are rejected as a whole."""

import uuid

import pytest

import argilla as rg
from argilla._exceptions import UnprocessableEntityError

from sdk_helpers import VECTOR_NAME, fields_for, full_settings, make_record, metadata_for, vector_for


@pytest.fixture
def dataset(client, workspace, unique_name):
    ds = rg.Dataset(name=unique_name("ups"), workspace=workspace, settings=full_settings(), client=client).create()
    yield ds
    ds.delete()


def only(ds, record_id):
    matches = list(ds.records(query=rg.Query(filter=rg.Filter(("id", "==", record_id))), with_vectors=True))
    assert len(matches) == 1, f"{record_id}: {len(matches)} matches"
    return matches[0]


def test_partial_relog_keeps_suggestions_responses_and_vectors(dataset, owner, annotator):
    dataset.records.log([make_record(i, owner.id, annotator.id) for i in range(6)])
    before = only(dataset, "rec-4")  # owner submitted (i even, i % 5 != 0), annotator discarded
    assert len(before.suggestions) == 6 and len(before.responses) > 0

    # Same id, only new field values: the SDK sends empty suggestions/responses/vectors lists/dicts.
    dataset.records.log([rg.Record(id="rec-4", fields={**fields_for(4), "text": "Alice met Bob. rewritten"})])
    after = only(dataset, "rec-4")
    assert after._server_id == before._server_id
    assert after.fields["text"] == "Alice met Bob. rewritten"
    assert {s.question_name: s.value for s in after.suggestions} == {s.question_name: s.value for s in before.suggestions}
    assert sorted((r.user_id, r.question_name, str(r.status)) for r in after.responses) == sorted(
        (r.user_id, r.question_name, str(r.status)) for r in before.responses
    )
    assert after.vectors[VECTOR_NAME] == pytest.approx(vector_for(4), rel=1e-6, abs=1e-7)
    assert after.status == before.status == "completed"
    assert sum(1 for _ in dataset.records) == 6


def test_relog_adds_second_user_response_and_updates_status(dataset, owner, annotator):
    base = dict(fields=fields_for(1), metadata=metadata_for(1))
    dataset.records.log([rg.Record(id="r1", **base, responses=[rg.Response("label", "neutral", owner.id, "draft")])])
    assert only(dataset, "r1").status == "pending"

    dataset.records.log(
        [
            rg.Record(
                id="r1",
                **base,
                responses=[
                    rg.Response("label", "positive", annotator.id, "submitted"),
                    rg.Response("rating", 2, annotator.id, "submitted"),
                ],
            )
        ]
    )
    record = only(dataset, "r1")
    values = {(r.user_id, r.question_name): (r.value, str(r.status.value if hasattr(r.status, "value") else r.status)) for r in record.responses}
    assert values == {
        (owner.id, "label"): ("neutral", "draft"),  # kept: responses are upserted per user
        (annotator.id, "label"): ("positive", "submitted"),
        (annotator.id, "rating"): (2, "submitted"),
    }
    assert record.status == "completed"
    progress = dataset.progress(with_users_distribution=True)
    assert (progress["total"], progress["completed"], progress["pending"]) == (1, 1, 0)
    assert progress["users"][annotator.username]["completed"]["submitted"] == 1
    assert progress["users"][owner.username]["completed"]["draft"] == 1


def test_generated_and_uuid_ids(dataset):
    explicit = str(uuid.uuid4())
    dataset.records.log([rg.Record(fields={"text": "no id given"}), rg.Record(id=explicit, fields={"text": "uuid id"})])
    records = list(dataset.records)
    assert [r.fields["text"] for r in records] == ["no id given", "uuid id"]
    uuid.UUID(str(records[0].id))  # the SDK generated an id and the server stored it as external_id
    assert str(records[1].id) == explicit
    # logging the same two again updates them
    dataset.records.log([rg.Record(id=records[0].id, fields={"text": "changed"}), rg.Record(id=explicit, fields={"text": "uuid id 2"})])
    assert [r.fields["text"] for r in dataset.records] == ["changed", "uuid id 2"]


def test_log_dicts_with_mapping(dataset, owner):
    dataset.records.log(
        [{"content": "Alice met Bob. mapped", "grp": "b", "label": "negative", "pos": 7}],
        mapping={"content": "text", "grp": "group", "pos": "position"},
    )
    (record,) = list(dataset.records)
    assert record.fields["text"] == "Alice met Bob. mapped"
    assert dict(record.metadata) == {"group": "b", "position": 7}
    assert record.suggestions["label"].value == "negative"  # question columns become suggestions by default


@pytest.mark.parametrize(
    "bad_record",
    [
        pytest.param({"fields": {"text": "x"}, "suggestions": [rg.Suggestion("label", "not-an-option")]}, id="bad-label"),
        pytest.param({"fields": {"text": "x"}, "metadata": {"group": "zzz"}}, id="terms-not-allowed"),
        pytest.param({"fields": {"text": "x"}, "metadata": {"position": 10**9}}, id="integer-out-of-range"),
        pytest.param({"fields": {"text": "x"}, "metadata": {"undeclared": 1}}, id="extra-metadata"),
        pytest.param({"fields": {"text": "x"}, "vectors": {VECTOR_NAME: [0.1, 0.2]}}, id="vector-dimensions"),
        pytest.param({"fields": {"plain": "no required text field"}}, id="missing-required-field"),
        pytest.param({"fields": {"text": "x", "image": "httpx://example.com/a.png"}}, id="bad-image-scheme"),
        pytest.param({"fields": {"text": "x", "image": "data:text/plain;base64,aGVsbG8="}}, id="bad-image-mime"),
    ],
)
def test_invalid_record_rejects_whole_batch(dataset, bad_record):
    good = rg.Record(id="good", fields={"text": "fine"})
    with pytest.raises(UnprocessableEntityError):
        dataset.records.log([good, rg.Record(id="bad", **bad_record)])
    assert list(dataset.records) == []  # nothing written


def test_submitted_response_missing_required_question_is_rejected(dataset, owner):
    record = rg.Record(id="r", fields={"text": "x"}, responses=[rg.Response("label", "positive", owner.id, "submitted")])
    with pytest.raises(UnprocessableEntityError):  # "rating" is required too
        dataset.records.log([record])
    draft = rg.Record(id="r", fields={"text": "x"}, responses=[rg.Response("label", "positive", owner.id, "draft")])
    dataset.records.log([draft])
    (stored,) = list(dataset.records)
    assert [(r.question_name, r.value) for r in stored.responses] == [("label", "positive")]


def test_image_field_accepts_data_urls(dataset):
    from PIL import Image

    image = Image.new("RGB", (4, 4), color=(255, 0, 0))
    dataset.records.log([rg.Record(id="img", fields={"text": "with image", "image": image})])  # sent as data:image/png
    (record,) = list(dataset.records)
    stored = record.fields.to_dict()["image"]
    assert stored.startswith("data:image/png;base64,")
    assert record.fields["image"].size == (4, 4)  # the SDK decodes it back to a PIL image


def test_span_offsets_are_counted_in_code_points(dataset, owner):
    text = "\U0001F600\U0001F600 ab"  # 5 code points (7 UTF-16 units)
    ok = rg.Record(
        id="emoji",
        fields={"text": text},
        responses=[rg.Response("entities", [{"label": "PER", "start": 3, "end": 5}], owner.id, "draft")],
    )
    dataset.records.log([ok])
    (stored,) = list(dataset.records)
    assert [r.value for r in stored.responses] == [[{"label": "PER", "start": 3, "end": 5}]]

    beyond = rg.Record(
        id="emoji2",
        fields={"text": text},
        responses=[rg.Response("entities", [{"label": "PER", "start": 3, "end": 7}], owner.id, "draft")],
    )
    with pytest.raises(UnprocessableEntityError):  # end 7 > 5 code points
        dataset.records.log([beyond])
