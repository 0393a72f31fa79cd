"""5,000 records with suggestions, responses from two users, metadata and vectors, logged in SDK batches;
then re-log, list/iterate, text / filter / similarity search, progress, distribution change and delete
(contract §2.9, §3.6–§3.8, §4, §6.1, §6.7). The tests in this module share one dataset and run in file order."""

import time
from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

import argilla as rg

from sdk_helpers import (
    LABELS,
    TOPICS,
    VECTOR_NAME,
    annotator_status,
    fields_for,
    make_record,
    metadata_for,
    owner_status,
    text_for,
    vector_for,
)

N = 5_000
ALL = range(N)


def count(iterator) -> int:
    return sum(1 for _ in iterator)


def ids_of(iterator) -> list:
    return [r.id for r in iterator]


def expected_record_status(i: int, min_submitted: int = 1) -> str:
    submitted = (owner_status(i) == "submitted") + (annotator_status(i) == "submitted")
    return "completed" if submitted >= min_submitted else "pending"


@pytest.fixture(scope="module")
def bulk(client, workspace, owner, annotator, unique_name_module):
    from sdk_helpers import full_settings

    dataset = rg.Dataset(name=unique_name_module, workspace=workspace, settings=full_settings(), client=client).create()
    records = [make_record(i, owner.id, annotator.id) for i in ALL]
    started = time.monotonic()
    dataset.records.log(records)  # PUT /datasets/{id}/records/bulk in batches of 256
    elapsed = time.monotonic() - started
    print(f"\nlogged {N} records in {elapsed:.1f}s")
    yield SimpleNamespace(dataset=dataset, owner=owner, annotator=annotator)
    dataset.delete()


@pytest.fixture(scope="module")
def unique_name_module():
    from conftest import new_name

    return new_name("bulk")


def test_iterate_all_records_without_relationships(bulk):
    records = list(bulk.dataset.records(with_suggestions=False, with_responses=False))
    # GET /datasets/{id}/records is ordered by insertion: exactly the logged order, no duplicates
    assert [r.id for r in records] == [f"rec-{i}" for i in ALL]
    for r in records[:50] + records[-50:]:
        i = int(r.id.split("-")[1])
        assert r.fields.to_dict() == fields_for(i)
        assert dict(r.metadata) == metadata_for(i)
        assert len(r.suggestions) == 0
        assert len(r.responses) == 0
        assert dict(r.vectors) == {}
        assert r._server_id is not None
        assert r.status == expected_record_status(i)
    assert len({r._server_id for r in records}) == N


def test_iterate_with_suggestions_and_responses(bulk):
    owner_id, annotator_id = bulk.owner.id, bulk.annotator.id
    seen = 0
    for r in bulk.dataset.records(with_suggestions=True, with_responses=True, with_vectors=False):
        i = int(r.id.split("-")[1])
        seen += 1
        # suggestions: one per question, mapped back to question names via question_id
        assert {s.question_name for s in r.suggestions} == {"label", "topics", "ranking", "rating", "comment", "entities"}
        assert r.suggestions["label"].value == LABELS[i % 3]
        assert r.suggestions["label"].score == pytest.approx(round((i % 10) / 10, 1))
        assert r.suggestions["label"].agent == "model-a"
        assert r.suggestions["label"].type == "model"
        assert r.suggestions["topics"].value == [TOPICS[i % 4], TOPICS[(i + 1) % 4]]
        assert r.suggestions["topics"].score == pytest.approx([0.9, 0.4])
        assert r.suggestions["ranking"].value == ["r2", "r1", "r3"]
        assert r.suggestions["rating"].value == (i % 5) + 1
        assert r.suggestions["entities"].value == [
            {"label": "PER", "start": 0, "end": 5},
            {"label": "PER", "start": 10, "end": 13},
        ]
        assert dict(r.vectors) == {}

        by_user = {}
        for response in r.responses:
            by_user.setdefault(response.user_id, {})[response.question_name] = (response.value, response.status)
        expected_users = set()
        if owner_status(i):
            expected_users.add(owner_id)
            status = owner_status(i)
            assert by_user[owner_id]["label"] == (LABELS[(i + 1) % 3], status)
            assert by_user[owner_id]["rating"] == ((i % 5) + 1, status)
            assert by_user[owner_id]["topics"] == ([TOPICS[i % 4]], status)
            assert by_user[owner_id]["ranking"] == (["r1", "r2", "r3"], status)
            assert by_user[owner_id]["entities"] == ([{"label": "ORG", "start": 6, "end": 9}], status)
        if annotator_status(i) == "submitted":
            expected_users.add(annotator_id)
            assert by_user[annotator_id] == {"label": (LABELS[i % 3], "submitted"), "rating": (3, "submitted")}
        elif annotator_status(i) == "discarded":
            expected_users.add(annotator_id)
            assert by_user[annotator_id] == {"comment": ("skip", "discarded")}
        assert set(by_user) == expected_users, f"record {r.id}"
        assert r.status == expected_record_status(i), f"record {r.id}"
    assert seen == N


