"""Webhooks through the SDK (contract §2.12; owner only), and deliveries checked by the SDK's handler."""

import asyncio
import json
import queue
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from standardwebhooks.webhooks import Webhook as StandardWebhook, WebhookVerificationError

import argilla as rg
from argilla._exceptions import UnprocessableEntityError
from argilla.webhooks._handler import WebhookHandler


def test_webhook_create_list_update_delete(client):
    webhook = rg.Webhook(url="https://example.com/hook", events=["record.created", "response.updated"], description="sdk test")
    created = client.webhooks.add(webhook)
    assert created.id is not None
    assert created.url == "https://example.com/hook"
    assert sorted(created.events) == ["record.created", "response.updated"]
    assert created.enabled is True
    assert created.description == "sdk test"
    assert created.secret

    assert created.id in [w.id for w in client.webhooks.list()]
    # (client.webhooks(id=...) is unusable in SDK 2.8.0: WebhooksAPI.get is not implemented; look up by listing)
    by_id = {w.id: w for w in client.webhooks.list()}
    assert by_id[created.id].url == "https://example.com/hook"

    created.enabled = False
    created.events = ["dataset.created"]
    created.update()
    fetched = {w.id: w for w in client.webhooks.list()}[created.id]
    assert fetched.enabled is False
    assert fetched.events == ["dataset.created"]

    created.delete()
    assert created.id not in [w.id for w in client.webhooks.list()]


@pytest.mark.parametrize("url", ["http://10.0.0.8:8000/hook", "http://[::ffff:192.168.1.1]/hook", "http://[64:ff9b::a00:1]/hook"])
def test_a_webhook_to_a_private_address_is_refused_with_the_setting_that_allows_it(client, url):
    with pytest.raises(UnprocessableEntityError) as refused:
        client.webhooks.add(rg.Webhook(url=url, events=["record.created"]))
    assert "SCHOLIA_WEBHOOKS_ALLOW_PRIVATE" in str(refused.value)
    assert url not in [w.url for w in client.webhooks.list()]


def test_a_server_on_loopback_takes_loopback_webhooks_as_the_sdk_listener_registers_them(client):
    # `webhook_listener` registers http://127.0.0.1:8000/<function name> by default.
    created = client.webhooks.add(rg.Webhook(url="http://127.0.0.1:8000/on_record_created", events=["record.created"]))
    try:
        assert created.id is not None
    finally:
        created.delete()


class _Receiver(BaseHTTPRequestHandler):
    """Collects webhook deliveries (raw body and headers) on a loopback port."""

    received: "queue.Queue[tuple[bytes, dict]]"

    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"]))
        self.received.put((body, dict(self.headers.items())))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    handler = type("Handler", (_Receiver,), {"received": queue.Queue()})
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/hook", handler.received
    server.shutdown()


class _Request:
    """What the SDK's webhook handler reads from a FastAPI request: the raw body and the headers."""

    def __init__(self, body: bytes, headers: dict):
        self._body = body
        self.headers = headers

    async def body(self) -> bytes:
        return self._body


def _next_event(received, event_type: str):
    while True:
        body, headers = received.get(timeout=15)
        if json.loads(body)["type"] == event_type:
            return body, headers


def test_webhook_handler_verifies_and_parses_delivered_events(client, workspace, unique_name, receiver):
    """The SDK's own webhook handler (what `webhook_listener` mounts) accepts deliveries and parses them."""
    url, received = receiver
    webhook = client.webhooks.add(rg.Webhook(url=url, events=["dataset.published", "record.created"]))
    handler = WebhookHandler(webhook)
    dataset = None
    try:
        settings = rg.Settings(fields=[rg.TextField(name="text")], questions=[rg.LabelQuestion(name="label", labels=["a", "b"])])
        dataset = rg.Dataset(name=unique_name("hooked"), workspace=workspace, settings=settings, client=client).create()
        event = asyncio.run(handler._verify_request(_Request(*_next_event(received, "dataset.published"))))
        parsed = event.parsed(client)
        assert parsed.type == "dataset.published"
        assert parsed.dataset.id == dataset.id and parsed.dataset.name == dataset.name

        dataset.records.log([rg.Record(id="r1", fields={"text": "hello"})])
        body, headers = _next_event(received, "record.created")
        record_event = asyncio.run(handler._verify_request(_Request(body, headers))).parsed(client)
        assert record_event.record.id == "r1"
        assert record_event.record.fields["text"] == "hello"

        # A body changed after signing is refused.
        with pytest.raises(WebhookVerificationError):
            asyncio.run(handler._verify_request(_Request(body.replace(b"hello", b"hellO"), headers)))

        # The ping is signed too.
        assert client.http_client.post(f"/api/v1/webhooks/{webhook.id}/ping").status_code == 204
        ping_body, ping_headers = _next_event(received, "ping")
        assert StandardWebhook(webhook.secret).verify(ping_body, ping_headers)["type"] == "ping"
    finally:
        if dataset is not None:
            dataset.delete()
        webhook.delete()


def test_a_distribution_change_sends_record_updated_and_record_completed(client, workspace, unique_name, receiver):
    """As Argilla's status recount after a distribution change: every record updated, each completed one completed."""
    url, received = receiver
    webhook = client.webhooks.add(rg.Webhook(url=url, events=["record.updated", "record.completed"]))
    handler = WebhookHandler(webhook)
    dataset = None
    try:
        settings = rg.Settings(
            fields=[rg.TextField(name="text")],
            questions=[rg.LabelQuestion(name="label", labels=["a", "b"])],
            distribution=rg.TaskDistribution(min_submitted=2),
        )
        dataset = rg.Dataset(name=unique_name("redistributed"), workspace=workspace, settings=settings, client=client).create()
        me = client.me
        dataset.records.log(
            [
                rg.Record(id="answered", fields={"text": "one"}, responses=[rg.Response("label", "a", user_id=me.id, status="submitted")]),
                rg.Record(id="open", fields={"text": "two"}),
            ]
        )

        dataset.settings.distribution = rg.TaskDistribution(min_submitted=1)
        dataset.update()

        events = {}
        while len(events) < 3:
            body, headers = received.get(timeout=15)
            parsed = asyncio.run(handler._verify_request(_Request(body, headers))).parsed(client)
            events[(parsed.type, parsed.record.id)] = parsed.record.status
        assert events == {
            ("record.updated", "answered"): "completed",
            ("record.updated", "open"): "pending",
            ("record.completed", "answered"): "completed",
        }
    finally:
        if dataset is not None:
            dataset.delete()
        webhook.delete()
