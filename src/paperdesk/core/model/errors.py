"""The errors the core raises on purpose. Each carries a one-line message for people."""


class PaperDeskError(Exception):
    """Base class: str(error) is a complete, one-line message."""


class DigestError(PaperDeskError):
    """A file is not a digest PaperDesk can read (empty, binary, prose...)."""


class LibraryError(PaperDeskError):
    """The library file cannot be opened or written."""


class NoLibrary(LibraryError):
    """There is no library at the path, and none was to be made there."""


class LibraryBusy(LibraryError):
    """Another program holds the library's write lock for too long."""


class QueryError(PaperDeskError):
    """A search query is malformed."""


class NotFound(PaperDeskError):
    """A paper, tag, note or other record does not exist."""


class Cancelled(PaperDeskError):
    """A long job was cancelled by its caller; nothing it did was kept."""


class CurationError(PaperDeskError):
    """A curation value is not acceptable (a rating of 7, an empty tag...)."""


class CitekeyError(PaperDeskError):
    """A citation key the user typed is not acceptable (empty, spaces, already used)."""


class DuplicateError(PaperDeskError):
    """A merge, unmerge or not-duplicates request that cannot be carried out."""


class BibtexError(PaperDeskError):
    """A BibTeX export or import cannot be done (bad style, unreadable file...)."""


class PdfError(PaperDeskError):
    """A PDF cannot be read: not a PDF, damaged, encrypted, or past the time or memory
    its reading may take (the message names the file)."""
