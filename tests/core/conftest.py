"""Shared by the core tests of the Hub: a stand-in Hub on this machine, online."""

from __future__ import annotations

import pytest

from tests.fake_hub import FakeHub


@pytest.fixture
def hub(monkeypatch):
    with FakeHub() as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        yield server
