"""The window's kept-in-sync files, told as they are: a person's edit that landed while
the window wrote a file is named (the conflict file it went to) in the status bar and
the Synced files menu; and a change another program committed and never wrote (killed
after its commit) is written by the window, shown pending until then."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from paperdesk.core.db import files
from paperdesk.core.library import Library

from .screenshots import save_screenshot
from .test_sync import WAIT_MS, _menu_texts, _written, panel, writer


def test_an_edit_saved_while_the_window_writes_is_named_where_it_went(
        window, seed_lib, qtbot, tmp_path, monkeypatch):
    out = tmp_path / "refs.bib"
    seed_lib.syncs.add(out)
    writer(window).write_all()
    _written(window, qtbot)
    theirs = b"% saved while the window wrote it\n"
    real_fsync = files.fsync_path

    def save_then_fsync(where):  # after the window's check, before its rename: once
        person = tmp_path / "person.tmp"
        if not person.exists() and where != tmp_path:
            person.write_bytes(theirs)
            person.replace(out)
            person.write_bytes(b"")
        real_fsync(where)

    monkeypatch.setattr(files, "fsync_path", save_then_fsync)
    window.edit(seed_lib.curation.add_tags, [1], ["x"])
    _written(window, qtbot)
    monkeypatch.undo()
    [kept] = tmp_path.glob("refs.conflict-*.bib")
    assert kept.read_bytes() == theirs
    said = window.statusBar().currentMessage()
    assert said.startswith("⚠ Updated refs.bib") and str(kept) in said, said
    menu = _menu_texts(window)[0]
    assert menu.startswith("refs.bib — up to date; someone else's version") and str(kept) in menu
    status = panel(window).status
    assert status.isVisible() and f"kept beside it as {kept.name}" in status.text()
    save_screenshot(window, tmp_path, "sync-kept.png")
    kept.unlink()  # dealt with: no longer said
    panel(window).refresh()
    assert _menu_texts(window) == ["refs.bib — up to date"] and not status.isVisible()


def test_a_change_another_program_never_wrote_is_written_by_the_window(
        window, seed_lib, qtbot, tmp_path):
    out = tmp_path / "refs.bib"
    seed_lib.syncs.add(out)
    writer(window).write_all()
    _written(window, qtbot)
    with Library.open(seed_lib.path, create=False) as other:  # a command, killed after this
        other.curation.add_tags([1], ["committed-elsewhere"])
    assert _menu_texts(window)[0].startswith("refs.bib — pending: the library has changes")
    panel(window).look()  # as every few seconds
    qtbot.waitUntil(lambda: "committed-elsewhere" in out.read_text(encoding="utf-8"),
                    timeout=WAIT_MS)
    _written(window, qtbot)
    QApplication.sendPostedEvents()
    assert out.read_text(encoding="utf-8") == seed_lib.bibtex.export()
    assert _menu_texts(window) == ["refs.bib — up to date"]
