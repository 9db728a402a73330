"""The window's features, installed from one explicit list, in this order.

Each is a ``Feature`` (``gui/context.py``): ``install(context)`` adds its menu
entries, keys, sidebar entries and views through the context's public APIs;
then it hears ``library_changed``, ``changes_applied`` and ``close``, and is asked
about drops (``accepts_drop``/``drop``) and the table's listing (``lists_again``).
Nothing installs itself by being imported; a feature is on the window when it is
here. The order is the order of their entries in the menus, and the order in which
they are asked: a feature's own drags (the table's rows) are refused before the
importer takes what holds files.
"""

from __future__ import annotations

from paperdesk.gui.bibtex.bibtex_actions import Export, Sync
from paperdesk.gui.bibtex.key_check import KeyCheck
from paperdesk.gui.common.clipboard import Clipboard
from paperdesk.gui.context import Feature
from paperdesk.gui.curation.queue_view import Queue
from paperdesk.gui.curation.triage_view import Triage
from paperdesk.gui.duplicates.review import Review
from paperdesk.gui.help_menu import HelpMenu
from paperdesk.gui.hub.add_action import AddByIdentifier
from paperdesk.gui.hub.enrich_action import Hub
from paperdesk.gui.hub.follow_dialog import Follows
from paperdesk.gui.hub.get_pdf import GetPdf
from paperdesk.gui.hub.published_action import FindPublished
from paperdesk.gui.hub.today import Today
from paperdesk.gui.importing.file_drops import Imports
from paperdesk.gui.jobs.outside_feed import OutsideWrites
from paperdesk.gui.panes.tag_drops import TagDrops
from paperdesk.gui.pdf.fulltext_feature import FullText
from paperdesk.gui.pdf.reader_feature import Reader
from paperdesk.gui.sharing import Share
from paperdesk.gui.startup.library_files import LibraryFiles

FEATURES: list[type[Feature]] = [LibraryFiles, Export, Sync, Clipboard, Triage, Review, Hub,
                                 KeyCheck, Today, Follows, Queue, AddByIdentifier, FindPublished,
                                 GetPdf, Reader, FullText, OutsideWrites, TagDrops, Imports,
                                 Share, HelpMenu]
