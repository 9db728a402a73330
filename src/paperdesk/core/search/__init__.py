"""The query language: its parser, the compiler to SQL and FTS5, hints, and search."""
