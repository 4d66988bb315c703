"""schemathesis against the API's own OpenAPI document: every documented operation, with
generated bodies, answers with a status the document lists and never with a server error.

A fixed budget (examples per operation, short search limits) keeps it to seconds in CI; the
searches run in the app's worker processes as in production.
"""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis",
                                   reason="the fuzz tests need schemathesis (the test extra)")
pytest.importorskip("fastapi", reason="the web tests need the web extra")

from hypothesis import HealthCheck, settings  # noqa: E402

from yipan.web import create_app  # noqa: E402

APP = create_app(max_running=2, max_waiting=16)
SCHEMA = schemathesis.openapi.from_asgi("/api/openapi.json", APP)
DOCUMENTED = {200, 400, 404, 413, 422, 503}


@pytest.fixture(scope="module", autouse=True)
def _workers():
    """The app's search workers, warm for the module and stopped after it."""
    from starlette.testclient import TestClient

    with TestClient(APP):  # runs the lifespan: workers start, and stop at the end
        yield


@SCHEMA.parametrize()
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_a_documented_status(case) -> None:
    if isinstance(case.body, dict) and isinstance(case.body.get("limit"), dict):
        case.body["limit"]["time"] = 0.05  # a fixed, small budget per search
    response = case.call()
    if response.status_code == 405:  # schemathesis also tries methods the API does not have
        assert case.method.upper() != case.operation.method.upper()
        return
    assert response.status_code in DOCUMENTED, (response.status_code, response.text[:300])
    if response.status_code != 200:
        assert set(response.json()) == {"error"}
