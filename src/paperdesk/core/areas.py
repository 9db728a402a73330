"""The areas of work that hang off ``Library`` as small objects, each made when first
used and each in a module of its own: ``lib.curation``, ``lib.queue``, ``lib.triage``,
``lib.trash``, ``lib.browse``, ``lib.duplicates``, ``lib.imports`` (undoing an import),
``lib.bibtex``, ``lib.citations``, ``lib.syncs``, ``lib.sync_feed`` (when they are
written), ``lib.follows`` (the arXiv categories and authors Today brings),
``lib.pdf`` (a paper's PDFs: attached, listed, removed, opened), ``lib.reading`` (what
the PDF reader reads and keeps), ``lib.highlights`` (passages marked in a PDF),
``lib.fulltext`` (the text of the PDFs), ``lib.share`` (one library on several
computers), ``lib.published`` (the venues preprints appeared at) and ``lib.settings``
(the library's settings on this computer). The GUI
and the CLI reach every
feature through these; ``core/api.py`` holds only the value types that go with them.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from paperdesk.core.bibtex.bibtex_export import Bibtex
    from paperdesk.core.bibtex.citation import Citations
    from paperdesk.core.curation.browse import Browse
    from paperdesk.core.curation.curation import Curation
    from paperdesk.core.curation.queue import Queue
    from paperdesk.core.curation.trash import Trash
    from paperdesk.core.curation.triage import Triage
    from paperdesk.core.db.library_settings import LibrarySettings
    from paperdesk.core.duplicates.duplicates import Duplicates
    from paperdesk.core.hub.follow import Follows
    from paperdesk.core.hub.published_versions import Published
    from paperdesk.core.importing.import_undo import Imports
    from paperdesk.core.library import Library
    from paperdesk.core.pdf.attach import Pdfs
    from paperdesk.core.pdf.fulltext import PdfText
    from paperdesk.core.pdf.highlights import Highlights
    from paperdesk.core.pdf.reading import Reading
    from paperdesk.core.share.share import Share
    from paperdesk.core.sync.sync_feed import SyncFeed
    from paperdesk.core.sync.syncs import Syncs


class Areas:
    """What ``Library`` inherits: one cached property per area of work."""

    def _library(self) -> Library:
        """The library the areas are of: ``Library`` itself, which inherits them (each
        area is made with it)."""
        return cast("Library", self)

    @functools.cached_property
    def trash(self) -> Trash:
        from paperdesk.core.curation.trash import Trash

        return Trash(self._library())

    @functools.cached_property
    def browse(self) -> Browse:
        from paperdesk.core.curation.browse import Browse

        return Browse(self._library())

    @functools.cached_property
    def curation(self) -> Curation:
        from paperdesk.core.curation.curation import Curation

        return Curation(self._library())

    @functools.cached_property
    def queue(self) -> Queue:
        from paperdesk.core.curation.queue import Queue

        return Queue(self._library())

    @functools.cached_property
    def triage(self) -> Triage:
        from paperdesk.core.curation.triage import Triage

        return Triage(self._library())

    @functools.cached_property
    def imports(self) -> Imports:
        from paperdesk.core.importing.import_undo import Imports

        return Imports(self._library())

    @functools.cached_property
    def bibtex(self) -> Bibtex:
        from paperdesk.core.bibtex.bibtex_export import Bibtex

        return Bibtex(self._library())

    @functools.cached_property
    def citations(self) -> Citations:
        from paperdesk.core.bibtex.citation import Citations

        return Citations(self._library())

    @functools.cached_property
    def syncs(self) -> Syncs:
        from paperdesk.core.sync.syncs import Syncs

        return Syncs(self._library())

    @functools.cached_property
    def sync_feed(self) -> SyncFeed:
        from paperdesk.core.sync.sync_feed import SyncFeed

        return SyncFeed(self._library())

    @functools.cached_property
    def duplicates(self) -> Duplicates:
        from paperdesk.core.duplicates.duplicates import Duplicates

        return Duplicates(self._library())

    @functools.cached_property
    def published(self) -> Published:
        from paperdesk.core.hub.published_versions import Published

        return Published(self._library())

    @functools.cached_property
    def follows(self) -> Follows:
        from paperdesk.core.hub.follow import Follows

        return Follows(self._library())

    @functools.cached_property
    def pdf(self) -> Pdfs:
        from paperdesk.core.pdf.attach import Pdfs

        return Pdfs(self._library())

    @functools.cached_property
    def fulltext(self) -> PdfText:
        from paperdesk.core.pdf.fulltext import PdfText

        return PdfText(self._library())

    @functools.cached_property
    def reading(self) -> Reading:
        from paperdesk.core.pdf.reading import Reading

        return Reading(self._library())

    @functools.cached_property
    def highlights(self) -> Highlights:
        from paperdesk.core.pdf.highlights import Highlights

        return Highlights(self._library())

    @functools.cached_property
    def share(self) -> Share:
        from paperdesk.core.share.share import Share

        return Share(self._library())

    @functools.cached_property
    def settings(self) -> LibrarySettings:
        from paperdesk.core.db.library_settings import LibrarySettings

        return LibrarySettings(self._library().path)
