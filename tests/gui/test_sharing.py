"""The window shares on its own: what another computer's exchange puts in the folder
reaches the window at its next look, and the window's own edit goes out after it is
committed; the status bar says the library is shared. Looks are counted, not seconds."""

from __future__ import annotations

from paperdesk.core.library import Library
from tests.share.sharing import digest, library, uid_ids


def test_the_window_exchanges_after_its_writes_and_when_the_folder_changes(
        tmp_path, make_window, qtbot):
    folder = tmp_path / "Sync"
    folder.mkdir()
    lib = library(tmp_path / "here" / "lib.sqlite")
    lib.import_paths([digest(tmp_path / "d")])
    lib.share.start(folder)
    other = library(tmp_path / "there" / "lib.sqlite")
    other.share.start(folder)
    window = make_window(lib)
    share = window.context.features["share"]
    qtbot.waitUntil(lambda: not window.context.ops.busy)
    assert window.context.actions["share"].text() == "S&hare library…"
    assert share.label.text() == "Shared"
    uids = sorted(uid_ids(other))
    other.curation.add_tags([uid_ids(other)[uids[0]]], "from-there")
    other.share.now()
    looks: list[int] = []
    share.timer.timeout.connect(lambda: looks.append(1))
    qtbot.waitUntil(lambda: window.lib.paper(uid_ids(window.lib)[uids[0]])["tags"]
                    == ["from-there"])
    assert len(looks) <= 3  # the look after the file came, and the exchange it started
    done = share.exchanges
    window.lib.curation.set_rating([uid_ids(window.lib)[uids[1]]], 5)

    def arrived() -> bool:
        other.share.now()
        return other.paper(uid_ids(other)[uids[1]])["rating"] == 5

    qtbot.waitUntil(arrived)
    # counted when the exchange's job reports back, which can come after its files
    qtbot.waitUntil(lambda: share.exchanges > done)
    window.grab().save(str(tmp_path / "shared.png"))
    other.close()


def test_a_library_not_shared_shows_nothing_and_never_exchanges(seed_lib: Library,
                                                                make_window, qtbot):
    window = make_window(seed_lib)
    share = window.context.features["share"]
    seed_lib.curation.set_rating(seed_lib.search("").ids[:1], 3)
    qtbot.wait(2 * 300)
    assert share.label.text() == "" and share.exchanges == 0


def test_the_merge_history_takes_apart_a_merge_made_on_another_computer(
        tmp_path, make_window, qtbot):
    from paperdesk.gui.duplicates.merge_history import MergeHistory

    folder = tmp_path / "Sync"
    folder.mkdir()
    lib = library(tmp_path / "here" / "lib.sqlite")
    lib.import_paths([digest(tmp_path / "d")])
    lib.share.start(folder)
    other = library(tmp_path / "there" / "lib.sqlite")
    other.share.start(folder)
    keep, gone = sorted(uid_ids(other))[:2]
    gone_title = other.paper(uid_ids(other)[gone])["title"]
    other.duplicates.merge(uid_ids(other)[keep], [uid_ids(other)[gone]])
    other.share.now()
    lib.share.now()
    assert gone not in uid_ids(lib)
    window = make_window(lib)
    qtbot.waitUntil(lambda: not window.context.ops.busy)
    history = MergeHistory(window)
    qtbot.addWidget(history)
    [entry] = history.entries
    assert entry["kept_id"] == uid_ids(lib)[keep]
    assert history.table.item(0, 4).text() == "merged on another computer"
    assert history.table.item(0, 3).text() == gone_title
    history.table.selectRow(0)
    history.grab().save(str(tmp_path / "history-shared.png"))
    undoable = window.context.undo_stack.count()
    assert history.undo_button.isEnabled() and history.unmerge_selected()
    qtbot.waitUntil(lambda: gone in uid_ids(window.lib), timeout=20000)
    qtbot.waitUntil(lambda: not window.context.ops.busy)
    qtbot.waitUntil(lambda: history.entries == [], timeout=5000)
    history.grab().save(str(tmp_path / "history.png"))
    other.share.now()
    assert gone in uid_ids(other)
    # not undoable as an exchange (that would delete the paper on every computer)
    assert window.context.undo_stack.count() == undoable
    other.close()
