"""Help > PaperDesk guide and Help > About PaperDesk: where to read more, and what
this PaperDesk is (its version, its library, where its papers come from).

The guide is docs/guide.md of PaperDesk's source tree; an installation without the
source tree (a wheel, the bundle) says where the guide is instead of opening it.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox

import paperdesk
from paperdesk.gui.context import Feature

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

GUIDE = Path(paperdesk.__file__).resolve().parents[2] / "docs" / "guide.md"
WHAT = ("<b>Today</b> (File > Today, Ctrl+T) fetches the Hugging Face Hub's Daily Papers "
        "since the last fetch, completes them from the Hub and opens their triage. "
        "Paper > Add by identifier (Ctrl+Shift+A) takes an arXiv id, a DOI or a link.")


def guide_path() -> Path | None:
    """The guide beside this PaperDesk's source, or None (an installed copy)."""
    return GUIDE if GUIDE.is_file() else None


def about_text(context: Context) -> str:
    guide = guide_path()
    where = (f"The guide: {html.escape(str(guide))} (Help > PaperDesk guide)." if guide else
             "The guide is docs/guide.md in PaperDesk's source.")
    return (f"<h3>PaperDesk {paperdesk.__version__}</h3>"
            f"<p>A desktop reference manager for research digests (Qt {pyside_version}).</p>"
            f"<p>{WHAT}</p><p>Library: {html.escape(str(context.lib.path))}</p><p>{where}</p>")


class HelpMenu(Feature):
    """Help > PaperDesk guide, Help > About PaperDesk."""

    name = "help"

    def install(self, context: Context) -> None:
        super().install(context)
        context.menus.add("help", "guide", "PaperDesk &guide", self.open_guide)
        context.menus.add("help", "about", "&About PaperDesk", self.about)

    def open_guide(self) -> bool:
        """Open the guide in the desktop's viewer for Markdown (or say where it is)."""
        guide = guide_path()
        if guide is None:
            self.about()
            return False
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(guide)))

    def about(self) -> None:
        QMessageBox.about(self.context.widget, "About PaperDesk", about_text(self.context))
