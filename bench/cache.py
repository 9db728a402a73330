"""Cached generated libraries under bench/out/, named by the schema they were built under.

A name carries the latest migration (``-m0015-``), so that no run upgrades a library
on every open. When a new migration comes, a library cached under an older one (the
same name with ``-m0014-``) is brought up to date instead of being built again: its
pending migrations are applied as an open would apply them, without the automatic
backup an open takes first (a cache can be rebuilt).

By default the upgrade is made on a copy, and the older file stays for a checkout
that still uses it; ``in_place`` (a file too large to copy: the million) upgrades
the older file itself under the new name. A cached name that is a link (a worktree's
bench/out linking the main one's files) is followed: the new file goes beside the
file linked to, and a link of the new name takes the old one's place.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

from common import note

_MIGRATION = re.compile(r"-m(\d{4})-")


def latest() -> str:
    """The number of the latest migration, as a cache name carries it (``0015``)."""
    from paperdesk.core.db import schema

    return schema.known_migrations()[-1].split("_")[0]


def ready(path: Path, *, in_place: bool = False) -> bool:
    """Whether the cached library ``path`` (named for the latest migration) is there,
    after upgrading an older build of the same name when there is one."""
    if path.exists():
        return True
    older = _older(path)
    if older is None:
        return False
    source = older.resolve()
    target = source.with_name(path.name)
    work = source.with_name(path.name + ".upgrading")
    for stale in work.parent.glob(work.name + "*"):
        stale.unlink()  # a copy or an upgrade left half-way
    started = time.perf_counter()
    if in_place:
        source.rename(work)
    else:
        shutil.copyfile(source, work)
    copied = time.perf_counter() - started
    upgrade(work)
    work.rename(target)
    if older.is_symlink():
        if in_place:
            older.unlink()  # it linked to the file now upgraded and renamed
        path.symlink_to(target)
    note(f"{older.name} upgraded to {path.name}: {time.perf_counter() - started - copied:.1f} s"
         + ("" if in_place else f" (after {copied:.1f} s copying it)"))
    return True


def _older(path: Path) -> Path | None:
    """The newest cached build of ``path``'s name under an older migration."""
    found = _MIGRATION.search(path.name)
    if found is None:
        return None
    builds = sorted((int(m[1]), p) for p in path.parent.glob(_MIGRATION.sub("-m*-", path.name, 1))
                    if (m := _MIGRATION.search(p.name)) and int(m[1]) < int(found[1]))
    return builds[-1][1] if builds else None


def upgrade(file: Path) -> None:
    """Apply the pending migrations to the library ``file`` (no backup first)."""
    from paperdesk.core.db import migrations, store
    from paperdesk.core.db.database import Database

    conn = store.connect(file)
    try:
        db = Database(conn)
        with store.foreign_keys_off(db), store.write(db):
            migrations.apply(conn)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
