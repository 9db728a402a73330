"""File > Export BibTeX writes a file bibtexparser reads back, one entry per paper."""

from __future__ import annotations

import bibtexparser
import pytest

from paperdesk.gui import operations
from paperdesk.gui.bibtex.export_dialog import ALL, SELECTED, SHOWN, ExportDialog, shown_ids
from tests.conftest import SEED_PAPERS
from tests.reliability.helpers import file_digest


def _parse(path):
    library = bibtexparser.parse_string(path.read_text(encoding="utf-8"))
    assert not library.failed_blocks
    return library.entries


def _dialog(window, qtbot) -> ExportDialog:
    window.actions_by_name["export_bibtex"].trigger()
    dialog = window.context.features["export"].dialog
    qtbot.addWidget(dialog)
    return dialog


def test_exporting_all_papers_writes_one_entry_per_paper(window, seed_lib, tmp_path, qtbot):
    dialog = _dialog(window, qtbot)
    assert dialog.scope() == ALL
    out = tmp_path / "all.bib"
    dialog.set_options(path=out)
    dialog.accept()
    assert dialog.written == SEED_PAPERS
    entries = _parse(out)
    assert len(entries) == SEED_PAPERS
    keys = {p["citekey"] for p in seed_lib.papers(seed_lib.search().ids)}
    assert {e.key for e in entries} == keys
    titles = {e.key: e["title"] for e in entries}
    paper = seed_lib.paper(window.feed.model.paper_id(0))
    assert paper["title"].split()[-1].strip("{}") in titles[paper["citekey"]]


def test_the_current_search_and_the_selection(window, seed_lib, tmp_path, qtbot):
    window.feed.set_query("scaling")
    shown = window.feed.model.ids()
    assert 0 < len(shown) < SEED_PAPERS
    dialog = _dialog(window, qtbot)
    dialog.set_options(scope=SHOWN, path=tmp_path / "shown.bib")
    dialog.accept()
    keys = [p["citekey"] for p in seed_lib.papers(shown)]
    assert [e.key for e in _parse(tmp_path / "shown.bib")] == keys

    window.feed.view.selectRow(0)
    model = window.feed.view.selectionModel()
    model.select(window.feed.model.index(2, 0),
                 model.SelectionFlag.Select | model.SelectionFlag.Rows)
    chosen = window.feed.selected_ids()
    dialog = _dialog(window, qtbot)
    assert dialog.scope() == SELECTED  # several selected: the selection is offered first
    dialog.set_options(path=tmp_path / "selected.bib", style="biblatex", ascii=True)
    dialog.accept()
    entries = _parse(tmp_path / "selected.bib")
    assert [e.key for e in entries] == [p["citekey"] for p in seed_lib.papers(chosen)]
    assert {e.entry_type for e in entries} == {"online"}
    assert (tmp_path / "selected.bib").read_text(encoding="utf-8").isascii()


def test_notes_go_in_when_asked(window, seed_lib, tmp_path, qtbot):
    pid = window.feed.model.paper_id(0)
    window.edit(seed_lib.curation.add_note, pid, "Read section 3 again")
    window.feed.view.selectRow(0)
    for notes, name in ((False, "plain.bib"), (True, "notes.bib")):
        dialog = _dialog(window, qtbot)
        dialog.set_options(scope=SELECTED, notes=notes, path=tmp_path / name)
        dialog.accept()
    assert "section 3" not in (tmp_path / "plain.bib").read_text(encoding="utf-8")
    [entry] = _parse(tmp_path / "notes.bib")
    assert "section 3" in " ".join(str(f.value) for f in entry.fields)


def test_large_exports_run_on_the_worker(window, seed_lib, tmp_path, qtbot, monkeypatch):
    monkeypatch.setattr(operations, "LARGE", 10)
    dialog = _dialog(window, qtbot)
    out = tmp_path / "big.bib"
    dialog.set_options(path=out)
    dialog.accept()
    assert dialog.written is None and not dialog.buttons.isEnabled()  # still running
    qtbot.waitUntil(lambda: dialog.written is not None, timeout=20000)
    assert dialog.written == SEED_PAPERS == len(_parse(out))
    assert not window.progress.isVisible()


