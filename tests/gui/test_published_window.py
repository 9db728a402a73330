"""Paper > Find published version…: the look-up on the worker against stand-ins for DBLP
and Semantic Scholar, the dialog (a paper's only candidate ticked, two candidates asked
about), Accept as one undoable edit, and a screenshot of the dialog."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from paperdesk.core.hub import published
from tests.fake_scholarly import FakeScholarly, dblp_hit, s2_paper

from .conftest import select_rows


@pytest.fixture
def scholarly(window, monkeypatch, qtbot):
    lib = window.lib
    ids = [window.feed.model.paper_id(r) for r in range(3)]
    with lib.transaction():  # three preprints, as a completion from the Hub leaves them
        for n, pid in enumerate(ids):
            lib.db.execute("UPDATE papers SET arxiv_id = ? WHERE id = ?",
                           [f"2405.{n:05d}", pid])
    qtbot.wait(300)  # the table hears of the write and reloads
    rows = [r for r in range(window.feed.model.rowCount()) if window.feed.model.paper_id(r) in ids]
    assert sorted(select_rows(window, rows)) == sorted(ids)
    for service in (published.DBLP, published.S2):
        monkeypatch.setattr(service, "spacing", 0.0)
    with FakeScholarly() as fake:
        for name, value in fake.env.items():
            monkeypatch.setenv(name, value)
        one, two = (lib.paper(pid) for pid in ids[:2])
        fake.hits.append(dblp_hit(one["title"], "ICML", 2024, "Conference and Workshop Papers",
                                  "conf/icml/A24", pages="1-9"))
        fake.papers[two["arxiv_id"]] = s2_paper(two["arxiv_id"], two["title"], "ACL", 2024)
        fake.hits.append(dblp_hit(two["title"], "EMNLP", 2024,
                                  "Conference and Workshop Papers", "conf/emnlp/B24"))
        yield ids, fake


def test_find_published_version_asks_then_records_what_is_ticked(window, scholarly, qtbot,
                                                                 tmp_path):
    ids, _fake = scholarly
    lib = window.lib
    window.actions_by_name["find_published"].trigger()
    feature = window.context.features["published"]
    qtbot.waitUntil(lambda: feature.dialog is not None and feature.dialog.isVisible())
    dialog = feature.dialog
    assert lib.db.execute("SELECT count(*) FROM published_versions").fetchone()[0] == 0
    ticked = sorted((pid, item.checkState(0) == Qt.CheckState.Checked)
                    for item, pid, _v in dialog.items)
    assert ticked == sorted([(ids[0], True), (ids[1], False), (ids[1], False)])  # asked
    assert len([1 for _i, pid, _v in dialog.items if pid == ids[1]]) == 2
    dialog.grab().save(str(tmp_path / "find-published.png"))
    assert (tmp_path / "find-published.png").stat().st_size > 5000
    second = next(item for item, pid, v in dialog.items if pid == ids[1] and v.venue == "ACL")
    second.setCheckState(0, Qt.CheckState.Checked)
    dialog.accept()
    qtbot.waitUntil(lambda: lib.db.execute(
        "SELECT count(*) FROM published_versions").fetchone()[0] == 2)
    assert lib.published.of(ids[1])["venue"] == "ACL"
    assert "@inproceedings{" in lib.bibtex.export([ids[0]])
    window.undo_stack.undo()  # Edit > Undo takes both back
    assert lib.db.execute("SELECT count(*) FROM published_versions").fetchone()[0] == 0