@pytest.mark.parametrize("with_vectors", [True, [VECTOR_NAME], VECTOR_NAME])
def test_iterate_with_vectors(bulk, with_vectors):
    records = list(
        bulk.dataset.records(with_vectors=with_vectors, with_suggestions=False, with_responses=False, limit=600)
    )
    assert [r.id for r in records] == [f"rec-{i}" for i in range(600)]  # limit honoured over 3 batches
    for r in records:
        i = int(r.id.split("-")[1])
        assert list(r.vectors) == [VECTOR_NAME]
        assert r.vectors[VECTOR_NAME] == pytest.approx(vector_for(i), rel=1e-6, abs=1e-7)


def test_iterate_with_offset_and_batch_size(bulk):
    records = list(bulk.dataset.records(start_offset=4_990, batch_size=3, with_suggestions=False, with_responses=False))
    assert [r.id for r in records] == [f"rec-{i}" for i in range(4_990, N)]


def test_get_single_record(bulk):
    first = next(iter(bulk.dataset.records(limit=1, with_suggestions=False, with_responses=False)))
    fetched = first.get()  # GET /records/{id}: responses, suggestions and vectors always present
    assert fetched.id == "rec-0"
    assert fetched.fields.to_dict() == fields_for(0)
    assert len(fetched.suggestions) == 6
    assert fetched.vectors[VECTOR_NAME] == pytest.approx(vector_for(0), rel=1e-6, abs=1e-7)
    assert {resp.user_id for resp in fetched.responses} == {bulk.annotator.id}  # i=0: owner none, annotator submitted
    by_server_id = list(bulk.dataset.records(query=rg.Query(filter=rg.Filter(("_server_id", "==", first._server_id)))))
    assert [r.id for r in by_server_id] == ["rec-0"]


