"""The shared Loro document: read as the library would hold it (``state``), and
written with what the library changed since it last matched it (``push``).

Every merge is the engine's: a register per field, a map used as a set for tags,
text for notes, a movable list for the queue. PaperDesk's own rules here: a paper
merged into another on some computer (``MERGED``) is not a paper of its own, and
its tags and notes count as the kept paper's, so a tag given to it on a computer
that had not seen the merge stays on the kept paper.
"""

from __future__ import annotations

from typing import Any, cast

import loro

from paperdesk.core.share import fields as f
from paperdesk.core.share.fields import kept_paper
from paperdesk.core.share.library_state import Paper, State, queued


def queue_name(person: str | None) -> str:
    return f.QUEUE if person is None else f"{f.QUEUE}:{person}"


def state(doc: loro.LoroDoc, person: str | None = None) -> State:
    """The library the document describes, for ``person`` (None: one person's library)."""
    return state_of(cast(dict[str, Any], doc.get_deep_value()), person)


def refreshed(doc: loro.LoroDoc, value: dict[str, Any],
              since: loro.VersionVector) -> dict[str, Any]:
    """``value``, the document's whole value at ``since``, made its value now by reading
    again only the roots that changed since (the engine names the containers each
    change touched): reading the whole of a large document is most of an exchange."""
    spans = doc.oplog_vv.sub_vec(since).inner()
    if not value or sum(end - start for start, end in spans.values()) > len(value):
        return cast(dict[str, Any], doc.get_deep_value())  # most of it changed: all at once
    out = dict(value)
    roots = changed_roots(doc, since)
    for name in roots:  # every root is a map but the queues, which are movable lists
        root = doc.get_movable_list(name) if name.startswith(f.QUEUE) else doc.get_map(name)
        out[name] = root.get_deep_value()
    return out


def changed_roots(doc: loro.LoroDoc, since: loro.VersionVector) -> set[str]:
    """The names of the root containers changed since ``since`` (a note's text counts
    as a change of the root holding it): the engine names the containers each change
    touched."""
    roots: set[str] = set()
    for peer, (start, end) in _spans(doc, since).items():
        for cid in doc.get_changed_containers_in(loro.ID(peer, start), end - start):
            if isinstance(cid, loro.ContainerID.Root):
                roots.add(cid.name)
            else:
                path = doc.get_path_to_container(cid) or []
                if path and isinstance(path[0][0], loro.ContainerID.Root):
                    roots.add(path[0][0].name)
    return roots


def roots_if_few(doc: loro.LoroDoc, since: loro.VersionVector,
                 most: int = 20_000) -> set[str] | None:
    """``changed_roots``, or None where more than ``most`` changes came since (a join:
    asking the engine change by change would cost more than reading everything)."""
    if sum(end - start for start, end in _spans(doc, since).values()) > most:
        return None
    return changed_roots(doc, since)


def _spans(doc: loro.LoroDoc, since: loro.VersionVector) -> dict[int, tuple[int, int]]:
    return doc.oplog_vv.sub_vec(since).inner()


def state_of(value: dict[str, Any], person: str | None = None) -> State:
    """``state`` of the document's whole value (``LoroDoc.get_deep_value``)."""
    merged = f.live_marks(value.get(f.MERGED) or {})
    own_prefix = f"{f.OWN}{person}:"
    out = State()
    for root, fields in value.items():
        if not root.startswith(f.PAPER):
            continue
        uid = root[len(f.PAPER):]
        if uid in merged or fields.get(f.GONE):
            continue
        paper: Paper = f.values(fields, f.SHARED)
        registers = value.get(own_prefix + uid) or {} if person is not None else fields
        paper.update(f.values(registers, f.PERSONAL))
        paper[f.FROZEN] = f.value(fields, f.FROZEN)
        paper[f.TAGS] = dict(value.get(f.TAG_SET + uid) or {})
        paper[f.NOTES] = dict(value.get(f.NOTE_MAP + uid) or {})
        out.papers[uid] = paper
    _one_paper_a_note(out)
    # A note is one paper's: one held by a paper is not folded into another as well.
    held = {n for p in out.papers.values() for n in p[f.NOTES]}
    for uid, kept in sorted(merged.items()):
        target = kept_paper(kept, merged)
        if target in out.papers:
            out.papers[target][f.TAGS] = {**(value.get(f.TAG_SET + uid) or {}),
                                          **out.papers[target][f.TAGS]}
            notes = {n: t for n, t in (value.get(f.NOTE_MAP + uid) or {}).items()
                     if n not in held}
            held.update(notes)
            out.papers[target][f.NOTES] = {**notes, **out.papers[target][f.NOTES]}
    out.queue = queued(out.papers, [str(u) for u in value.get(queue_name(person)) or []])
    _one_paper_a_key(out)
    return out


