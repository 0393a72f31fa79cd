"""The Python snippets the web app shows (home "Import from Python", dataset settings "See your
dataset") must run unchanged with the real SDK against this server: each is rendered by the same
TypeScript function the screen uses, then executed, and what it wrote is read back."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import argilla as rg

from conftest import _api_url, new_name

REPO_ROOT = Path(__file__).resolve().parents[3]
TSX = REPO_ROOT / "node_modules" / "tsx" / "dist" / "cli.mjs"


def render(module: str, function: str, *args) -> str:
    """Calls `function(*args)` of a TypeScript module of the repo and returns the snippet it builds."""
    source = (REPO_ROOT / module).as_uri()
    call = f"import {{ {function} }} from {json.dumps(source)};\nprocess.stdout.write({function}(...{json.dumps(list(args))}));"
    done = subprocess.run(
        [shutil.which("node") or "node", str(TSX), "--eval", call],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=True,
    )
    return done.stdout


def run_snippet(code: str) -> None:
    exec(compile(code, "<snippet>", "exec"), {"__name__": "__snippet__"})


def test_home_snippet_creates_a_workspace_a_dataset_and_logs_records(client: rg.Argilla):
    name = new_name("home_snippet")
    code = render(
        "mfe-home/src/features/import-python/python-snippet.ts",
        "buildPythonSnippet",
        {"apiUrl": _api_url(), "apiKey": os.environ["ARGILLA_API_KEY"], "datasetName": name},
    )
    assert 'workspace.create()' in code  # no workspace given: the snippet makes its own
    existing = client.workspaces("my_workspace")
    if existing is not None:  # a rerun on the same server: the snippet must still work
        for dataset in existing.datasets:
            dataset.delete()
        existing.delete()
    run_snippet(code)
    dataset = client.datasets(name=name, workspace="my_workspace")
    assert dataset is not None
    assert [q.name for q in dataset.settings.questions] == ["sentiment"]
    texts = sorted(record.fields["text"] for record in dataset.records)
    assert texts == ["I loved this movie, the cast was brilliant.", "The plot made no sense and the ending dragged."]


def test_home_snippet_with_a_workspace_uses_it(client: rg.Argilla, workspace: rg.Workspace):
    name = new_name("home_snippet_ws")
    code = render(
        "mfe-home/src/features/import-python/python-snippet.ts",
        "buildPythonSnippet",
        {"apiUrl": _api_url(), "apiKey": os.environ["ARGILLA_API_KEY"], "workspace": workspace.name, "datasetName": name},
    )
    assert 'workspace.create()' not in code
    run_snippet(code)
    dataset = client.datasets(name=name, workspace=workspace.name)
    assert len(list(dataset.records)) == 2


def test_settings_snippet_logs_more_records_into_the_dataset(client: rg.Argilla, workspace: rg.Workspace):
    name = new_name("settings_snippet")
    settings = rg.Settings(
        fields=[rg.TextField(name="prompt"), rg.TextField(name="answer")],
        questions=[rg.RatingQuestion(name="quality", values=[1, 2, 3])],
    )
    rg.Dataset(name=name, workspace=workspace.name, settings=settings, client=client).create()
    code = render(
        "mfe-settings/src/features/see-dataset/python-snippet.ts",
        "buildLogRecordsSnippet",
        {"apiUrl": _api_url(), "apiKey": os.environ["ARGILLA_API_KEY"], "datasetName": name,
         "workspaceName": workspace.name, "fieldNames": ["prompt", "answer"]},
    )
    run_snippet(code)
    records = list(client.datasets(name=name, workspace=workspace.name).records)
    assert [(r.fields["prompt"], r.fields["answer"]) for r in records] == [("...", "...")]
