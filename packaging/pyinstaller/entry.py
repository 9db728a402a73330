"""The bundle's entry point: the same `paperdesk` command as the wheel's."""

import multiprocessing

from paperdesk.app import main

if __name__ == "__main__":
    # A large .bib file is read in spawned processes (core/importing/bib_pool.py); in the
    # bundle each starts this executable again, and this turns it into that process.
    multiprocessing.freeze_support()
    raise SystemExit(main())
