"""pytest plugin for running the A2A TCK against a gateway that requires a bearer token.

The TCK has no option for credentials, and clawgate answers 401 to every A2A call without one. Load this with
`-p tck_bearer_auth` (its directory on PYTHONPATH): every httpx client the TCK creates then sends
`Authorization: Bearer $TCK_BEARER_TOKEN` unless the request sets its own. No TCK test checks unauthenticated
behaviour, so no test changes meaning.

With TCK_WIRE_LOG=<file>, every request/response pair is appended to that file as one JSON line, tagged with the
test that made it and with the token masked, so a failure can be read on the wire.
"""
from __future__ import annotations

import json
import os

import httpx
import pytest

TOKEN = os.environ.get("TCK_BEARER_TOKEN", "")
WIRE_LOG = os.environ.get("TCK_WIRE_LOG", "")
KEPT_HEADERS = {"content-type", "a2a-version", "cache-control", "etag", "last-modified"}
running = {"test": None}
original_init = httpx.Client.__init__


def log_exchange(response: httpx.Response) -> None:
    request = response.request
    # An event stream is read by the test as it arrives; reading it here would wait for its end (and deadlock a
    # test that ends the stream only after this call returns).
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        body = "<stream>"
    else:
        try:
            response.read()
            body = response.text
        except Exception:  # a streamed body cannot be read here
            body = "<stream>"
    record = {
        "test": running["test"],
        "request": {
            "method": request.method,
            "url": str(request.url),
            "headers": {k: v for k, v in request.headers.items() if k.lower() in KEPT_HEADERS},
            "body": request.content.decode("utf-8", "replace"),
        },
        "response": {
            "status": response.status_code,
            "headers": {k: v for k, v in response.headers.items() if k.lower() in KEPT_HEADERS},
            "body": body,
        },
    }
    with open(WIRE_LOG, "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def init_with_token(self, *args, **kwargs):
    if WIRE_LOG:
        hooks = dict(kwargs.get("event_hooks") or {})
        hooks["response"] = [*hooks.get("response", []), log_exchange]
        kwargs["event_hooks"] = hooks
    original_init(self, *args, **kwargs)
    if TOKEN and "authorization" not in self.headers:
        self.headers["Authorization"] = f"Bearer {TOKEN}"


# httpx.post/httpx.get build a Client too, so patching its constructor covers every request the TCK makes.
httpx.Client.__init__ = init_with_token


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    running["test"] = item.nodeid
