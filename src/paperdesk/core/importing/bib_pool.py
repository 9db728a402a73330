"""Reading a large .bib file's chunks in other processes while this one writes.

Reading fields (LaTeX, names, the kept entry's JSON) costs more than writing the
rows, so a large file's chunks (``core/importing/bib_records.py``) go to reading
processes (``core/model/workers.py``: spawned, round robin, back in file order,
worked here should one die); the importing process matches and writes them
meanwhile. Small files, and machines with one core, are read in the importing
process, by the same code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from paperdesk.core.importing.bib_records import Chunk, ChunkResult, chunk_reader
from paperdesk.core.model import workers
from paperdesk.core.model.jobs import CancelFlag

PARALLEL_FROM = 8 * 2**20  # bytes (~10,000 entries); below, a start costs more than it saves
NAME = "paperdesk-bib-reader"


def reader_count(size: int) -> int:
    """How many reading processes a file of ``size`` bytes gets (0: read here)."""
    return 0 if size < PARALLEL_FROM else workers.helpers()


class ReaderPool(workers.Workers):
    """Reading processes, started when the pool is made (the .bib import makes it once
    the file is scanned and its text let go, so that they are not held beside it)."""

    def __init__(self, processes: int) -> None:
        super().__init__(processes, NAME)

    def read(self, chunks: Iterable[Chunk], strings: dict[str, str], string_keys: set[str],
             name: str, cancel: CancelFlag | None = None,
             shas: bool = True) -> Iterator[ChunkResult]:
        """Each chunk's result, in order (``shas``: see ``read_chunk``); the processes stop
        when the last one is read."""
        args = (strings, string_keys, name, shas)
        return self.run(chunk_reader, args, chunks, cancel, here=chunk_reader(*args))