def test_relog_updates_instead_of_duplicating(client, bulk):
    owner_id, annotator_id = bulk.owner.id, bulk.annotator.id
    updated = []
    for i in range(300):
        record = make_record(i, owner_id, annotator_id)
        record.fields["text"] = text_for(i) + " refreshed"
        record.metadata["group"] = "d"
        updated.append(record)
    before_relog = datetime.now(timezone.utc).replace(tzinfo=None)  # the SDK sends naive ISO strings (UTC)
    time.sleep(0.05)
    bulk.dataset.records.log(updated, batch_size=100)

    assert bulk.dataset.progress()["total"] == N
    updated_since = rg.Query(filter=rg.Filter(("updated_at", ">=", before_relog)))
    assert sorted(ids_of(bulk.dataset.records(query=updated_since))) == sorted(f"rec-{i}" for i in range(300))
    inserted_since = rg.Query(filter=rg.Filter(("inserted_at", ">=", before_relog)))
    assert count(bulk.dataset.records(query=inserted_since)) == 0  # updated in place, not re-inserted
    ids = ids_of(bulk.dataset.records(with_suggestions=False, with_responses=False))
    assert len(ids) == N and len(set(ids)) == N

    refreshed = list(bulk.dataset.records(query=rg.Query(filter=rg.Filter(("metadata.position", "<=", 299)))))
    assert [r.id for r in refreshed] == [f"rec-{i}" for i in range(300)]
    for r in refreshed:
        assert r.fields["text"].endswith(" refreshed")
        assert r.metadata["group"] == "d"
        assert len(r.suggestions) == 6  # re-sent suggestions are upserted, not duplicated
        assert r.status == expected_record_status(int(r.id.split("-")[1]))

    # filter on the SDK record id (server external_id)
    by_id = bulk.dataset.records(query=rg.Query(filter=rg.Filter(("id", "in", ["rec-7", "rec-3", "rec-4000"]))))
    assert sorted(ids_of(by_id)) == ["rec-3", "rec-4000", "rec-7"]

    # The SDK's API layer reports how many items of a batch were updates (updated_item_ids).
    dataset = bulk.dataset
    sdk_records = [make_record(i, owner_id, annotator_id) for i in range(3)]
    for record in sdk_records:
        record.dataset = dataset
        record.fields["text"] = text_for(int(record.id.split("-")[1])) + " refreshed"
        record.metadata["group"] = "d"
    returned, updated_count = client.api.records.bulk_upsert(dataset.id, [r.api_model() for r in sdk_records])
    assert updated_count == 3
    assert [m.external_id for m in returned] == ["rec-0", "rec-1", "rec-2"]
    assert all(m.id is not None for m in returned)


def test_query_text(bulk):
    ds = bulk.dataset
    hits = list(ds.records(query="tok1234x"))
    assert [r.id for r in hits] == ["rec-1234"]
    assert count(ds.records(query=rg.Query(query="zebra"))) == N // 10
    assert count(ds.records(query=rg.Query(query="ZEBRA"))) == N // 10  # case-insensitive
    assert ids_of(ds.records(query=rg.Query(query="zebra tok10x"))) == ["rec-10"]  # all terms must match
    assert count(ds.records(query=rg.Query(query="refreshed"))) == 300
    assert count(ds.records(query=rg.Query(query="nosuchwordanywhere"))) == 0


def test_query_text_with_filter(bulk):
    query = rg.Query(query="zebra", filter=rg.Filter([("metadata.position", ">=", 4_000)]))
    ids = ids_of(bulk.dataset.records(query=query))
    assert sorted(ids) == sorted(f"rec-{i}" for i in range(4_000, N, 10))


def test_filter_by_metadata(bulk):
    ds = bulk.dataset
    group = lambda i: "d" if i < 300 else ["a", "b", "c", "d"][i % 4]  # noqa: E731 (first 300 re-logged as "d")
    assert count(ds.records(query=rg.Query(filter=rg.Filter([("metadata.group", "==", "a")])))) == sum(
        group(i) == "a" for i in ALL
    )
    assert count(ds.records(query=rg.Query(filter=rg.Filter([("metadata.group", "in", ["b", "c"])])))) == sum(
        group(i) in ("b", "c") for i in ALL
    )
    ids = ids_of(ds.records(query=rg.Query(filter=rg.Filter([("metadata.position", ">=", 4_990)]))))
    assert ids == [f"rec-{i}" for i in range(4_990, N)]  # plain filter search keeps insertion order
    between = rg.Filter([("metadata.position", ">=", 1_000), ("metadata.position", "<=", 1_099), ("metadata.group", "==", "a")])
    assert ids_of(ds.records(query=rg.Query(filter=between))) == [f"rec-{i}" for i in range(1_000, 1_100) if i % 4 == 0]
    high_score = rg.Filter([("metadata.score", ">=", 0.95)])
    assert count(ds.records(query=rg.Query(filter=high_score))) == sum((i % 100) >= 95 for i in ALL)


