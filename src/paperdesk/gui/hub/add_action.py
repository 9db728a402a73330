"""Paper > Add by identifier…, a paste on the table and a link dropped from a browser:
papers from arXiv ids, arXiv, Hugging Face and OpenReview links, and DOIs
(``core/hub/add.py``); and Paper > Open on arXiv / Hugging Face / code / project page.

The add runs on the window's worker with progress and Cancel, as one undoable edit,
and says in the status line what it did ("added 2 papers; 1 already in the library as
kaplan2020scaling"). Text that names no paper says so in one line and adds nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QInputDialog

from paperdesk.core.api import naming_papers, paper_links
from paperdesk.gui.context import Feature

if TYPE_CHECKING:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QDropEvent

    from paperdesk.core.api import Changes
    from paperdesk.gui.context import Context

KEY = "Ctrl+Shift+A"
MAX_TEXT = 200_000  # characters of pasted or dropped text read (a thousand links)
PAGES = (("arxiv", "arXiv", "Ctrl+Alt+A"), ("hf", "Hugging Face", "Ctrl+Alt+H"),
         ("code", "code", "Ctrl+Alt+C"), ("project", "project page", "Ctrl+Alt+P"))
_LABELS = {"arxiv": "arXiv", "hf": "Hugging Face", "code": "code", "project": "project page"}


def lines_of(text: str) -> list[str]:
    """The identifiers a text may hold: one a line (or a word, on one line)."""
    text = text[:MAX_TEXT]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) == 1:
        return lines[0].split()
    return lines


def web_links(data: QMimeData) -> list[str]:
    """What a browser drags that names papers: its links (text/uri-list) that are not
    local files, else the lines of its text that are arXiv ids, links or DOIs."""
    urls = [u.toString() for u in data.urls() if u.scheme() in ("http", "https")]
    if urls:
        return naming_papers(urls)
    if data.urls():  # files: the importer's
        return []
    return naming_papers(lines_of(data.text())) if data.hasText() else []


class AddByIdentifier(Feature):
    name = "add"

    def install(self, context: Context) -> None:
        super().install(context)
        menus = context.menus
        menus.separator("paper")
        menus.add("paper", "add_by_id", "&Add by identifier (arXiv id, DOI or link)…",
                  self.ask, KEY)
        menus.add("paper", "paste_ids", "Add what the clipboard names", self.paste,
                  QKeySequence.StandardKey.Paste, table_only=True)
        for key, text, shortcut in PAGES:
            menus.add("paper", f"open_{key}", f"Open on {text}" if key in ("arxiv", "hf")
                      else f"Open its {text}", lambda k=key: self.open(k), shortcut)

    # -- adding --------------------------------------------------------------------

    def ask(self) -> None:
        text, ok = QInputDialog.getMultiLineText(
            self.context.widget, "Add by identifier",
            "arXiv ids, arXiv, Hugging Face or OpenReview links, or DOIs, one a line:")
        if ok and text.strip():
            self.add(lines_of(text))

    def paste(self) -> None:
        text = QGuiApplication.clipboard().text()
        found = naming_papers(lines_of(text))
        if not found:
            self.context.notify("the clipboard holds no arXiv id, DOI or link")
            return
        self.add(found)

    def accepts_drop(self, data: QMimeData) -> bool | None:
        return True if web_links(data) else None

    def drop(self, event: QDropEvent) -> None:
        self.add(web_links(event.mimeData()))

    def add(self, texts: list[str]) -> int | None:
        """Add the papers ``texts`` name, on the worker; the job id."""
        ctx = self.context
        return ctx.ops.run("Add by identifier", lambda lib, _progress, cancel: lib.add(
            texts, cancel=cancel), self._added, undo=True, initiator=self,
            text=f"Adding {len(texts)} paper{'s' * (len(texts) != 1)}…")

    def _added(self, changes: Changes) -> None:
        result = changes.result
        ctx = self.context
        items = result.inputs
        failed = [i for i in items if i.status == "failed"]
        already = [i for i in items if i.status == "already in the library"]
        said = result.summary()
        if already:
            said += "; already in the library as " + ", ".join(
                str(i.citekey or i.paper_id) for i in already[:3])
        if failed:
            said += f"; {failed[0].why}"
        ctx.show_message(said, 15000)
        shown = set(ctx.selection.shown_ids())
        named = [i.paper_id for i in items if i.paper_id is not None and i.paper_id in shown]
        if named:  # the papers it named, selected where the table shows them
            ctx.selection.select_ids(named, named[0])

    # -- opening -------------------------------------------------------------------

    def open(self, page: str) -> None:
        ctx = self.context
        ids = ctx.selected_ids()
        if not ids:
            ctx.notify("Select a paper first")
            return
        wanted = _LABELS[page]
        links = dict(paper_links(ctx.lib.paper(ids[0], with_notes=False)))
        url = links.get(wanted)
        if url is None:
            ctx.notify(f"this paper has no {wanted} page PaperDesk knows of")
            return
        QDesktopServices.openUrl(QUrl(url))

