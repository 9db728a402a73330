"""The file field, format box and OK button the export and sync dialogs share."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog, QLineEdit

from paperdesk.gui.common import file_form


class _Dialog(QDialog):
    def __init__(self) -> None:
        super().__init__()
        self.accepted_paths: list[Path | None] = []
        self.path = QLineEdit("~/refs.bib")
        self.buttons = file_form.ok_cancel(self, "Write", self.path)

    def accept(self) -> None:
        self.accepted_paths.append(file_form.chosen_path(self.path))


def test_ok_needs_a_file_and_reaches_the_dialogs_accept(qtbot):
    dialog = _Dialog()
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(file_form.OK)
    assert ok.text() == "Write" and ok.isEnabled()
    ok.click()
    assert dialog.accepted_paths == [Path.home() / "refs.bib"]
    dialog.path.setText("   ")
    assert not ok.isEnabled()
    assert file_form.chosen_path(dialog.path) is None
    dialog.path.setText("/tmp/x.json")
    assert ok.isEnabled()
    ok.click()
    assert dialog.accepted_paths[-1] == Path("/tmp/x.json")


def test_the_suffix_follows_the_format(qtbot):
    path = QLineEdit("/papers/refs.bib")
    qtbot.addWidget(path)
    box = file_form.style_box(lambda: file_form.match_suffix(path, box.currentData()))
    qtbot.addWidget(box)
    assert [box.itemData(i) for i in range(box.count())] == ["bibtex", "biblatex", "csl-json"]
    box.setCurrentIndex(box.findData("csl-json"))
    assert path.text() == "/papers/refs.json"
    box.setCurrentIndex(box.findData("biblatex"))
    assert path.text() == "/papers/refs.bib"
    path.setText("/papers/refs.txt")  # a suffix of the user's own stays
    box.setCurrentIndex(box.findData("csl-json"))
    assert path.text() == "/papers/refs.txt"
