"""Shared fixtures for the Argilla SDK compatibility suite.

Run through run-sdk-tests.mjs, which starts a fresh server and sets ARGILLA_API_URL / ARGILLA_API_KEY.
Every test creates its own uniquely named resources, so tests never depend on each other's data
(except inside test_records_bulk.py, which shares one 5,000-record dataset on purpose).
"""

import collections
import os
import uuid
import warnings

import httpx

import pytest

pytest.register_assert_rewrite("sdk_helpers")

import argilla as rg  # noqa: E402

OWNER_USERNAME = "argilla"
PASSWORD = "12345678"


def _api_url() -> str:
    url = os.environ.get("ARGILLA_API_URL")
    if not url:
        raise RuntimeError("ARGILLA_API_URL is not set: run the suite through run-sdk-tests.mjs")
    return url


# ---------------------------------------------------------------------------------------------------------------
# Record every HTTP exchange the SDK makes during a test; a failing test's report shows the last ones, so the
# server owners see the exact request (method, path, body excerpt) and answer (status, body excerpt).

_EXCHANGES = collections.deque(maxlen=12)
_EXCERPT = 600
_original_send = httpx.Client.send


def _excerpt(data) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, (bytes, bytearray)) else str(data)
    return text if len(text) <= _EXCERPT else text[:_EXCERPT] + f"... ({len(text)} chars)"


def _recording_send(self, request, *args, **kwargs):
    response = _original_send(self, request, *args, **kwargs)
    try:
        body = response.read()
        _EXCHANGES.append(
            f"{request.method} {request.url.raw_path.decode()} body={_excerpt(request.content or b'')}\n"
            f"    -> {response.status_code} {_excerpt(body)}"
        )
    except Exception:  # never let the recorder break a test
        pass
    return response


httpx.Client.send = _recording_send


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and _EXCHANGES:
        report.sections.append(("last HTTP exchanges (oldest first)", "\n".join(_EXCHANGES)))


@pytest.fixture(autouse=True)
def _reset_exchanges():
    _EXCHANGES.clear()
    yield


@pytest.fixture(autouse=True)
def _quiet_sdk_warnings():
    # The SDK warns on every "workspace not provided" etc.; keep the report readable.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def new_name(prefix: str) -> str:
    """A unique, SDK-valid name (workspace names must match ^[a-zA-Z0-9_-]+$)."""
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


@pytest.fixture
def unique_name(request):
    """Callable returning a unique name per call, prefixed with the test name."""
    base = request.node.name.replace("[", "_").replace("]", "").replace("-", "_")[:40]

    def make(suffix: str = "") -> str:
        return new_name(f"{base}{'_' + suffix if suffix else ''}")

    return make


@pytest.fixture(scope="session")
def client() -> rg.Argilla:
    """Owner client (api key of the bootstrap owner). Constructing it calls GET /api/v1/me."""
    return rg.Argilla(api_url=_api_url(), api_key=os.environ["ARGILLA_API_KEY"], timeout=120)


@pytest.fixture(scope="session")
def owner(client: rg.Argilla) -> rg.User:
    return client.me


@pytest.fixture(scope="session")
def workspace(client: rg.Argilla) -> rg.Workspace:
    """A workspace shared by tests that only need *a* workspace to put datasets in."""
    ws = rg.Workspace(name=new_name("sdk_ws"), client=client).create()
    return ws


@pytest.fixture(scope="session")
def annotator(client: rg.Argilla, workspace: rg.Workspace) -> rg.User:
    user = rg.User(username=new_name("annotator"), password=PASSWORD, role="annotator", client=client).create()
    user.add_to_workspace(workspace)
    return user


@pytest.fixture(scope="session")
def admin(client: rg.Argilla, workspace: rg.Workspace) -> rg.User:
    user = rg.User(username=new_name("admin"), password=PASSWORD, role="admin", client=client).create()
    user.add_to_workspace(workspace)
    return user


def api_key_of(client: rg.Argilla, user: rg.User, password: str = PASSWORD) -> str:
    """A user's API key, read the way that user would: sign in (POST /api/v1/token), then GET /api/v1/me.

    No other route shows a user's key (not even to an owner), and the SDK's UserModel drops `api_key` anyway.
    """
    token = client.http_client.post("/api/v1/token", data={"username": user.username, "password": password})
    token.raise_for_status()
    me = client.http_client.get("/api/v1/me", headers={"Authorization": f"Bearer {token.json()['access_token']}", "X-Argilla-Api-Key": ""})
    me.raise_for_status()
    return me.json()["api_key"]
