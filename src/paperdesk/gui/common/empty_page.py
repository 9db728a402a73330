"""What an empty library shows: how to fill it (Today from the Hub, an identifier, files,
the demo), this PaperDesk's version and where its guide is."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

import paperdesk
from paperdesk.gui.common.icons import icon, pixmap


class EmptyPage(QWidget):
    import_files = Signal()
    open_demo = Signal()
    today = Signal()       # File > Today: the Hub's Daily Papers since the last fetch
    open_guide = Signal()  # Help > PaperDesk guide

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        art = QLabel()
        art.setPixmap(pixmap("digest", 64, self.palette().color(self.foregroundRole())))
        art.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title = QLabel("This library is empty")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        title.setFont(font)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text = QLabel("Fetch this week's papers from the Hugging Face Hub with Today (Ctrl+T),\n"
                      "add one by its arXiv id, DOI or link (Ctrl+Shift+A),\n"
                      "or drop digest files or folders anywhere on this window to import them.\n"
                      "To look around first, open the demo library.")
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text = text
        version = QLabel(f"PaperDesk {paperdesk.__version__} · the guide: Help > PaperDesk guide"
                         " (docs/guide.md)")
        version.setAlignment(Qt.AlignmentFlag.AlignCenter)
        version.setEnabled(False)  # quieter than the rest
        self.version = version
        today = QPushButton(icon("digest"), "Today: fetch from the Hub")
        today.clicked.connect(self.today)
        guide = QPushButton("Read the guide")
        guide.clicked.connect(self.open_guide)
        choose = QPushButton(icon("import"), "Import files…")
        choose.clicked.connect(self.import_files)
        demo = QPushButton(icon("library"), "Open the demo library")
        demo.clicked.connect(self.open_demo)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (today, choose, demo, guide):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        for widget in (art, title, text):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addWidget(version)
        layout.addStretch(2)