def test_filter_by_response_status(bulk):
    ds = bulk.dataset

    def statuses(i):
        return {s for s in (owner_status(i), annotator_status(i)) if s}

    def n(conditions):
        return count(ds.records(query=rg.Query(filter=rg.Filter(conditions)), with_responses=False, with_suggestions=False))

    assert n([("response.status", "==", "submitted")]) == sum("submitted" in statuses(i) for i in ALL)
    assert n([("response.status", "==", "discarded")]) == sum("discarded" in statuses(i) for i in ALL)
    assert n([("response.status", "in", ["draft", "discarded"])]) == sum(
        bool(statuses(i) & {"draft", "discarded"}) for i in ALL
    )
    assert n([("response.status", "==", "pending")]) == sum(not statuses(i) for i in ALL)
    assert n([("response.status", "==", "submitted"), ("metadata.position", "<=", 99)]) == sum(
        "submitted" in statuses(i) for i in range(100)
    )
    # record status (completed = at least min_submitted=1 submitted responses)
    assert n([("status", "==", "completed")]) == sum(expected_record_status(i) == "completed" for i in ALL)
    assert n([("status", "==", "pending")]) == sum(expected_record_status(i) == "pending" for i in ALL)


def test_filter_by_suggestions_and_response_values(bulk):
    ds = bulk.dataset

    def n(conditions):
        return count(ds.records(query=rg.Query(filter=rg.Filter(conditions)), with_responses=False, with_suggestions=False))

    assert n([("label.suggestion", "==", "positive")]) == sum(i % 3 == 0 for i in ALL)
    assert n([("label.score", ">=", 0.85)]) == sum(i % 10 == 9 for i in ALL)
    assert n([("label.agent", "==", "model-a")]) == N
    assert n([("rating.suggestion", ">=", 5)]) == sum(i % 5 == 4 for i in ALL)
    # response values, any user (owner answers LABELS[(i+1)%3] on i%5!=0, annotator LABELS[i%3] on i%3==0)
    expected = sum(
        (owner_status(i) is not None and LABELS[(i + 1) % 3] == "positive")
        or (annotator_status(i) == "submitted" and LABELS[i % 3] == "positive")
        for i in ALL
    )
    assert n([("label.response", "==", "positive")]) == expected


def test_search_results_include_relationships(bulk):
    ds = bulk.dataset
    query = rg.Query(filter=rg.Filter([("metadata.position", "<=", 9)]))
    plain = list(ds.records(query=query, with_suggestions=False, with_responses=False))
    assert [r.id for r in plain] == [f"rec-{i}" for i in range(10)]
    assert all(len(r.suggestions) == 0 and len(r.responses) == 0 and dict(r.vectors) == {} for r in plain)
    full = list(ds.records(query=query, with_suggestions=True, with_responses=True, with_vectors=True))
    assert [r.id for r in full] == [f"rec-{i}" for i in range(10)]
    for r in full:
        i = int(r.id.split("-")[1])
        assert len(r.suggestions) == 6
        users = {resp.user_id for resp in r.responses}
        assert len(users) == (owner_status(i) is not None) + (annotator_status(i) is not None)
        assert r.vectors[VECTOR_NAME] == pytest.approx(vector_for(i), rel=1e-6, abs=1e-7)


def test_similarity_search(bulk):
    ds = bulk.dataset
    hits = list(ds.records(query=rg.Query(similar=rg.Similar(name=VECTOR_NAME, value=vector_for(42))), limit=5))
    assert len(hits) == 5
    records, scores = zip(*hits)  # similarity queries yield (record, score)
    assert records[0].id == "rec-42"
    assert scores[0] == pytest.approx(1.0, abs=1e-4)
    assert list(scores) == sorted(scores, reverse=True)

    # without a limit the SDK pages until an empty batch: the server caps similarity results at 1,000
    assert count(ds.records(query=rg.Query(similar=rg.Similar(name=VECTOR_NAME, value=vector_for(7))))) == 1_000

    # by record: the record itself is excluded
    anchor = records[0]
    by_record = list(ds.records(query=rg.Query(similar=rg.Similar(name=VECTOR_NAME, value=anchor)), limit=10))
    assert len(by_record) == 10
    assert "rec-42" not in [r.id for r, _ in by_record]
    assert [s for _, s in by_record] == sorted((s for _, s in by_record), reverse=True)

    # least similar: the opposite ordering
    least = list(
        ds.records(query=rg.Query(similar=rg.Similar(name=VECTOR_NAME, value=vector_for(42), most_similar=False)), limit=5)
    )
    assert len(least) == 5
    assert "rec-42" not in [r.id for r, _ in least]

    # similarity restricted by a filter
    filtered = list(
        ds.records(
            query=rg.Query(
                similar=rg.Similar(name=VECTOR_NAME, value=vector_for(42)),
                filter=rg.Filter([("metadata.group", "==", "c")]),
            ),
            limit=20,
        )
    )
    assert len(filtered) == 20
    assert all(r.metadata["group"] == "c" for r, _ in filtered)


