"""The environment the program's child processes start with: glibc's allocator told
to keep freed memory for reuse (``TUNABLES``).
"""

from __future__ import annotations

import os
import platform

# glibc's allocator hands freed blocks back to the system past a size (128 KiB, growing
# with use) and trims the heap's free top at once; PDFium allocates and frees its
# buffers at every page, so a child reading PDFs took a page fault for every 4 KiB of
# them (580,000 for 3,200 pages: a quarter of its time). Children keep up to 64 MiB of
# freed memory for the next page instead (bench/bench_pdf_text.py shows both).
TUNABLES = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864"


def tune_children() -> None:
    """Processes started from now on keep freed memory for reuse (``TUNABLES``; glibc
    reads them as a process starts, so this process is as it was). Only where the C
    library is glibc, and never over the user's own ``GLIBC_TUNABLES``. The entry point
    calls it before any thread runs; a worker's start calls it again for programs that
    use the library directly (the environment then changes once)."""
    if "GLIBC_TUNABLES" in os.environ or not _glibc():
        return
    os.environ["GLIBC_TUNABLES"] = TUNABLES


def _glibc() -> bool:
    # The standard library's answer, which knows each system (os.confstr is POSIX only).
    return platform.libc_ver()[0] == "glibc"
