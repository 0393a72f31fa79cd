"""`Dataset.to_hub` → `Dataset.from_hub` through the real client libraries (huggingface_hub, datasets) against the
fake hub (server/test/fake-hub): the push creates a private repo, uploads the parquet through Git LFS and commits
`.argilla/*` and the card; the pull downloads them back and logs the records into a new dataset. `datasets.load_dataset`
reads the same repo. The clients run in a child Python: huggingface_hub reads HF_ENDPOINT when it is imported.
"""

import base64
import io
import json
import os
import subprocess
import sys

import httpx
import pytest
from PIL import Image

import argilla as rg

from fake_hub import WRITE_TOKEN, running_fake_hub
from sdk_helpers import VECTOR_NAME, assert_full_settings, full_settings, make_record, vector_for

N = 12

PUSH_AND_PULL = """
import json, os, sys
import argilla as rg
from datasets import load_dataset
mode, source_name, repo, copy_name, workspace, token = sys.argv[1:7]
client = rg.Argilla(api_url=os.environ["ARGILLA_API_URL"], api_key=os.environ["ARGILLA_API_KEY"])
source = client.datasets(name=source_name, workspace=workspace)
source.to_hub(repo_id=repo, token=token, private=True)
if mode == "push":
    sys.exit(0)
copy = rg.Dataset.from_hub(repo_id=repo, name=copy_name, workspace=workspace, settings="auto", client=client, token=token)
rows = load_dataset(repo, split="train", token=token)
print("RESULT " + json.dumps({
    "copy_id": str(copy.id),
    "rows": rows.num_rows,
    "columns": rows.column_names,
    "features": {name: type(feature).__name__ for name, feature in rows.features.items()},
}))
"""


def _png(i: int) -> str:
    """A 2x1 PNG whose pixels depend on i, as a data URL."""
    buffer = io.BytesIO()
    Image.new("RGB", (2, 1), color=(i * 20 % 256, 100, 200)).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def _pixels(image):
    """Pixels of an image field as the SDK hands it back (a PIL image for data URLs)."""
    if isinstance(image, str):
        image = Image.open(io.BytesIO(base64.b64decode(image.split(",", 1)[1])))
    return list(image.convert("RGB").getdata())


def _answers(record) -> dict:
    answers = {}
    for response in record.responses:
        status = str(getattr(response.status, "value", response.status))
        answers[(str(response.user_id), response.question_name)] = (response.value, status)
    return answers


def test_to_hub_then_from_hub_keeps_records_responses_suggestions_vectors_and_images(
    client, workspace, owner, annotator, unique_name, tmp_path
):
    source = rg.Dataset(name=unique_name("tohub"), workspace=workspace, settings=full_settings(), client=client).create()
    records = []
    for i in range(N):
        # Ranking responses stay out: the HF conversion keeps the ranked values only, not the ranks (as in Argilla).
        record = make_record(i, owner.id, annotator.id, with_ranking_response=False)
        record.fields["image"] = _png(i)
        records.append(record)
    # The last record is logged after a first push: the second push updates the repo in place.
    source.records.log(records[:-1])

    repo = f"alice/{unique_name('roundtrip')}"
    copy_name = unique_name("fromhub")
    with running_fake_hub() as hub_url:
        env = {**os.environ, "HF_ENDPOINT": hub_url, "HF_HOME": str(tmp_path / "hf"), "HF_HUB_DISABLE_TELEMETRY": "1"}
        env.pop("HF_HUB_OFFLINE", None)
        env.pop("HF_DATASETS_OFFLINE", None)

        def push(mode: str) -> subprocess.CompletedProcess:
            run = subprocess.run(
                [sys.executable, "-c", PUSH_AND_PULL, mode, source.name, repo, copy_name, workspace.name, WRITE_TOKEN],
                env=env, capture_output=True, text=True, timeout=300,
            )
            assert run.returncode == 0, run.stderr[-6000:]
            return run

        push("push")
        source.records.log(records[-1:])
        run = push("push-and-pull")
        result = json.loads(next(line for line in run.stdout.splitlines() if line.startswith("RESULT "))[len("RESULT "):])

        # The repo as the Hub holds it: private, parquet in LFS, the SDK's configuration and card inline.
        auth = {"Authorization": f"Bearer {WRITE_TOKEN}"}
        assert httpx.get(f"{hub_url}/api/datasets/{repo}").status_code == 401
        tree = httpx.get(f"{hub_url}/api/datasets/{repo}/tree/main", params={"recursive": "true"}, headers=auth).json()
        files = {entry["path"]: entry for entry in tree if entry["type"] == "file"}
        parquet = [path for path in files if path.startswith("data/train-") and path.endswith(".parquet")]
        assert len(parquet) == 1 and "lfs" in files[parquet[0]]
        for path in (".argilla/dataset.json", ".argilla/settings.json", "README.md"):
            assert path in files and "lfs" not in files[path], path

    assert result["rows"] == N
    assert result["features"]["image"] == "Image"
    # The SDK's flat layout: fields, metadata and vectors by name, `<question>.responses[.users|.status]`, `<question>.suggestion*`.
    assert {"text", "image", "chat", "group", VECTOR_NAME, "label.responses", "label.responses.users", "label.suggestion"} <= set(
        result["columns"]
    )

    copy = client.datasets(name=copy_name, workspace=workspace)
    try:
        assert str(copy.id) == result["copy_id"]
        assert_full_settings(copy.settings)
        originals = {r.id: r for r in source.records(with_vectors=True, with_responses=True, with_suggestions=True)}
        copies = {r.id: r for r in copy.records(with_vectors=True, with_responses=True, with_suggestions=True)}
        assert sorted(copies) == sorted(originals) == sorted(f"rec-{i}" for i in range(N))
        for record_id, original in originals.items():
            pulled = copies[record_id]
            i = int(record_id.split("-")[1])
            for name in ("text", "plain", "chat", "custom"):
                assert pulled.fields[name] == original.fields[name], (record_id, name)
            assert _pixels(pulled.fields["image"]) == _pixels(original.fields["image"]) == [(i * 20 % 256, 100, 200)] * 2
            assert dict(pulled.metadata) == dict(original.metadata)
            assert pulled.vectors[VECTOR_NAME] == vector_for(i)
            for question in ("label", "topics", "ranking", "rating", "comment", "entities"):
                mine, theirs = original.suggestions[question], pulled.suggestions[question]
                assert (theirs.value, theirs.score, theirs.agent) == (mine.value, mine.score, mine.agent), (record_id, question)
            assert _answers(pulled) == _answers(original), record_id
            assert pulled.status == original.status
        assert copy.progress() == source.progress()
    finally:
        copy.delete()
        source.delete()
