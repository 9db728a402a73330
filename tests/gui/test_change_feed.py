"""One listener on the window's library hears every kind of write the window makes:
edits on the UI thread, jobs on the worker (their writes are announced on the UI
thread), undo and redo."""

from __future__ import annotations

from paperdesk.core.db import changes as ch
from paperdesk.gui.common import dialogs
from tests.core.test_duplicates import add_copy, by_title

from .test_duplicates_view import rescanned, scanned


def test_one_listener_hears_every_kind_of_gui_write(lib, seeds, make_window, qtbot,
                                                    monkeypatch):
    lib.import_paths(seeds[:4])
    original = by_title(lib, "Serverless Cold Starts")[0]
    copy = add_copy(lib, original)  # a certain repeat, for merge-all
    window = make_window(lib)
    heard: list[ch.Changes] = []
    lib.add_listener(heard.append)
    view = scanned(window, qtbot)

    heard.clear()
    window.rate_row(0, 3)  # an edit
    [edit] = heard
    assert edit.kinds == {ch.PAPERS} and edit.how == ch.DONE

    window.undo_stack.undo()
    window.undo_stack.redo()
    assert [c.how for c in heard[1:]] == [ch.UNDONE, ch.REDONE]
    assert all(c.paper_ids == edit.paper_ids for c in heard[1:])

    heard.clear()
    window.context.importer.start([seeds[4]])  # on the worker
    qtbot.waitUntil(lambda: window.context.importer.report is not None, timeout=20000)
    imports = [c for c in heard if ch.DIGESTS in c.kinds]
    assert len(imports) == 1 and imports[0].label == f"Import {seeds[4].name}"
    assert ch.TABLE_SET in imports[0].views
    assert window.feed.model.rowCount() == lib.stats()["papers"]  # the table followed

    heard.clear()
    view.scan()  # on the worker
    rescanned(window, qtbot)
    assert any(c.kinds == {ch.CANDIDATES} and {original, copy} <= c.paper_ids for c in heard)

    heard.clear()
    monkeypatch.setattr(dialogs, "confirm", lambda *a: True)
    view.merge_all.click()
    qtbot.waitUntil(lambda: any(ch.DUPLICATES in c.kinds for c in heard), timeout=20000)
    merge_all = next(c for c in heard if ch.DUPLICATES in c.kinds)
    assert merge_all.result.groups == 1 and {original, copy} <= merge_all.paper_ids
    assert len({original, copy} & set(lib.search("").ids)) == 1
    qtbot.waitUntil(lambda: len({original, copy} & set(window.feed.model.ids())) == 1)

    heard.clear()
    window.undo_stack.undo()  # the merge taken back through the undo stack
    assert heard and heard[0].how == ch.UNDONE and {original, copy} <= heard[0].paper_ids
    assert {original, copy} <= set(lib.search("").ids)
    qtbot.waitUntil(lambda: {original, copy} <= set(window.feed.model.ids()))
