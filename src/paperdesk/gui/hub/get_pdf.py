"""Paper > Get PDF, PDFs dropped on the window, and the detail pane's list of PDFs.

- Paper > Get PDF (Ctrl+Shift+G) fetches the arXiv PDFs of the selected papers
  (``lib.fetch_pdfs``) on the window's worker, with progress and Cancel, as one
  undoable edit; the status line says what came, and a report lists what failed.
- Paper > Get PDFs when marked to-read is the library's auto-fetch setting
  (``lib.settings``, the one ``paperdesk pdf auto-fetch`` sets): with it on, papers
  marked to-read in the window have their PDFs fetched.
- A PDF dropped on a paper's row, or on the detail pane showing one paper, is
  attached to that paper; dropped anywhere else it is matched to a paper of the
  library by its arXiv id or DOI, or becomes a new paper (``lib.pdf.attach`` with
  no paper). Other files dropped with it are imported as before.
- The detail pane lists the shown paper's PDFs (``attachments_list``): activating
  one opens it in the built-in reader (``open_reader``) where the window has one,
  else in the system viewer; a missing linked file offers Locate….
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QFileDialog

from paperdesk.core.api import PAPERS, PaperDeskError
from paperdesk.gui.context import Feature
from paperdesk.gui.panes.attachments_list import AttachmentsList

if TYPE_CHECKING:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QDropEvent

    from paperdesk.core.api import Changes
    from paperdesk.gui.context import Context

KEY = "Ctrl+Shift+G"
SETTING = "fetch_to_read"
AUTO_MOST = 200  # papers one edit marks to-read that auto-fetch still fetches (no bulk)


def dropped_pdfs(data: QMimeData) -> list[Path]:
    """The local files of a drop that are PDFs (by name; the store checks the bytes)."""
    return [Path(u.toLocalFile()) for u in data.urls()
            if u.isLocalFile() and u.toLocalFile().lower().endswith(".pdf")]


class GetPdf(Feature):
    name = "get_pdf"

    def install(self, context: Context) -> None:
        super().install(context)
        self._tried: set[int] = set()  # to-read papers auto-fetch has asked for already
        self.report: Any = None
        menus = context.menus
        menus.separator("paper")
        menus.add("paper", "get_pdf", "&Get PDF", self.get_selected, KEY)
        self.auto = menus.add("paper", "auto_fetch_pdf", "Get PDFs when marked &to-read",
                              self._auto_toggled, checkable=True)
        self.auto.setChecked(self._setting())
        self.files = AttachmentsList()
        self.files.opened.connect(self.open)
        self.files.locate.connect(self.locate)
        self.files.get_pdf.connect(self.get_selected)
        self.detail = getattr(context.widget, "detail", None)
        if self.detail is not None:
            self.detail.add_section(self.files)
            self.detail.shown.connect(self._shown)
            self._shown(list(self.detail.ids))

    # -- Get PDF ---------------------------------------------------------------------

    def get_selected(self) -> int | None:
        ids = self.context.selected_ids()
        if not ids:
            self.context.notify("Select the papers whose PDFs to get first")
            return None
        return self.fetch(ids)

    def fetch(self, ids: list[int], *, to_read_only: bool = False) -> int | None:
        """Fetch the PDFs of ``ids`` on the worker; the job id."""
        ctx = self.context
        return ctx.ops.run(
            "Get PDF", lambda lib, progress, cancel: lib.fetch_pdfs(
                ids, to_read_only=to_read_only, progress=progress, cancel=cancel),
            self._fetched, undo=True, initiator=self,
            text=f"Getting {len(ids)} PDF{'s' * (len(ids) != 1)} from arXiv…")

    def _fetched(self, changes: Changes) -> None:
        from paperdesk.gui.hub.enrich_action import HubReport

        result = changes.result
        ctx = self.context
        ctx.show_message(result.summary(), 15000)
        failed = [i for i in result.papers if i.status == "failed"]
        if failed:
            lines = [f"{i.citekey or i.paper_id}: {i.why}" for i in failed]
            lines += [f"warning: {w}" for w in result.warnings]
            self.report = HubReport("Get PDF", result.summary(), lines, ctx.widget)
            self.report.open()
        self._refresh()

    # -- auto-fetch of to-read papers ----------------------------------------------------

    def _setting(self) -> bool:
        try:
            return bool(self.context.lib.settings.get(SETTING))
        except PaperDeskError:
            return False

    def _auto_toggled(self) -> None:
        try:
            self.context.lib.settings.set(SETTING, self.auto.isChecked())
        except PaperDeskError as exc:
            self.context.notify(str(exc))
            self.auto.setChecked(self._setting())

    def library_changed(self, lib: Any) -> None:
        self._tried.clear()
        self.auto.setChecked(self._setting())

    def changes_applied(self, changes: Changes, initiator: object | None) -> None:
        if "attachments" in changes.kinds:
            self._refresh()
        if initiator is self or changes.how != "done" or PAPERS not in changes.kinds \
                or not changes.paper_ids or not self.auto.isChecked() \
                or len(changes.paper_ids) > AUTO_MOST:
            return
        ids = [p["id"] for p in self.context.lib.papers(sorted(changes.paper_ids))
               if p["status"] == "to-read" and p.get("arxiv_id") and p["id"] not in self._tried]
        if ids:
            self._tried.update(ids)
            self.fetch(ids, to_read_only=True)

    # -- drops ---------------------------------------------------------------------------

    def accepts_drop(self, data: QMimeData) -> bool | None:
        return True if dropped_pdfs(data) else None

    def drop(self, event: QDropEvent) -> None:
        data = event.mimeData()
        pdfs = dropped_pdfs(data)
        others = [Path(u.toLocalFile()) for u in data.urls()
                  if u.isLocalFile() and Path(u.toLocalFile()) not in pdfs]
        target = self.paper_at(event.position().toPoint())
        for path in pdfs:
            self.attach(target, path)
        if others and self.context.importer is not None:
            self.context.importer.start(others)

    def paper_at(self, point: QPoint) -> int | None:
        """The paper under ``point`` (in the window's coordinates, or the widget's the
        window says took the drop): a table row's, or the one the detail pane shows."""
        window = self.context.widget
        origin = getattr(window, "drop_widget", None) or window
        where = origin.mapToGlobal(point)
        table = self.context.table
        if table is not None:
            viewport = table.viewport()
            inside = viewport.mapFromGlobal(where)
            if viewport.isVisible() and viewport.rect().contains(inside):
                index = table.indexAt(inside)
                return table.model().paper_id(index.row()) if index.isValid() else None
        detail = self.detail
        if detail is not None and detail.isVisible() and len(detail.ids) == 1 \
                and detail.rect().contains(detail.mapFromGlobal(where)):
            return detail.ids[0]
        return None

    def attach(self, paper_id: int | None, path: Path) -> int | None:
        """Attach ``path`` to ``paper_id`` (None: the paper it names, or a new one)."""
        ctx = self.context
        return ctx.ops.run("Attach PDF", lambda lib, _progress, _cancel: lib.pdf.attach(
            paper_id, path), self._attached, undo=True, initiator=self,
            text=f"Attaching {path.name}…", cancellable=False)

    def _attached(self, changes: Changes) -> None:
        result = changes.result
        said = f"{getattr(result, 'name', 'the PDF')}: " + (
            "already attached" if getattr(result, "already", False) else
            "attached to a new paper" if getattr(result, "new_paper", False) else "attached")
        self.context.show_message(said, 10000)
        pid, selection = getattr(result, "paper_id", None), self.context.selection
        if pid is not None and selection is not None and pid in set(selection.shown_ids()):
            selection.select_ids([pid], pid)
        self._refresh()

    # -- the detail pane's list ----------------------------------------------------------

    def _shown(self, ids: list[int]) -> None:
        self.files.setVisible(len(ids) == 1)
        paper = getattr(self.detail, "paper", None)
        if len(ids) == 1 and paper is not None and paper["id"] == ids[0] \
                and "attachments" in paper:  # the pane read them with the paper
            self.files.show_attachments(paper["attachments"],
                                        can_fetch=bool(paper.get("arxiv_id")))
        elif len(ids) == 1:
            self._fill(ids[0])

    def _refresh(self) -> None:
        if self.detail is not None and len(self.detail.ids) == 1:
            self._fill(self.detail.ids[0])

    def _fill(self, paper_id: int) -> None:
        lib = self.context.lib
        try:
            attachments = lib.pdf.of_paper(paper_id)
            has_arxiv = bool(lib.paper(paper_id, with_notes=False).get("arxiv_id"))
        except PaperDeskError:
            attachments, has_arxiv = [], False
        self.files.show_attachments(attachments, can_fetch=has_arxiv)

    def open(self, attachment_id: int) -> None:
        """The built-in reader where the window has one, else the system viewer."""
        ctx = self.context
        if "reader" in ctx.features:
            from paperdesk.gui.pdf.reader_feature import open_reader

            open_reader(ctx, attachment_id)
            return
        try:
            ctx.lib.pdf.open(attachment_id)
        except PaperDeskError as exc:
            ctx.notify(str(exc))

    def locate(self, attachment_id: int) -> None:
        ctx = self.context
        try:
            attachment = ctx.lib.pdf.get(attachment_id)
        except PaperDeskError as exc:
            ctx.notify(str(exc))
            return
        path, _ = QFileDialog.getOpenFileName(
            ctx.widget, f"Locate {attachment['name']}", str(Path(attachment["file"]).parent),
            "PDF files (*.pdf);;All files (*)")
        if path:
            self.relink(attachment_id, Path(path))

    def relink(self, attachment_id: int, path: Path) -> None:
        """The missing linked file is at ``path`` now (an undoable edit)."""
        if self.context.ops.edit(self.context.lib.pdf.locate, attachment_id, path,
                                 initiator=self) is not None:
            self._refresh()
