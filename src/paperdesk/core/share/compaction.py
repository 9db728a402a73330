"""Update files folded into a snapshot leave the folder once every computer has seen
them (``prune``), so the folder stops growing with every exchange.

Each computer says what it has read in a small file of its own (``DEVICE.pdseen``,
written when that changes): the names of the update files and snapshots it holds.
A file held by a snapshot in the folder (a snapshot holds every file its writer had
read, and older snapshots too) is removed once each computer known to the folder (by
its seen file, or by the update files it wrote) has read that file or that snapshot,
or has been away longer than ``AWAY_DAYS`` by its seen file's stamp. A computer away
longer converges all the same: it has not read the newer snapshot, so it reads it
whole, and the snapshot holds everything the removed files held.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from paperdesk.core.share import files

SEEN_SUFFIX = ".pdseen"
AWAY_DAYS = 30


def write_seen(folder: Path, device: str, read: dict[str, str], stamp: str) -> bool:
    """This computer's seen file, when what it has read changed or its stamp is a
    tenth of the days that make a computer away old (a computer that exchanges in a
    quiet folder is not taken for one that went away); whether written."""
    names = sorted(read)
    got = _seen_file(folder / f"{device}{SEEN_SUFFIX}")
    fresh = got is not None and _when(got.get("stamp")) >= _when(stamp) - timedelta(
        days=AWAY_DAYS / 10)
    if got is not None and got.get("read") == names and fresh:
        return False
    files.write(folder / f"{device}{SEEN_SUFFIX}",
                json.dumps({"read": names, "stamp": stamp}).encode(), kind="seen",
                device=device)
    return True


def seen_by(folder: Path, device: str) -> set[str]:
    """The files ``device``'s seen file says it read: what its committed exchanges held
    (the file is written after the commit)."""
    got = _seen_file(folder / f"{device}{SEEN_SUFFIX}")
    listed = got.get("read") if got is not None else None
    return {str(n) for n in listed} if isinstance(listed, list) else set()


def _seen_file(path: Path) -> dict[str, Any] | None:
    try:
        _, data = files.unpack(path.read_bytes())
        got = json.loads(data)
    except (OSError, ValueError, files.Torn, files.Newer):
        return None
    return got if isinstance(got, dict) else None


def seen(folder: Path) -> dict[str, dict[str, Any]]:
    """Every computer's seen file: device -> {"read": [...], "stamp": ...}."""
    out = {}
    try:
        listed = os.listdir(folder)
    except FileNotFoundError:
        return {}
    for name in listed:
        if name.endswith(SEEN_SUFFIX) and not name.startswith("."):
            got = _seen_file(folder / name)
            if got is not None:
                out[name[:-len(SEEN_SUFFIX)]] = got
    return out


def prune(folder: Path, device: str, read: dict[str, str], stamp: str) -> list[str]:
    """Remove the files held by a snapshot this computer has read that every other
    computer has seen (or is away); the names removed (they leave ``read`` too)."""
    listed = [n for n in os.listdir(folder) if files.is_ours(n)]
    others = seen(folder)
    others.pop(device, None)
    writers = {n.split("-", 1)[0] for n in listed if n.endswith(files.UPDATE_SUFFIX)}
    if writers - others.keys() - {device}:
        return []  # a computer that never said what it read: nothing goes
    here = _when(stamp)
    present = {d: set(p.get("read") or ()) for d, p in others.items()
               if _when(p.get("stamp")) >= here - timedelta(days=AWAY_DAYS)}
    removed: list[str] = []
    for snap in (n for n in listed if n.endswith(files.SNAPSHOT_SUFFIX) and n in read):
        holds = _holds(folder / snap)
        for name in listed:
            if name in removed or name == snap or name not in holds:
                continue
            if all(name in names or snap in names for names in present.values()):
                (folder / name).unlink(missing_ok=True)
                removed.append(name)
    for name in removed:
        read.pop(name, None)
    return removed


def _holds(path: Path) -> set[str]:
    """The files a snapshot holds, from its header alone (a snapshot is large)."""
    try:
        with path.open("rb") as file:
            line = file.readline(1 << 20)
        head = json.loads(line[len(files.MAGIC):]) if line.startswith(files.MAGIC) else {}
    except (OSError, ValueError):
        return set()
    return set(head.get("holds") or ()) if isinstance(head, dict) else set()


def _when(stamp: Any) -> datetime:
    try:
        return datetime.fromisoformat(str(stamp))
    except ValueError:
        return datetime.fromisoformat("1970-01-01T00:00:00+00:00")
