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
