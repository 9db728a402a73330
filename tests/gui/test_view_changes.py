"""Views follow the one ``changed`` signal: each reads ``changes.views`` and skips the
changes it made itself (the duplicate review does not rescan after its own merge)."""

from __future__ import annotations

from paperdesk.core.db import changes as ch

from .test_duplicates_view import open_review, repeats, rescanned, scanned  # noqa: F401


def test_the_review_skips_its_own_change_and_rescans_for_others(repeats, lib,  # noqa: F811
                                                                 make_window, qtbot):
    window = make_window(lib)
    view = open_review(window, qtbot)
    heard: list[tuple[ch.Changes, object]] = []
    window.context.changed.connect(lambda changes, who: heard.append((changes, who)))
    before = len(view.groups)

    view.not_duplicates()  # its own edit: the groups are settled without a scan
    [(changes, who)] = heard
    assert who is view and ch.DUPLICATE_GROUPS in changes.views
    assert not view._timer.isActive() and not view.scanning
    assert len(view.groups) == before - 1

    heard.clear()
    window.rate_row(0, 4)  # not about the groups: no scan either
    [(changes, who)] = heard
    assert who is None and ch.DUPLICATE_GROUPS not in changes.views
    assert not view._timer.isActive() and not view.scanning

    heard.clear()
    window.undo_stack.undo()  # the rating
    window.undo_stack.undo()  # the "not duplicates": not the review's doing
    assert [(c.how, w) for c, w in heard] == [(ch.UNDONE, None), (ch.UNDONE, None)]
    assert ch.DUPLICATE_GROUPS in heard[1][0].views
    rescanned(window, qtbot)
    assert len(view.groups) == before


def test_a_tag_edit_reads_the_shown_paper_once_for_the_pane_and_the_table(window, seed_lib):
    """The edited paper's row and the detail pane showing it take one read of it."""
    from paperdesk.gui import paper_edits
    from paperdesk.gui.table.paper_model import TAGS
    from tests.work import statements

    pid = window.feed.model.paper_id(0)
    window.feed.select_ids([pid], pid)
    assert window.detail.ids == [pid]
    shown: list[list[dict]] = []
    real = window.detail.show_papers
    window.detail.show_papers = lambda papers, sightings=None: (
        shown.append(papers), real(papers, sightings))
    with statements(seed_lib.db.conn) as ran:
        paper_edits.add_tags(window.context, [pid], ["read-once"])
    reads = [s for s in ran if s.lstrip().upper().startswith("SELECT ID, TITLE")
             and f"IN ({pid})" in s]
    assert len(reads) == 1, reads
    assert window.feed.model.index(window.feed.model.row_of(pid), TAGS).data() == "read-once"
    assert [[p["tags"] for p in papers] for papers in shown] == [[["read-once"]]]
