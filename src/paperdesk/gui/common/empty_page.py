"""What an empty library shows: how to fill it."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from paperdesk.gui.common.icons import icon, pixmap


class EmptyPage(QWidget):
    import_files = Signal()
    open_demo = Signal()

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
        text = QLabel("Drop digest files or folders anywhere on this window to import them,\n"
                      "or choose File > Import. To look around first, open the demo library.")
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        choose = QPushButton(icon("import"), "Import files…")
        choose.clicked.connect(self.import_files)
        demo = QPushButton(icon("library"), "Open the demo library")
        demo.clicked.connect(self.open_demo)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(choose)
        buttons.addWidget(demo)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        for widget in (art, title, text):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addStretch(2)
