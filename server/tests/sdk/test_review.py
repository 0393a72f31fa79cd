"""Review (Scholia extension): validated records carry a `validation` object on owner/admin reads and
their `status` stays pending/completed, so the SDK reads, iterates, filters and exports them as before."""

import argilla as rg


def test_sdk_reads_validated_records_and_agreement_matches_logged_answers(client, workspace, owner, annotator, unique_name):
    settings = rg.Settings(
        fields=[rg.TextField(name="text")],
        questions=[rg.LabelQuestion(name="label", labels=["yes", "no"])],
        distribution=rg.TaskDistribution(min_submitted=2),
    )
    dataset = rg.Dataset(name=unique_name(), workspace=workspace, settings=settings, client=client).create()
    answers = [("yes", "yes"), ("yes", "no"), ("no", "no")]
    dataset.records.log(
        [
            rg.Record(
                fields={"text": f"record {i}"},
                responses=[
                    rg.Response("label", mine, user_id=owner.id, status="submitted"),
                    rg.Response("label", theirs, user_id=annotator.id, status="submitted"),
                ],
            )
            for i, (mine, theirs) in enumerate(answers)
        ]
    )
    http = client.http_client

    bulk = http.post(f"/api/v1/datasets/{dataset.id}/records/validation/bulk", json={})
    assert bulk.status_code == 200, bulk.text
    assert bulk.json() == {"validated": 2, "disagreeing": 1}

    records = list(dataset.records(with_responses=True))
    assert [r.status for r in records] == ["completed"] * 3
    assert len(records[0].responses["label"]) == 2
    raw = http.post(f"/api/v1/datasets/{dataset.id}/records/search", json={}).json()["items"]
    assert [item["record"].get("validation", {}).get("status") for item in raw] == ["validated", None, "validated"]
    assert len(dataset.records.to_list(flatten=True)) == 3

    agreement = http.get(f"/api/v1/datasets/{dataset.id}/agreement").json()
    label = agreement["questions"][0]
    assert label["records"] == 3
    assert abs(label["percent_agreement"] - 200 / 3) < 1e-9
    assert abs(label["alpha"] - 4 / 9) < 1e-9