def _expected_users_progress(min_submitted: int = 1):
    owner = {"completed": {"submitted": 0, "draft": 0, "discarded": 0}, "pending": {"submitted": 0, "draft": 0, "discarded": 0}}
    annotator = {"completed": {"submitted": 0, "draft": 0, "discarded": 0}, "pending": {"submitted": 0, "draft": 0, "discarded": 0}}
    for i in ALL:
        record_status = expected_record_status(i, min_submitted)
        if owner_status(i):
            owner[record_status][owner_status(i)] += 1
        if annotator_status(i):
            annotator[record_status][annotator_status(i)] += 1
    return owner, annotator


def test_progress_with_users_distribution(bulk):
    progress = bulk.dataset.progress(with_users_distribution=True)
    completed = sum(expected_record_status(i) == "completed" for i in ALL)
    assert progress["total"] == N
    assert progress["completed"] == completed
    assert progress["pending"] == N - completed
    owner, annotator = _expected_users_progress()
    assert progress["users"] == {bulk.owner.username: owner, bulk.annotator.username: annotator}

    assert bulk.dataset.progress() == {"total": N, "completed": completed, "pending": N - completed}


def test_distribution_change_recomputes_record_status(client, bulk):
    ds = bulk.dataset
    ds.settings.distribution = rg.TaskDistribution(min_submitted=2)
    ds.update()
    assert client.datasets(id=ds.id).get().settings.distribution.min_submitted == 2

    completed = sum(expected_record_status(i, 2) == "completed" for i in ALL)
    deadline = time.monotonic() + 20  # the reference recomputes asynchronously
    while ds.progress()["completed"] != completed and time.monotonic() < deadline:
        time.sleep(0.5)
    assert ds.progress() == {"total": N, "completed": completed, "pending": N - completed}
    owner, annotator = _expected_users_progress(min_submitted=2)
    assert ds.progress(with_users_distribution=True)["users"] == {
        bulk.owner.username: owner,
        bulk.annotator.username: annotator,
    }
    sample = {r.id: r.status for r in ds.records(query=rg.Query(filter=rg.Filter([("metadata.position", "<=", 29)])))}
    assert sample == {f"rec-{i}": expected_record_status(i, 2) for i in range(30)}

    ds.settings.distribution = rg.TaskDistribution(min_submitted=1)
    ds.update()
    completed = sum(expected_record_status(i) == "completed" for i in ALL)
    deadline = time.monotonic() + 20
    while ds.progress()["completed"] != completed and time.monotonic() < deadline:
        time.sleep(0.5)
    assert ds.progress()["completed"] == completed


def test_delete_records(bulk):
    ds = bulk.dataset
    doomed = list(ds.records(query=rg.Query(filter=rg.Filter([("metadata.position", ">=", 4_900)]))))
    assert len(doomed) == 100
    ds.records.delete(doomed)  # DELETE /datasets/{id}/records?ids=... in batches of 64

    assert ds.progress()["total"] == N - 100
    remaining = ids_of(ds.records(with_suggestions=False, with_responses=False))
    assert remaining == [f"rec-{i}" for i in range(4_900)]
    assert count(ds.records(query=rg.Query(filter=rg.Filter([("metadata.position", ">=", 4_900)])))) == 0
    # deleted records no longer match text search either
    assert count(ds.records(query="tok4950x")) == 0
