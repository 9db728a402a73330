"""Shared by the command tests of the Hub: a stand-in Hub and a small library of two papers."""

from __future__ import annotations

import pytest

from tests.command_line import paperdesk
from tests.fake_hub import FakeHub

BIB = """@misc{one, title = {Scaling Laws for Neural Language Models},
  abstract = {We study empirical scaling laws for language model performance.}}
@misc{two, title = {A Paper Nobody Has},
  abstract = {Nothing about it is known anywhere at all.}}
"""


@pytest.fixture
def server(monkeypatch):
    """A stand-in Hub; commands run in this process ask it without the Hub's pace
    (1.6 requests a second), as the window tests do."""
    from paperdesk.core import api
    from paperdesk.core.hub.hub import Limits

    # Where the commands take it from (api keeps a name it has looked up: patched
    # there, it is put back after the test).
    monkeypatch.setattr(api, "DEFAULT_LIMITS", Limits(rate=500, workers=4), raising=False)
    with FakeHub() as hub:
        yield hub


@pytest.fixture
def small(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    path = tmp_path / "lib.sqlite"
    paperdesk("--library", path, "import", bib, check_rc=0)
    return path
