"""PaperDesk: a desktop reference manager for research digests."""

__version__ = "0.1.0"