@pytest.mark.parametrize("where", ["missing-folder/out.bib"])
def test_an_unwritable_path_says_why_and_writes_nothing(window, tmp_path, qtbot, where):
    dialog = _dialog(window, qtbot)
    dialog.set_options(path=tmp_path / where)
    dialog.accept()
    assert dialog.written is None and dialog.isVisible()
    assert "cannot write" in dialog.message.text()
    assert dialog.buttons.isEnabled()
    assert not (tmp_path / where).exists()


def test_the_papers_shown_are_all_of_them_while_the_table_has_its_first_page(window, seed_lib):
    window.feed.set_query("scaling")
    every = list(window.feed.model.ids())
    assert window.feed.model.complete and len(every) > 20
    # as before the rest arrives
    window.feed.model._ids, window.feed.model.complete = every[:20], False
    assert shown_ids(window) == every


def test_csl_json_export_from_the_dialog(window, seed_lib, tmp_path, qtbot):
    import json

    dialog = _dialog(window, qtbot)
    dialog.set_options(path=tmp_path / "refs.bib", scope=SELECTED)
    dialog.set_options(style="csl-json")
    assert dialog.path.text() == str(tmp_path / "refs.json")  # the suffix follows the format
    dialog.set_options(scope=ALL)
    dialog.accept()
    items = json.loads((tmp_path / "refs.json").read_text(encoding="utf-8"))
    assert dialog.written == SEED_PAPERS and len(items) == SEED_PAPERS
    assert {i["id"] for i in items} == {p["citekey"] for p in
                                        seed_lib.papers(seed_lib.search().ids)}


def test_the_library_itself_is_refused_and_left_as_it_was(window, qtbot):
    library = window.lib.path
    before = file_digest(library)  # read in a process of its own: this one has it open
    window.actions_by_name["export_bibtex"].trigger()
    dialog = window.context.features["export"].dialog
    qtbot.addWidget(dialog)
    dialog.set_options(path=library)
    dialog.accept()
    qtbot.waitUntil(lambda: dialog.buttons.isEnabled(), timeout=20000)
    assert dialog.written is None and dialog.isVisible()
    assert "open library" in dialog.message.text()
    assert file_digest(library) == before


