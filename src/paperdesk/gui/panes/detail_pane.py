"""The detail pane: one paper in full, or what several selected papers share.

The pane only shows data and emits what the user asked for; the window makes
the edits, so each goes through the core and onto the undo stack.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QStringListModel, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFormLayout,
    QFrame,
    QLabel,
    QLineEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.api import HIGHLIGHT_COLOURS, author_line, describe, plain_text
from paperdesk.gui.panes.note_edit import NoteEdit
from paperdesk.gui.panes.upvote_chart import UpvoteChart, hub_point
from paperdesk.gui.table.paper_model import STATUS_LABELS
from paperdesk.gui.table.stars import StarRating

NOTE_DELAY_MS = 600


def _label(text: str = "", *, wrap: bool = True, links: bool = False) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction if links
                                  else Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setOpenExternalLinks(False)
    return label


def _linked(slot) -> QLabel:
    """A label of links, each activated link given to ``slot``."""
    label = _label(links=True)
    label.linkActivated.connect(slot)
    return label


def _anchor(url: str, text: str) -> str:
    safe = url if url.startswith(("https://", "http://")) else "#"
    return f'<a href="{html.escape(safe, quote=True)}">{html.escape(text)}</a>'


class TagCompleter(QCompleter):
    """Completes the tag being typed after the last comma, keeping those before it."""

    def splitPath(self, path: str) -> list[str]:
        return [path.split(",")[-1].strip()]

    def pathFromIndex(self, index) -> str:
        before = self.widget().text().rpartition(",")[0]
        name = index.data()
        return f"{before}, {name}" if before else name


def _highlights_html(marks: list[dict[str, Any]]) -> str:
    """The highlights under the notes: page (a link that reads it there), passage, comment."""
    if not marks:
        return ""
    rows = []
    for h in marks:
        comment = f"<br>&nbsp;&nbsp;— {html.escape(h['comment'])}" if h["comment"] else ""
        passage = h["text"] if len(h["text"]) <= 300 else h["text"][:299] + "…"
        rows.append(f'<span style="background:{HIGHLIGHT_COLOURS.get(h["colour"], "#ffd400")}">'
                    f'&nbsp;&nbsp;</span> <a href="highlight:{h["attachment_id"]}:{h["page"]}">'
                    f'p. {h["page"] + 1}</a> “{html.escape(passage)}”{comment}')
    return f"<b>Highlights</b> ({len(marks)})<br>" + "<br>".join(rows)


def _pdf_hits_html(hits: list[dict[str, Any]]) -> str:
    """The pages of the paper's PDFs the search's pdf: words are on, each a link that
    reads it there, with a snippet (the words matched in bold)."""
    if not hits:
        return ""
    rows = []
    for h in hits:
        snippet = html.escape(h["snippet"]).replace("[", "<b>").replace("]", "</b>")
        rows.append(f'<a href="pdfhit:{h["attachment_id"]}:{h["page"]}">'
                    f'p. {h["page"] + 1}</a> of {html.escape(h["name"])}: {snippet}')
    return "<b>In the PDF</b><br>" + "<br>".join(rows)


class DetailPane(QScrollArea):
    rate = Signal(list, int)              # paper ids, rating
    status_chosen = Signal(list, str)     # paper ids, status
    tags_added = Signal(list, list)       # paper ids, names
    tag_removed = Signal(list, str)       # paper ids, name
    note_saved = Signal(int, object, str)  # paper id, note id or None, text
    year_correction = Signal(int)         # paper id
    highlight_opened = Signal(int, int)   # attachment id, page (0-based): read it there
    pdf_hit_opened = Signal(int, int)     # attachment id, page (0-based) of a search hit
    shown = Signal(list)                  # the ids of the papers now shown (for sections)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMinimumWidth(200)
        body = QWidget()
        self.setWidget(body)
        layout = QVBoxLayout(body)
        self.title = _label()
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        self.meta = _label(links=True)
        self.meta.linkActivated.connect(self._link)
        form = self._edits_form()
        self.sources = _label()
        self.chart = UpvoteChart()
        self.abstract = _label()
        self.notes_label = QLabel("Notes")
        self.older_notes = _label()
        self.note = NoteEdit()
        self.note.setPlaceholderText("Write a note; it is saved as you type")
        self.note.setMinimumHeight(90)
        self.note.textChanged.connect(self._note_changed)
        self._note_timer = QTimer(self, singleShot=True, interval=NOTE_DELAY_MS)
        self._note_timer.timeout.connect(self._save_note)
        self.marks = _linked(self._open_highlight)  # the highlights of the paper's PDFs
        self.pdf_hits = _linked(self._open_pdf_hit)  # where the search's pdf: words are
        self.provenance = _label()
        for widget in (self.title, self.meta, self.pdf_hits, self.provenance):
            layout.addWidget(widget)
        layout.addLayout(form)
        for widget in (self.sources, self.chart, self.abstract, self.notes_label,
                       self.older_notes, self.note, self.marks):
            layout.addWidget(widget)
        layout.addStretch(1)
        self._layout = layout
        self.ids: list[int] = []
        self.paper: dict[str, Any] | None = None
        self.note_id: int | None = None
        self._loading = False
        self.show_papers([])

    def _edits_form(self) -> QFormLayout:
        """The rating, status and tags of the papers shown, as a form."""
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.stars = StarRating()
        self.stars.rated.connect(lambda n: self.rate.emit(list(self.ids), n))
        self.status = QComboBox()
        for key, text in STATUS_LABELS.items():
            self.status.addItem(text, key)
        self.status.activated.connect(
            lambda i: self.status_chosen.emit(list(self.ids), self.status.itemData(i)))
        self.tags = _label(links=True)
        self.tags.linkActivated.connect(lambda name: self.tag_removed.emit(list(self.ids), name))
        self.tag_entry = QLineEdit()
        self.tag_entry.setPlaceholderText("Add tags, separated by commas")
        self.tag_names = QStringListModel()
        completer = TagCompleter(self.tag_names, self.tag_entry)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.tag_entry.setCompleter(completer)
        self.tag_entry.returnPressed.connect(self._add_tags)
        form.addRow("Rating", self.stars)
        form.addRow("Status", self.status)
        form.addRow("Tags", self.tags)
        form.addRow("", self.tag_entry)
        return form

    # -- showing -------------------------------------------------------------

    def add_section(self, widget: QWidget) -> None:
        """A feature's own part of the pane (a paper's PDFs), above the notes; the
        feature fills it, and shows it or not, when it hears ``shown``."""
        self._layout.insertWidget(self._layout.indexOf(self.notes_label), widget)

    def set_tag_names(self, names: list[str]) -> None:
        self.tag_names.setStringList(names)

    def show_papers(self, papers: list[dict[str, Any]],
                    sightings: list[dict[str, Any]] | None = None) -> None:
        """Show one paper (with its sightings), several, or none."""
        self._show_papers(papers, sightings)
        self.shown.emit(list(self.ids))

    def _show_papers(self, papers: list[dict[str, Any]],
                     sightings: list[dict[str, Any]] | None) -> None:
        same = [p["id"] for p in papers] == self.ids
        if not same:
            self.flush_note()
            self.verticalScrollBar().setValue(0)  # a new paper shows from its title
        self.ids = [p["id"] for p in papers]
        self.paper = papers[0] if len(papers) == 1 else None  # as read, for the sections
        single = len(papers) == 1
        for widget in (self.stars, self.status, self.tag_entry):
            widget.setEnabled(bool(papers))
        for widget in (self.sources, self.chart, self.abstract, self.notes_label,
                       self.older_notes, self.note):
            widget.setVisible(single)
        self.marks.setVisible(single and bool(papers[0].get("highlights")))
        self.pdf_hits.setVisible(single and bool(papers[0].get("pdf_hits")))
        if not papers:
            self.title.setText("No paper selected")
            self.provenance.hide()
            self.meta.setText("Select a paper to see its abstract, where it came from and "
                              "your notes. Select several to rate or tag them together.")
            self.tags.setText("")
            self.stars.setRating(0)
            return
        counts: dict[str, int] = {}
        for p in papers:
            for tag in p["tags"]:
                counts[tag] = counts.get(tag, 0) + 1
        self._show_shared([p["rating"] for p in papers], [p["status"] for p in papers],
                          sorted(counts.items()), single)
        if not single:
            self.title.setText(f"{len(papers)} papers selected")
            self.provenance.hide()
            self.meta.setText("Rating, status and tags apply to all of them.")
            return
        self._show_one(papers[0], sightings or [], same)

    def show_many(self, ids: list[int], summary: dict[str, Any]) -> None:
        """Several papers, summed up by the caller (``reads.summary``): any number."""
        if ids != self.ids:
            self.flush_note()
            self.verticalScrollBar().setValue(0)
        self.ids = list(ids)
        for widget in (self.stars, self.status, self.tag_entry):
            widget.setEnabled(True)
        for widget in (self.sources, self.chart, self.abstract, self.notes_label,
                       self.older_notes, self.note):
            widget.setVisible(False)
        self._show_shared(summary["ratings"], summary["statuses"], summary["tags"], False)
        self.title.setText(f"{summary['count']:,} papers selected")
        self.provenance.hide()
        self.meta.setText("Rating, status and tags apply to all of them.")
        self.shown.emit(list(self.ids))

    def _show_shared(self, ratings: list[int], statuses: list[str],
                     tags: list[tuple[str, int]], single: bool) -> None:
        distinct_ratings, distinct_statuses = set(ratings), set(statuses)
        self.stars.setRating(distinct_ratings.pop() if len(distinct_ratings) == 1 else 0)
        self.status.setCurrentIndex(self.status.findData(distinct_statuses.pop())
                                    if len(distinct_statuses) == 1 else -1)
        self.tags.setText(" ".join(
            f'{html.escape(t)}{"" if single else f" ({n})"}&nbsp;<a href="{html.escape(t)}" '
            f'title="Remove">✕</a>&nbsp;' for t, n in tags) or "none")

    def _show_one(self, p: dict[str, Any], sightings: list[dict[str, Any]],
                  same: bool = False) -> None:
        self.title.setText(plain_text(p["title"]))  # LaTeX as text: "(\\eg x)" is "(e.g. x)"
        authors = author_line(p["authors"]) or (
            f"{p['author_count']} authors" if p["author_count"] else "authors unknown")
        year = "no date" if p["year"] is None else str(p["year"])
        if p["year_inferred"]:
            year = (f"{p['published'] or year} <i>(year inferred)</i> "
                    f'<a href="year:{p["id"]}">Correct…</a>')
        elif p["published"]:
            year = p["published"]
        key_state = ("frozen: it has left PaperDesk" if p.get("citekey_frozen") else
                     "yours" if p.get("sources", {}).get("citekey", {}).get("source") == "user"
                     else "provisional: follows the metadata until exported or copied")
        upvotes = p["upvotes"] if p.get("hub_upvotes") is None else max(
            p["upvotes"] or 0, p["hub_upvotes"])
        rows = [("Organisation", html.escape(p["organization"] or "—")),
                ("Published", year), ("Upvotes", str(upvotes or "—")),
                ("Citation key", f"<code>{html.escape(p['citekey'] or '—')}</code>")]
        links = [_anchor(url, text) for url, text in (
            (p.get("url"), f"arXiv {p.get('arxiv_id')}" if p.get("arxiv_id") else "Web page"),
            (p.get("github"), "Code"), (p.get("project_page"), "Project page")) if url]
        if links:
            rows.append(("Links", " · ".join(links)))
        rows.append(("Added", (p["added"] or "")[:10]))
        described = [f"{name.replace('_', ' ')}: {describe(entry)}" for name, entry in
                     p.get("sources", {}).items() if name not in ("title", "abstract")]
        self.provenance.setText(
            f"<small>Citation key {html.escape(key_state)}."
            + (f"<br>Sources: {html.escape('; '.join(described))}" if described else "")
            + "</small>")
        self.provenance.show()
        # Lines, not a table: QLabel misjudges the height of a table whose cells wrap.
        rows.insert(0, ("Authors", html.escape(authors)))
        self.meta.setText("<br>".join(f"<b>{k}</b>&nbsp;&nbsp;{v}" for k, v in rows))
        # Lines that wrap at spaces, so a narrow pane needs only the longest file name.
        seen = "".join(
            f"<br>{html.escape(s['digest'])} &nbsp;{html.escape(s['digest_date'] or '')}"
            f"&nbsp; {s['upvotes'] if s['upvotes'] is not None else '—'}&nbsp;▲"
            for s in sightings)
        self.sources.setText(f"<b>Seen in {len(sightings)} digest"
                             f"{'s' if len(sightings) != 1 else ''}</b> (upvotes then){seen}")
        self.chart.set_sightings(sightings, hub_point(p))
        abstract = plain_text(p["abstract"]) or "none"
        self.abstract.setText(f"<b>Abstract</b><br>{html.escape(abstract)}")
        self.marks.setText(_highlights_html(p.get("highlights") or []))
        self.pdf_hits.setText(_pdf_hits_html(p.get("pdf_hits") or []))
        notes = p.get("notes") or []
        self.older_notes.setText("<br>".join(
            f"<i>{html.escape(n['updated'][:16])}</i> {html.escape(n['text'])}"
            for n in notes[:-1]))
        self.older_notes.setVisible(len(notes) > 1)
        latest = notes[-1] if notes else None
        if self.note.hasFocus() and self._note_timer.isActive():
            return  # the user is typing: keep their text
        self._loading = True
        self.note_id = latest["id"] if latest else None
        text = latest["text"] if latest else ""
        if self.note.toPlainText() != text or not same:
            self.note.reset(text)
        self._loading = False

    # -- edits -------------------------------------------------------------------

    def _add_tags(self) -> None:
        names = [t.strip() for t in self.tag_entry.text().split(",") if t.strip()]
        if names and self.ids:
            self.tag_entry.clear()
            self.tags_added.emit(list(self.ids), names)

    def _note_changed(self) -> None:
        if not self._loading and len(self.ids) == 1:
            self._note_timer.start()

    def flush_note(self) -> None:
        """Save the note now if a save is pending."""
        if self._note_timer.isActive():
            self._note_timer.stop()
            self._save_note()

    def _save_note(self) -> None:
        if len(self.ids) == 1:
            self.note.checkpoint()
            self.note_saved.emit(self.ids[0], self.note_id, self.note.toPlainText())

    def _open_highlight(self, href: str) -> None:
        _, attachment_id, page = href.split(":")
        self.highlight_opened.emit(int(attachment_id), int(page))

    def _open_pdf_hit(self, href: str) -> None:
        _, attachment_id, page = href.split(":")
        self.pdf_hit_opened.emit(int(attachment_id), int(page))

    def _link(self, href: str) -> None:
        if href.startswith("year:"):
            self.year_correction.emit(int(href[5:]))
        elif href.startswith(("https://", "http://")):
            QDesktopServices.openUrl(QUrl(href))