def _one_paper_a_note(out: State) -> None:
    """A note two papers' maps hold (each moved there by a merge on some computer) is
    the paper's with the lowest stable id, alike everywhere."""
    seen: set[str] = set()
    for uid in sorted(out.papers):
        notes = out.papers[uid][f.NOTES]
        for n in [n for n in notes if n in seen]:
            del notes[n]
        seen.update(notes)  # in place: ``seen |= notes.keys()`` copies the set each time


def _one_paper_a_key(out: State) -> None:
    """Two computers gave two papers one citation key (or keys that differ only in
    case). A key that left PaperDesk (frozen) never changes: every paper whose key
    left keeps it, and when two or more did, ``conflicts`` names each past the first
    (the lowest stable id), for the user to be told (a document may cite either), and
    ``shared`` holds them all. A paper whose key never left shows it with its id's first
    letters, alike everywhere."""
    holders: dict[str, list[str]] = {}
    for uid, paper in out.papers.items():
        if paper["citekey"]:
            holders.setdefault(paper["citekey"].lower(), []).append(uid)
    for uids in holders.values():
        if len(uids) < 2:
            continue
        uids.sort(key=lambda u: (not out.papers[u][f.FROZEN], u))
        left = [u for u in uids if out.papers[u][f.FROZEN]]
        if len(left) > 1:
            out.shared.update(left)
            for uid in left[1:]:
                out.conflicts[uid] = out.papers[uid]["citekey"]
        for uid in uids[max(1, len(left)):]:
            paper = out.papers[uid]
            paper["citekey"] = f"{paper['citekey']}-{uid[:4]}"


def push(doc: loro.LoroDoc, base: State, local: State, person: str | None = None,
         merged: dict[str, str] | None = None) -> int:
    """Write into ``doc`` what ``local`` (the library now) changed since ``base`` (the
    document as the library last matched it); ``merged``: papers merged away here
    since, into which kept paper. How many registers, tags and notes were written."""
    written = 0
    merged = merged or {}
    marks = doc.get_map(f.MERGED)
    moved_in: dict[str, set[str]] = {}
    tags_in: dict[str, set[str]] = {}
    for m, kept in merged.items():
        moved_in.setdefault(kept, set()).update((base.papers.get(m) or {}).get(f.NOTES, {}))
        tags_in.setdefault(kept, set()).update((base.papers.get(m) or {}).get(f.TAGS, {}))
    for uid, paper in local.papers.items():
        before = base.papers.get(uid)
        if before == paper:
            continue  # most papers: nothing to write, and no container looked up
        node = doc.get_map(f.PAPER + uid)
        if before is None and node.get(f.GONE) is not None:
            node.insert(f.GONE, None)  # made again after the trash was emptied of it
        if before is None and marks.get(uid) is not None:
            marks.delete(uid)  # unmerged here: a paper of its own again
        own = doc.get_map(f"{f.OWN}{person}:{uid}") if person is not None else node
        fresh = before is None and node.is_empty(), before is None and own.is_empty()
        written += _push_registers(node, before, paper, (*f.SHARED, f.FROZEN), fresh[0])
        written += _push_registers(own, before, paper, f.PERSONAL, fresh[1])
        # tags a merge here moved in stay in the merged paper's set, folded in from there
        # (so that an unmerge from the document, on any computer, takes them back)
        old_tags = (before or {}).get(f.TAGS, {})
        written += _push_tags(doc, uid, old_tags, {
            k: t for k, t in paper[f.TAGS].items()
            if k in old_tags or k not in tags_in.get(uid, ())})
        # notes a merge here moved in stay in the merged paper's map, folded in from there
        moved = moved_in.get(uid, set())
        old_notes = (before or {}).get(f.NOTES, {})
        if old_notes != paper[f.NOTES]:
            written += _push_notes(doc.get_map(f.NOTE_MAP + uid), _without(old_notes, moved),
                                   _without(paper[f.NOTES], moved))
    for uid in base.papers.keys() - local.papers.keys():
        if uid in merged:
            marks.insert(uid, merged[uid])  # its own maps stay: late tags still fold in
        else:
            doc.get_map(f.PAPER + uid).insert(f.GONE, 1)
        written += 1
    if local.queue != base.queue:
        rewrite_queue(doc.get_movable_list(queue_name(person)), local.queue)
        written += 1
    if written:
        doc.commit()
    return written


