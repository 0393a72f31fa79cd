"""`Dataset.from_hub` of the argilla SDK reads what our `POST /datasets/{id}/export` wrote.

A second Scholia server runs against the local fake hub (server/test/fake-hub, started with
serve-fake-hub.ts); the export job pushes parquet + `.argilla/*` + README to the fake, then the SDK's
from_hub (huggingface_hub's snapshot_download + `datasets.load_dataset`) pulls it back into a new dataset.
from_hub runs in a child Python: huggingface_hub reads HF_ENDPOINT when it is imported.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid

import httpx
import pytest

import argilla as rg

from fake_hub import REPO_ROOT, TSX, WRITE_TOKEN, running_fake_hub

API_KEY = "hub.owner.apikey"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def hub_server():
    """(api_url, hub_url) of a fresh server whose Hub and dataset viewer are the fake hub."""
    data_dir = tempfile.mkdtemp(prefix="scholia-sdk-hub-")
    server = None
    try:
        with running_fake_hub() as hub_url:
            port = _free_port()
            log = open(os.path.join(data_dir, "server.log"), "w")
            server = subprocess.Popen(
                [shutil.which("node") or "node", str(TSX), "server/src/server.ts"],
                cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT,
                env={
                    **os.environ,
                    "SCHOLIA_PORT": str(port), "SCHOLIA_HOST": "127.0.0.1", "SCHOLIA_DATA_DIR": data_dir,
                    "SCHOLIA_OWNER_USERNAME": "hubowner", "SCHOLIA_OWNER_PASSWORD": "hub-owner-password",
                    "SCHOLIA_OWNER_API_KEY": API_KEY, "SCHOLIA_LOG_LEVEL": "warn",
                    "SCHOLIA_HUB_URL": hub_url, "SCHOLIA_DATASETS_SERVER_URL": hub_url,
                },
            )
            api_url = f"http://127.0.0.1:{port}"
            deadline = time.time() + 90
            while True:
                assert server.poll() is None, f"server exited; log in {data_dir}"
                try:
                    httpx.get(f"{api_url}/api/_status", timeout=2)
                    break
                except httpx.HTTPError:
                    assert time.time() < deadline, "server did not start"
                    time.sleep(0.3)
            yield api_url, hub_url
    finally:
        if server and server.poll() is None:
            server.terminate()
            server.wait(timeout=20)
        shutil.rmtree(data_dir, ignore_errors=True)


FROM_HUB = """
import json, sys
import argilla as rg
client = rg.Argilla(api_url=sys.argv[1], api_key=sys.argv[2])
dataset = rg.Dataset.from_hub(repo_id=sys.argv[3], name=sys.argv[4], settings="auto", client=client)
records = []
for r in dataset.records(with_responses=True, with_suggestions=True):
    records.append({
        "id": r.id, "fields": r.fields.to_dict(), "metadata": dict(r.metadata),
        "suggestions": {s.question_name: s.value for s in r.suggestions},
        "responses": sorted([r2.question_name, r2.value, str(getattr(r2.status, "value", r2.status))] for r2 in r.responses),
    })
print("RESULT " + json.dumps({
    "id": str(dataset.id),
    "fields": [f.name for f in dataset.settings.fields],
    "questions": [q.name for q in dataset.settings.questions],
    "metadata": [m.name for m in dataset.settings.metadata],
    "records": records,
}))
"""


def test_from_hub_reads_our_export(hub_server, tmp_path):
    api_url, hub_url = hub_server
    client = rg.Argilla(api_url=api_url, api_key=API_KEY, timeout=120)
    workspace = rg.Workspace(name=f"hub_{uuid.uuid4().hex[:8]}", client=client).create()
    settings = rg.Settings(
        fields=[rg.TextField(name="text"), rg.ChatField(name="chat", required=False)],
        questions=[
            rg.LabelQuestion(name="label", labels=["neg", "pos"]),
            rg.MultiLabelQuestion(name="topics", labels=["a", "b", "c"], required=False),
        ],
        metadata=[rg.IntegerMetadataProperty(name="n"), rg.TermsMetadataProperty(name="lang")],
    )
    source = rg.Dataset(name=f"src_{uuid.uuid4().hex[:8]}", workspace=workspace, settings=settings, client=client).create()
    owner = client.me
    n = 12
    source.records.log([
        rg.Record(
            id=f"r{i}",
            fields={"text": f"hello {i}", "chat": [{"role": "user", "content": f"q{i}"}, {"role": "assistant", "content": f"a{i}"}]},
            metadata={"n": i, "lang": "en" if i % 2 else "de"},
            suggestions=[rg.Suggestion("label", "pos" if i % 2 else "neg", score=0.5), rg.Suggestion("topics", ["a", "c"])],
            responses=[rg.Response("label", "pos", user_id=owner.id, status="submitted")] if i < 4 else [],
        )
        for i in range(n)
    ])

    # Our export (the server's job) to the fake hub.
    repo = f"alice/exp-{uuid.uuid4().hex[:8]}"
    headers = {"X-Argilla-Api-Key": API_KEY}
    job = httpx.post(f"{api_url}/api/v1/datasets/{source.id}/export", headers=headers, json={"name": repo, "token": WRITE_TOKEN}).json()
    for _ in range(120):
        status = httpx.get(f"{api_url}/api/v1/jobs/{job['id']}", headers=headers).json()["status"]
        if status not in ("queued", "started", "deferred", "scheduled"):
            break
        time.sleep(0.5)
    assert status == "finished"
    # Stored as the Hub stores it: the parquet through Git LFS, the configuration files inline.
    tree = httpx.get(f"{hub_url}/api/datasets/{repo}/tree/main", params={"recursive": "true"}, headers={"Authorization": f"Bearer {WRITE_TOKEN}"}).json()
    files = {entry["path"]: entry for entry in tree if entry["type"] == "file"}
    assert "lfs" in files["data/train-00000-of-00001.parquet"]
    assert "lfs" not in files[".argilla/settings.json"]

    # The SDK pulls it back (snapshot_download of .argilla/*, then load_dataset of the parquet).
    name = f"copy_{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "HF_ENDPOINT": hub_url, "HF_HOME": str(tmp_path / "hf"), "HF_HUB_DISABLE_TELEMETRY": "1"}
    env.pop("HF_HUB_OFFLINE", None)
    env.pop("HF_DATASETS_OFFLINE", None)
    run = subprocess.run([sys.executable, "-c", FROM_HUB, api_url, API_KEY, repo, name], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    result = json.loads(next(line for line in run.stdout.splitlines() if line.startswith("RESULT "))[len("RESULT "):])

    assert result["fields"] == ["text", "chat"]
    assert result["questions"] == ["label", "topics"]
    assert result["metadata"] == ["n", "lang"]
    records = {r["id"]: r for r in result["records"]}
    assert sorted(records) == sorted(f"r{i}" for i in range(n))
    for i in range(n):
        record = records[f"r{i}"]
        assert record["fields"]["text"] == f"hello {i}"
        assert [(m["role"], m["content"]) for m in record["fields"]["chat"]] == [("user", f"q{i}"), ("assistant", f"a{i}")]
        # hub-contract §3: the export writes `terms` metadata as a list, so a scalar comes back wrapped.
        assert record["metadata"] == {"n": i, "lang": ["en" if i % 2 else "de"]}
        assert record["suggestions"] == {"label": "pos" if i % 2 else "neg", "topics": ["a", "c"]}
        assert record["responses"] == ([["label", "pos", "submitted"]] if i < 4 else [])
