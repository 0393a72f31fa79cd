"""Starts the fake Hugging Face Hub of the server's tests (server/test/fake-hub/serve-fake-hub.ts) as a child process."""

import contextlib
import shutil
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
TSX = REPO_ROOT / "node_modules" / "tsx" / "dist" / "cli.mjs"
WRITE_TOKEN = "hf_write_alice"  # a write token of the fake hub (user alice)


@contextlib.contextmanager
def running_fake_hub():
    """Yields the fake hub's base URL (what HF_ENDPOINT points at); stops it afterwards."""
    hub = subprocess.Popen(
        [shutil.which("node") or "node", str(TSX), "server/test/fake-hub/serve-fake-hub.ts"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        line = hub.stdout.readline()
        assert line.startswith("FAKE_HUB_URL="), f"fake hub did not start: {line!r}"
        yield line.strip().split("=", 1)[1]
    finally:
        if hub.poll() is None:
            hub.terminate()
            hub.wait(timeout=20)
