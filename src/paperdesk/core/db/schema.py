"""The library schema: every version of it, as numbered migrations in one place.

The steps are a sqlite-utils ``Migrations`` set in ``migrations`` (each in one
transaction together with the record that it ran, in ``_sqlite_migrations``);
this module names them in order, so that opening an up-to-date library reads
that record without loading sqlite-utils. A library whose record names a
migration this version does not know was written by a newer PaperDesk and is
refused.

The full-text index (``papers_fts``: titles and abstracts; ``annotations_fts``:
the notes, tags and highlights of the papers that have some, migrations 0014 and 0031) and the
cached ``upvotes`` (the digests' count or the Hub's, the larger) and ``seen_count``
on papers are kept up to date by triggers,
so every write path, undo included, leaves them right.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

from paperdesk.core.db import (
    schema_0002,
    schema_0010,
    schema_0014,
    schema_0021,
    schema_0024,
    schema_0031,
)
from paperdesk.core.db.database import Database

APPLICATION_ID = 0x50445344  # "PDSD": marks a SQLite file as a PaperDesk library

STATUSES = ("unread", "to-read", "reading", "read")

# The triggers that keep derived data right on every write path, as the
# latest migration that touched them wrote them: the text rows' from 0014, the
# annotation rows' (notes, tags, highlights) from 0031, the papers' statistics from
# 0024 (0002's others). They are dropped and recreated around bulk imports (see
# store.bulk_index).
TRIGGERS = [t for t in schema_0014.TRIGGERS if t.split()[2] not in schema_0031.TRIGGER_NAMES] + [
    t for t in schema_0002.TRIGGERS
    if t.split()[2] not in schema_0014.TRIGGER_NAMES + schema_0024.TRIGGER_NAMES
] + schema_0024.TRIGGERS + schema_0031.TRIGGERS
TRIGGER_NAMES = [t.split()[2] for t in TRIGGERS]
# The papers' momentum (0010) has triggers of its own, dropped and recreated
# around bulk imports too, and a statement recomputing it for the papers the
# subquery {papers} selects.
MOMENTUM_TRIGGERS = schema_0010.TRIGGERS
MOMENTUM_TRIGGER_NAMES = [t.split()[2] for t in MOMENTUM_TRIGGERS]
MOMENTUM_BULK = schema_0010.BULK
# The keys that leave with their paper are kept by triggers of their own (0018, as 0021
# wrote them again), never dropped: a bulk import only adds papers.
KEY_TRIGGERS = schema_0021.TRIGGERS
# Indexes on papers whose keys come in no order as papers are added (titles,
# citation keys, years, upvotes): a large first import builds them once at its
# end (store.bulk_index) rather than entering each new row at a random place.
LOAD_INDEXES = ["papers_title_key", "papers_citekey_fold", "papers_citekey_any", "papers_year",
                "papers_upvotes"]

# The migration set recorded in ``_sqlite_migrations`` (sqlite-utils' layout), and its
# steps in order. The steps themselves are in ``migrations``, which loads sqlite-utils:
# only a library that needs them pays for that.
MIGRATION_SET = "paperdesk"
MIGRATIONS = (
    "0001_initial",
    "0002_list_and_trash_indexes",
    "0003_duplicate_candidates",
    "0004_sort_index",
    "0005_bibtex_fields",
    "0006_citekey_fold_index",
    "0007_citekey_frozen",
    "0008_freeze_existing_keys",
    "0009_paper_sources",
    "0010_momentum",
    "0011_syncs",
    "0012_year_inferred_index",
    "0013_bib_sources",
    "0014_annotations_fts",
    "0015_bib_file",
    "0016_frozen_keys",
    "0017_id_tops",
    "0018_retired_keys",
    "0019_tag_ids",
    "0020_retired_keys_of_merges",
    "0021_retired_key_owners",
    "0022_carried_keys",
    "0023_sync_library",
    "0024_hub_upvotes_and_seen",
    "0025_imports_and_follows",
    "0026_sync_generations",
    "0027_paper_uids",
    "0028_attachments_and_highlights",
    "0029_share",
    "0030_published_versions",
    "0031_highlights_searched",
    "0032_shared_keys",
)
_TABLE = "_sqlite_migrations"


def known_migrations() -> list[str]:
    return list(MIGRATIONS)


def applied(db: Database) -> list[str]:
    """Names of the applied migrations of this set, in the order they ran."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                  [_TABLE]).fetchone() is None:
        return []
    return [r[0] for r in db.execute(
        f"SELECT name FROM {_TABLE} WHERE migration_set = ? ORDER BY rowid", [MIGRATION_SET])]


def pending(db: Database) -> list[str]:
    done = set(applied(db))
    return [name for name in MIGRATIONS if name not in done]


@contextlib.contextmanager
def triggers_off(db: Database, triggers: Sequence[str]) -> Iterator[None]:
    """Inside a write: the ``triggers`` (their CREATE statements) dropped for the block
    and made again after it, for code that writes in sets what they write row by row;
    an error rolls the drop back with the rest of the write."""
    assert db.conn.in_transaction, "triggers are dropped inside a write only"
    for trigger in triggers:
        db.execute(f"DROP TRIGGER {trigger.split()[2]}")
    yield
    for trigger in triggers:
        db.execute(trigger)


def recreate_triggers(db: Database) -> None:
    """Drop and create every trigger from its current definition."""
    for name in TRIGGER_NAMES:
        db.execute(f"DROP TRIGGER IF EXISTS {name}")
    for statement in TRIGGERS:
        db.execute(statement)