def _push_registers(node: loro.LoroMap, before: Paper | None, paper: Paper,
                    names: tuple[str, ...], fresh: bool) -> int:
    """Write the registers ``names`` of ``paper`` that changed since ``before`` (None: a
    paper new to the document). Into a map no computer wrote yet (``fresh``), a value
    that reads the same unwritten (None, or the column's default) is left out: half
    the registers of a typical new paper, whose writing is most of a first share's
    time, and a paper made at once on two computers then keeps the values either one
    gave."""
    n = 0
    if fresh:
        for c in names:
            v = paper.get(c)
            if v is not None and v != f.DEFAULTS.get(c):
                node.insert(c, v)
                n += 1
        return n
    for c in names:
        if before is None or before.get(c) != paper.get(c):
            node.insert(c, paper.get(c))
            n += 1
    return n


def _push_tags(doc: loro.LoroDoc, uid: str, before: dict[str, str],
               after: dict[str, str]) -> int:
    if before == after:
        return 0
    tags = doc.get_map(f.TAG_SET + uid)
    n = 0
    for key, name in after.items():
        if before.get(key) != name:
            tags.insert(key, name)
            n += 1
    gone = before.keys() - after.keys()
    if gone:
        # a tag taken off a kept paper goes from the papers merged into it too
        merged = f.live_marks(cast(dict[str, str], doc.get_map(f.MERGED).get_value() or {}))
        for m, kept in merged.items():
            if kept_paper(kept, merged) == uid:
                other = doc.get_map(f.TAG_SET + m)
                for key in gone:
                    other.delete(key)
        for key in gone:
            tags.delete(key)
            n += 1
    return n


def _without(notes: dict[str, str], moved: set[str]) -> dict[str, str]:
    return {n: t for n, t in notes.items() if n not in moved} if moved else notes


def _push_notes(notes: loro.LoroMap, before: dict[str, str], after: dict[str, str]) -> int:
    n = 0
    for nuid, text in after.items():
        if before.get(nuid) != text:
            cast(loro.LoroText, notes.get_or_create_container(nuid, loro.LoroText())).update(text)
            n += 1
    for nuid in before.keys() - after.keys():
        notes.delete(nuid)
        n += 1
    return n


def rewrite_queue(q: loro.LoroMovableList, target: list[str]) -> None:
    """Make the list ``target`` by moves: an entry stays where it is unless the order
    around it changed, so moves made elsewhere meanwhile merge with these."""
    cur = [str(v) for v in cast(list[Any], q.get_value())]
    wanted = set(target)
    for i in reversed(range(len(cur))):
        if cur[i] not in wanted or cur.index(cur[i]) != i:
            q.delete(i, 1)
            cur.pop(i)
    seen = set(cur)
    for i, uid in enumerate(target):
        if i < len(cur) and cur[i] == uid:
            continue
        if uid in seen:
            j = cur.index(uid)
            q.mov(j, i)
            cur.insert(i, cur.pop(j))
        else:
            q.insert(i, uid)
            cur.insert(i, uid)
            seen.add(uid)
