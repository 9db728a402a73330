"""The demo library: the sample digests, imported on first use."""

from __future__ import annotations

from paperdesk.core.db.paths import demo_library_path, seed_files
from paperdesk.core.library import Library
from paperdesk.core.model.errors import LibraryError


def open_demo() -> Library:
    path = demo_library_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    lib = Library.open(path, new=True)  # PaperDesk's own: rebuilt when missing
    if lib.stats()["digests"] == 0:
        reports = lib.import_paths(seed_files())
        failed = [r for r in reports if r.failed]
        if failed:
            lib.close()
            raise LibraryError(f"cannot build the demo library: {failed[0].error}")
    return lib
