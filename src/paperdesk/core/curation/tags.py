"""Tags: add and remove on many papers at once, rename, merge, delete, list.

Tags match case-insensitively (``tag_key``: NFKC, case-folded, spacing
collapsed) and keep the spelling the user first typed. Each operation is one
undoable edit; the full-text index follows through the schema's triggers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from paperdesk.core.db import changes as ch
from paperdesk.core.db import tags_table
from paperdesk.core.db.annotations import in_bulk
from paperdesk.core.db.database import Database
from paperdesk.core.db.edits import Tagged, TagsMerged, Untagged
from paperdesk.core.model.errors import CurationError, NotFound
from paperdesk.core.model.text import MAX_TAG_LENGTH as MAX_TAG_LENGTH
from paperdesk.core.model.text import plural, tag_key, tag_name

if TYPE_CHECKING:
    from paperdesk.core.library import Library

def _names(names: Iterable[str] | str) -> dict[str, str]:
    """key -> name, first spelling wins, order kept."""
    if isinstance(names, str):
        names = [names]
    out: dict[str, str] = {}
    for name in names:
        clean = tag_name(name)
        out.setdefault(tag_key(clean), clean)
    return out


def _refuse_new_commas(db: Database, names: Iterable[str]) -> None:
    """A new tag cannot hold a comma: BibTeX keywords, CSL-JSON and the window's tag field
    split on commas. (A .bib file's keywords split at ";" may hold one: MeSH terms.)"""
    for name in names:
        if "," in name and db.execute("SELECT 1 FROM tags WHERE name_key = ?",
                                      [tag_key(name)]).fetchone() is None:
            raise CurationError(f"a tag cannot hold a comma ({name!r}): exported keywords "
                                "are split on commas; use two tags, or another character")


def _find(db: Database, name: str) -> dict[str, Any]:
    row = db.execute("SELECT id, name FROM tags WHERE name_key = ?",
                     [tag_key(tag_name(name))]).fetchone()
    if row is None:
        raise NotFound(f"no tag named {name!r}")
    return {"id": row[0], "name": row[1]}



def tag_counts(db: Database) -> list[dict[str, Any]]:
    """Every tag with how many papers (not in the trash) carry it, by name."""
    return [{"name": r[0], "count": r[1]} for r in db.execute(
        """SELECT t.name, count(p.id) FROM tags t
           LEFT JOIN paper_tags pt ON pt.tag_id = t.id
           LEFT JOIN papers p ON p.id = pt.paper_id AND p.deleted_at IS NULL
           GROUP BY t.id ORDER BY t.name COLLATE NOCASE, t.id""")]

class Tags:
    def __init__(self, lib: Library) -> None:
        self.lib = lib

    def tags(self) -> list[dict[str, Any]]:
        """Every tag with how many papers (not in the trash) carry it, by name."""
        return tag_counts(self.lib.db)

    def add_tags(self, ids: Iterable[int], names: Iterable[str] | str) -> ch.Changes:
        ids = self.lib.require(ids)
        wanted = _names(names)
        _refuse_new_commas(self.lib.db, wanted.values())
        if not ids or not wanted:
            return ch.NOTHING
        keys = tuple(wanted)
        label = f"Tag {plural(len(ids), 'paper')} with {', '.join(wanted.values())}"
        with self.lib.edit(label, [ch.TAGS], ids) as e:
            db = self.lib.db
            tags_table.add_tags(db, [(name, key) for key, name in wanted.items()])
            with in_bulk(db, ids):
                e.result = Tagged(tags_table.tag(db, ids, keys))
        return e.changes

    def remove_tags(self, ids: Iterable[int], names: Iterable[str] | str) -> ch.Changes:
        """Take tags off papers; a tag left on no paper is deleted."""
        ids = self.lib.require(ids)
        keys = tuple(_names(names))
        if not ids or not keys:
            return ch.NOTHING
        label = f"Untag {plural(len(ids), 'paper')}"
        with self.lib.edit(label, [ch.TAGS], ids) as e:
            db = self.lib.db
            with in_bulk(db, ids):
                e.result = Untagged(tags_table.untag(db, ids, keys))
            # A tag no paper carries any more goes (the trash still counts as carrying).
            tags_table.drop_unused(db, keys)
        return e.changes

    def _tag_papers(self, tag_ids: Sequence[int]) -> list[int]:
        marks = ",".join("?" * len(tag_ids))
        return [r[0] for r in self.lib.db.execute(
            f"SELECT DISTINCT paper_id FROM paper_tags WHERE tag_id IN ({marks})", list(tag_ids))]

    def rename_tag(self, old: str, new: str) -> ch.Changes:
        """Rename a tag (a change of case only is a rename too).

        Renaming onto the name of another tag is refused: that is a merge.
        """
        tag = _find(self.lib.db, old)
        name = tag_name(new)
        if name != tag["name"]:
            _refuse_new_commas(self.lib.db, [name])
        clash = self.lib.db.execute("SELECT name FROM tags WHERE name_key = ? AND id != ?",
                                    [tag_key(name), tag["id"]]).fetchone()
        if clash:
            raise CurationError(f"a tag named {clash[0]!r} already exists; merge the tags instead")
        if name == tag["name"]:
            return ch.NOTHING
        papers = self._tag_papers([tag["id"]])
        label = f"Rename tag {tag['name']} to {name}"
        with self.lib.edit(label, [ch.TAGS], papers) as e:
            tags_table.rename(self.lib.db, tag["id"], name, tag_key(name))
        return e.changes

    def merge_tags(self, source: str, target: str) -> ch.Changes:
        """Give every paper tagged ``source`` the tag ``target``, then delete ``source``."""
        src, dst = _find(self.lib.db, source), _find(self.lib.db, target)
        if src["id"] == dst["id"]:
            raise CurationError(f"cannot merge tag {src['name']!r} into itself")
        ids = (src["id"], dst["id"])
        papers = self._tag_papers(ids)
        label = f"Merge tag {src['name']} into {dst['name']}"
        with self.lib.edit(label, [ch.TAGS], papers) as e:
            db = self.lib.db
            with in_bulk(db, papers):
                moved = tags_table.retag(db, src["id"], dst["id"])
                tags_table.delete_tag(db, src["id"])
            e.result = TagsMerged(moved)
        return e.changes

    def delete_tag(self, name: str) -> ch.Changes:
        tag = _find(self.lib.db, name)
        papers = self._tag_papers([tag["id"]])
        with self.lib.edit(f"Delete tag {tag['name']}", [ch.TAGS], papers) as e:
            with in_bulk(self.lib.db, papers):
                tags_table.delete_tag(self.lib.db, tag["id"])
            e.result = Untagged(len(papers))
        return e.changes
