"""pytest plugin (`-p hub_stand_in`) for the argilla SDK's own Hub tests run against the fake hub.

huggingface_hub and `datasets` follow HF_ENDPOINT, but the SDK's `Settings.from_hub` (what `from_hub(settings="auto")`
uses for a repo without an `.argilla/` folder) asks the dataset viewer at a fixed https://datasets-server.huggingface.co;
point it at the stand-in's viewer (SCHOLIA_DATASETS_SERVER_URL) instead.
"""

import os

import argilla.settings._io._hub as settings_from_hub


def pytest_configure(config):
    settings_from_hub.DATASETS_SERVER_BASE_URL = os.environ["SCHOLIA_DATASETS_SERVER_URL"]
    # The SDK's tests mark Hub tests `flaky(retries=..., only_on=...)` for pytest-retry, which is left out on
    # purpose: here a failure is a failure. Declared so the unknown mark does not warn.
    config.addinivalue_line("markers", "flaky(retries, only_on): retried by pytest-retry, which this run does not install")
