"""Record kinds of attachments and their highlights (``records``)."""

from __future__ import annotations

from paperdesk.core.share.record_kind import Kind

KINDS: tuple[Kind, ...] = ()
