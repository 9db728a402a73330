"""The states of a kept-in-sync file, shared by ``syncs`` and ``sync_write``."""

NEW = "new"              # added, not written yet
OK = "up to date"
FAILED = "failed"        # a missing folder, a read-only file, a full disk: retried
CONFLICT = "conflict"    # changed by someone else: stopped until the user says
WRITING = "writing"      # only in a window, while its thread writes
CHANGED = "changed"      # the file on disk is not what PaperDesk last wrote (shown, not stored)
PENDING = "pending"      # the library has changes the file lacks (shown, not stored)