def test_fields_from_a_bib_file_can_be_exported_exactly_as_written(window, seed_lib, tmp_path,
                                                                  qtbot):
    """Bare specials of a .bib file's fields are escaped by default (a LaTeX error
    otherwise) and kept as written when the user asks."""
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{kept2024, title = {Loss_min and 5# ways}, year = {2024}}\n",
                   encoding="utf-8")
    seed_lib.import_paths([bib])
    texts = {}
    for as_written in (False, True):
        dialog = _dialog(window, qtbot)
        out = tmp_path / f"as-written-{as_written}.bib"
        dialog.set_options(path=out, as_written=as_written)
        dialog.accept()
        qtbot.waitUntil(lambda out=out: out.exists(), timeout=30000)
        texts[as_written] = out.read_text(encoding="utf-8")
    assert "title = {Loss\\_min and 5\\# ways}" in texts[False]
    assert "title = {Loss_min and 5# ways}" in texts[True]


def test_a_file_that_is_no_bibliography_is_replaced_only_when_confirmed(
        window, tmp_path, qtbot, monkeypatch):
    from paperdesk.gui.common import dialogs

    out = tmp_path / "notes.txt"
    out.write_text("my notes\n", encoding="utf-8")
    asked: list[str] = []
    monkeypatch.setattr(dialogs, "confirm", lambda *a: asked.append(a[2]) or False)
    dialog = _dialog(window, qtbot)
    dialog.set_options(path=out)
    dialog.accept()
    assert out.read_text(encoding="utf-8") == "my notes\n" and dialog.written is None
    assert len(asked) == 1 and "holds something other than BibTeX" in asked[0]
    monkeypatch.setattr(dialogs, "confirm", lambda *a: True)
    dialog.accept()
    assert dialog.written == SEED_PAPERS and len(_parse(out)) == SEED_PAPERS


def test_the_dialog_offers_every_format_and_follows_the_one_chosen(window, seed_lib, tmp_path,
                                                                  qtbot):
    """Its title, the options offered and the file's suffix are the format's
    (``core/bibtex/formats.py``); the file it writes begins as a file of it does."""
    from paperdesk.core.bibtex.formats import FORMATS
    from tests.gui.screenshots import save_screenshot

    dialog = _dialog(window, qtbot)
    offered = [(dialog.style.itemText(i), dialog.style.itemData(i))
               for i in range(dialog.style.count())]
    assert offered == [(f.label, f.name) for f in FORMATS]
    assert dialog.windowTitle() == "Export BibTeX"  # the first format, as before
    window.feed.view.selectRow(0)
    for chosen in FORMATS:
        dialog = _dialog(window, qtbot)
        dialog.set_options(path=tmp_path / "refs.bib", scope=SELECTED, ascii=True, notes=True,
                           as_written=True)
        dialog.set_options(style=chosen.name)
        assert dialog.windowTitle() == f"Export {chosen.kind}"
        boxes = {"ascii": dialog.ascii, "notes": dialog.notes, "as_written": dialog.as_written}
        assert {n for n, box in boxes.items() if box.isEnabled()} == chosen.options
        assert chosen.ascii_means in dialog.ascii.text()
        assert dialog.path.text() == str(tmp_path / f"refs{chosen.suffix}")
        assert {n for n, on in dialog.chosen_options().items() if on} == chosen.options
        if chosen.name == "csl-json":
            save_screenshot(dialog, tmp_path, "export-dialog-csl-json.png")
        dialog.accept()
        out = tmp_path / f"refs{chosen.suffix}"
        assert dialog.written == 1
        assert out.read_text(encoding="utf-8").lstrip().startswith(chosen.starts)
        out.unlink()


@pytest.mark.parametrize(("style", "name", "kind"), [("csl-json", "all.bib", "CSL-JSON"),
                                                     ("bibtex", "refs.json", "BibTeX")])
def test_a_file_named_for_the_other_format_is_asked_about_first(
        window, tmp_path, qtbot, monkeypatch, style, name, kind):
    """CSL-JSON typed into all.bib (the suffix no longer follows once typed) is asked
    about before anything is written; a yes writes it there."""
    from paperdesk.gui.common import dialogs

    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(dialogs, "confirm", lambda *a: asked.append((a[1], a[2])) or False)
    dialog = _dialog(window, qtbot)
    dialog.set_options(style=style)
    dialog.set_options(path=tmp_path / name)  # typed after choosing the format
    assert dialog.windowTitle() == f"Export {kind}"
    dialog.accept()
    assert not (tmp_path / name).exists() and dialog.written is None
    assert len(asked) == 1 and asked[0][0] == f"Write {kind} into {name}?", asked
    assert f"this is a {kind} export" in asked[0][1]
    monkeypatch.setattr(dialogs, "confirm", lambda *a: True)
    dialog.accept()
    assert dialog.written == SEED_PAPERS
    text = (tmp_path / name).read_text(encoding="utf-8")
    assert text.startswith("[" if style == "csl-json" else "@")


def test_the_question_about_the_name_looks_right(window, tmp_path, qtbot):
    """The real question, screenshot: its title and its button."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    dialog = _dialog(window, qtbot)
    dialog.set_options(style="csl-json")
    dialog.set_options(path=tmp_path / "all.bib")
    seen: dict = {}

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        seen["title"], seen["buttons"] = box.windowTitle(), [b.text() for b in box.buttons()]
        box.grab().save(str(tmp_path / "export-misnamed.png"))
        box.reject()

    QTimer.singleShot(20, answer)
    dialog.accept()
    assert seen["title"] == "Write CSL-JSON into all.bib?"
    assert "Write CSL-JSON" in seen["buttons"] and not (tmp_path / "all.bib").exists()
    assert (tmp_path / "export-misnamed.png").stat().st_size > 1000
