"""When kept-in-sync files are written: one listener on the change feed.

``Pending`` hears every ``Changes`` of a library and remembers what the syncs
must catch up with: which papers changed, or (for changes that do not say
which papers, such as merges, digests or a raw write) everything. The command
line flushes it when a command ends (``AfterCommand``); the window debounces
it and writes on a thread of its own (``gui/bibtex/sync_panel.py``).

What makes a change reach every file is not this listener, which dies with its
program, but the library's own record (``core/db/sync_changes.py``): the write
that commits a change says in the same transaction that the syncs have it to
catch up with. A command (before it runs and when it ends) and the window write
every sync they find pending (``catch_up(found=True)``), so a change whose
program was killed after its commit reaches the files all the same.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import TYPE_CHECKING

from paperdesk.core.db import changes as ch
from paperdesk.core.db.sync_changes import CONTENT, PRECISE
from paperdesk.core.model.errors import PaperDeskError

if TYPE_CHECKING:  # syncs load when a command wrote something a sync may show
    from paperdesk.core.library import Library
    from paperdesk.core.sync.sync_write import Outcome
    from paperdesk.core.sync.syncs import Sync



class Pending:
    """What the syncs have to catch up with. Thread-safe: the window's listener
    adds on the UI thread while its writer takes on another."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.dirty = False
        self.searches = False  # saved searches changed: syncs of a saved search
        self.everything = False
        self.ids: set[int] = set()

    def hear(self, changes: ch.Changes) -> bool:
        """Take in ``changes``; True when a synced file may have to change.

        Writes by other programs are not taken in: the program that made them
        writes the syncs they concern (as every command does when it ends)."""
        if changes.how == ch.OUTSIDE:
            return self.dirty
        kinds = changes.kinds
        content = bool(kinds & CONTENT)
        with self._lock:
            if ch.SEARCHES in kinds:
                self.searches = self.dirty = True
            if not content:
                return self.dirty
            self.dirty = True
            if kinds <= PRECISE and changes.paper_ids:
                self.ids |= changes.paper_ids
            else:
                self.everything = True
        return True

    def take(self) -> tuple[bool, bool, set[int] | None]:
        """(anything, saved searches changed, changed ids or None for all); resets."""
        with self._lock:
            taken = (self.dirty, self.searches, None if self.everything else set(self.ids))
            self.dirty = self.searches = self.everything = False
            self.ids = set()
        return taken


def concerned(sync: Sync, searches: bool, changed: set[int] | None) -> bool:
    """Whether a change (``take``'s values) may change this sync's file."""
    return changed is None or bool(changed) or (searches and sync.source == "search")


def catch_up(lib: Library, pending: Pending, *, found: bool = False,
             among: list[Sync] | None = None) -> list[Outcome]:
    """Write every sync the pending changes concern; with ``found``, every sync the
    library says is pending too (changes of a program that stopped before it wrote
    them), without waiting for a file another program is writing now (its outcome is
    then ``pending``). Stopped syncs wait for the user. The syncs are read once
    (``among``: as the caller just read them); each is read again under its file's
    lock when written."""
    from paperdesk.core.sync.syncs import CONFLICT, Syncs

    dirty, searches, changed = pending.take()
    if not dirty and not found:
        return []
    syncs = Syncs(lib)
    every = syncs.all() if among is None else among
    behind = {s.id for s in syncs.behind(every)} if found else set()
    outcomes = []
    for sync in every:
        if sync.state == CONFLICT:
            continue
        if dirty and concerned(sync, searches, changed):
            outcomes.append(syncs.write(sync, changed=changed))
        elif sync.id in behind:  # the entries changed are the library's to say
            outcomes.append(syncs.write(sync, changed=set(), wait=0))
    return outcomes


class AfterCommand:
    """The command line's listener: hears a command's writes, writes the syncs when
    the command ends (``flush``)."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self.pending = Pending()
        lib.add_listener(self.pending.hear)

    def unresolved(self) -> list[Sync]:
        """The syncs that failed or stopped (said after every command until resolved)."""
        try:
            if not self.lib.db.execute("SELECT 1 FROM syncs LIMIT 1").fetchone():
                return []  # no sync: the syncs' code is not loaded
            from paperdesk.core.sync.syncs import Syncs

            return Syncs(self.lib).stopped()
        except (PaperDeskError, sqlite3.Error):  # a library that cannot be read says so
            return []

    def found(self) -> list[Outcome]:
        """Before the command: write the syncs the library says are pending."""
        if not self._any():
            return []
        return catch_up(self.lib, Pending(), found=True)

    def flush(self) -> list[Outcome]:
        """When the command ends: write the syncs its changes concern, and any the
        library says are pending."""
        self.lib.remove_listener(self.pending.hear)
        if not self._any():
            return []
        return catch_up(self.lib, self.pending, found=True)

    def _any(self) -> bool:
        try:
            return bool(self.lib.db.execute("SELECT 1 FROM syncs LIMIT 1").fetchone())
        except (PaperDeskError, sqlite3.Error):  # a library that cannot be read says so
            return False


class SyncFeed:
    """``lib.sync_feed``: what the command line and the window follow the library's
    changes with, to write the kept-in-sync files they concern."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def pending(self) -> Pending:
        """A new record of what the syncs must catch up with (its ``hear`` listens)."""
        return Pending()

    def catch_up(self, pending: Pending, *, found: bool = False,
                 among: list[Sync] | None = None) -> list[Outcome]:
        """Write, in this library, every sync the ``pending`` changes concern (and with
        ``found``, every one the library says is pending: ``catch_up``; ``among``: the
        syncs as just read)."""
        return catch_up(self.lib, pending, found=found, among=among)

    def after_command(self) -> AfterCommand:
        """A listener from now on that writes the syncs when the command ends."""
        return AfterCommand(self.lib)
