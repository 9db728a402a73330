"""The write kernel: one library connection's transactions, their ``Changes``, and
the listeners that hear them.

Every write of the library goes through ``Kernel.write``: one ``BEGIN IMMEDIATE``
transaction (a nested write is a savepoint of the open one), the record of what kept-in-
sync files must catch up with (``sync_changes``), and after the commit a ``Changes``
every listener hears. ``Kernel.edit`` is a write whose table writers image the rows they
write (``images``): the images are its undo. The kernel lives on the store's floor, so the
areas of work call down to it; ``Library`` (core/library.py) is the kernel with its areas
and its reads, the facade the GUI and the CLI call.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from paperdesk.core.db import changes as ch
from paperdesk.core.db import dbfile, images, records, store, sync_changes
from paperdesk.core.db.changes import Write
from paperdesk.core.db.database import Database, select_in
from paperdesk.core.model.errors import NotFound

Listener = Callable[[ch.Changes], object]  # what it returns is not read


class Kernel:
    """One open library connection and its write path."""

    def __init__(self, db: Database, path: Path) -> None:
        self.db = db
        self.path = path
        self._listeners: list[Listener] = []
        self._queued: list[ch.Changes] = []  # changes of writes nested in the open one
        self._file = dbfile.key(path)
        self._watch = dbfile.Watch(db, self._file)  # writes by other programs

    # -- the change feed ---------------------------------------------------------

    def add_listener(self, fn: Listener) -> None:
        """Call ``fn(changes)`` after every committed write and every undo and redo."""
        if fn not in self._listeners:
            self._listeners.append(fn)

    def remove_listener(self, fn: Listener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(fn)

    def notify(self, changes: ch.Changes) -> None:
        """Tell the listeners about ``changes``: now, or when the open transaction commits.

        The write kernel calls it after each commit; whoever committed changes
        through another connection to this library in this process (the GUI's
        worker) calls it too. Inside a transaction even empty changes are
        queued: they say the write accounted for itself. A listener that fails
        is logged; the others still hear, and the write stays committed.
        """
        if self.db.conn.in_transaction:
            self._queued.append(changes)
            return
        if not changes.kinds:
            return
        for fn in list(self._listeners):
            try:
                fn(changes)
            except Exception:  # the write is committed: a listener cannot take it back
                import logging  # only when a listener fails: a command need not load it

                logging.getLogger("paperdesk").exception("change listener %r failed", fn)

    def external_changes(self) -> ch.Changes | None:
        """What other programs committed to the library since the last call (a
        command, a sync, a restore), as a change of every kind (``how`` is
        ``OUTSIDE``); None when nothing was. Cheap: one ``PRAGMA data_version``."""
        try:
            outside_write = self._watch.changed()
        except sqlite3.Error as exc:
            raise store.translate(exc, self.path) from None
        return ch.Changes("outside", ch.ALL_KINDS, how=ch.OUTSIDE) if outside_write else None

    # -- writing: one kernel -----------------------------------------------------

    @contextlib.contextmanager
    def write(self, label: str, kinds: Iterable[str] = (),
              paper_ids: Iterable[int] = ()) -> Iterator[Write]:
        """The write kernel: one transaction, whose ``Changes`` the listeners hear
        when it commits. A write inside another is a savepoint of it, heard at
        the outer commit. The block may set ``changes`` itself; otherwise they
        are made of ``kinds`` and ``paper_ids``. A write given no kinds that
        sets no changes (a raw ``transaction``) is heard as the changes of the
        writes nested in it, or, when it changed rows all by itself, as a
        change of every kind."""
        w = Write(label, set(kinds), set(paper_ids))
        outer = not self.db.conn.in_transaction
        before = self.db.conn.total_changes
        try:
            with store.write(self.db):
                yield w
                sync_changes.written(self.db, w, self._queued if outer else None, before)
        except sqlite3.Error as exc:
            raise store.translate(exc, self.path) from None
        finally:
            nested = self._queued if outer else []
            if outer:
                self._queued = []
        changed_rows = self.db.conn.total_changes != before
        if w.made is None and (w.kinds or w.paper_ids) and changed_rows:
            w.changes = ch.Changes(label, frozenset(w.kinds), frozenset(w.paper_ids),
                                   None, w.result)
        if w.made is not None:
            self.notify(w.changes)  # queued when nested, heard now when outer
        elif outer:
            if not nested and changed_rows:
                nested = [ch.Changes(label, ch.ALL_KINDS)]
            for changes in nested:
                self.notify(changes)
        if w.made is None:
            w.changes = ch.combine(label, nested)

    @contextlib.contextmanager
    def transaction(self, kinds: Iterable[str] | None = None) -> Iterator[Database]:
        """A raw write transaction; sqlite errors come out as one-line LibraryErrors.

        The listeners hear of it as of a ``write`` of ``kinds``; when they are not
        given, as the changes of the writes nested in it, or of everything.
        """
        with self.write("write", kinds or ()):
            yield self.db

    @contextlib.contextmanager
    def edit(self, label: str, kinds: Iterable[str], paper_ids: Iterable[int] = (),
             scopes: Sequence[ch.Scope] = ()) -> Iterator[Write]:
        """An undoable write: the table writers called in the block image the rows
        they write, before and after (``images.recorded``), and the images are the
        edit's undo. ``scopes`` images regions up front, for a block that writes
        with SQL of its own (none of the features: the writers name their rows).
        """
        with self.write(label, kinds, paper_ids) as e:
            with images.recorded(self.db, scopes) as recording:
                yield e
            taken = recording.close()
            if e.made is None:
                changed = any(i.before != i.after for i in taken)
                e.changes = ch.Changes(
                    label, frozenset(e.kinds if changed else ()),
                    frozenset(e.paper_ids if changed else ()),
                    ch.Undo(label, taken) if changed else None, e.result)

    def require(self, paper_ids: Iterable[int]) -> list[int]:
        """The ids, checked to exist; NotFound names the first missing one."""
        ids = list(dict.fromkeys(int(i) for i in paper_ids))
        if not ids:
            return ids
        stored = [i for i in ids if records.storable(i)]  # beyond SQLite's integers: missing
        found = {r[0] for r in select_in(self.db, "SELECT id FROM papers WHERE id IN ({marks})",
                                         stored)}
        missing = [i for i in ids if i not in found]
        if missing:
            raise NotFound(f"no paper with id {missing[0]}")
        return ids
