"""Webhooks through the SDK (contract §2.12; owner only)."""

import argilla as rg


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
