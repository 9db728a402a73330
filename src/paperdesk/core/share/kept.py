"""The shared document kept in memory between one program's exchanges (``Kept``).

Each exchange starts from the document as the library last matched it. Loading it
from the library (its stored snapshot and updates, imported into a new document) is
the largest part of an exchange of a large library when little changed, so a program
that exchanges again, as the window does after every write and every file arriving,
keeps the document it stored, with what the record kinds held then (``records``).

It is used only while the library's stored document is the one it kept: each store
writes a new random mark beside the parts (``share_table.doc_mark``), and the mark and
the parts' sizes are compared first. Another program's exchange, an older PaperDesk
(which writes no mark but changes the parts), an exchange rolled back (its mark gone
with it) or a share stopped all leave a document that is loaded again. An exchange
that fails takes the kept document with it (``take`` leaves nothing behind).
"""

from __future__ import annotations

import loro

from paperdesk.core.db import share_table
from paperdesk.core.db.database import Database
from paperdesk.core.share.records import Known

Mark = tuple[str | None, tuple[int, ...]]


class Kept:
    def __init__(self) -> None:
        self._doc: loro.LoroDoc | None = None
        self._mark: Mark | None = None
        self._known: Known | None = None
        self.loads = 0  # documents loaded from the library (the tests count them)

    def take(self, db: Database) -> tuple[loro.LoroDoc, tuple[int, ...], Known | None]:
        """The document as the library stored it, the sizes of its stored parts and
        what the records were (None: not known), the kept one where it still is."""
        doc, mark, known = self._doc, self._mark, self._known
        self._doc = self._mark = self._known = None
        now = mark_of(db)
        if doc is not None and mark == now:
            return doc, now[1], known
        doc = loro.LoroDoc()
        parts = share_table.doc_parts(db)
        if parts:
            doc.import_batch(parts)
        self.loads += 1
        return doc, tuple(len(p) for p in parts), None

    def keep(self, doc: loro.LoroDoc, mark: Mark, known: Known | None) -> None:
        """After the exchange's commit: ``doc`` is what the library holds (``mark``)."""
        self._doc, self._mark, self._known = doc, mark, known


def mark_of(db: Database) -> Mark:
    return share_table.get(db, "doc_mark"), share_table.part_sizes(db)
