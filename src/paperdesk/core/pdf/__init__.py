"""PDFs: the sandboxed reader of their pages and the full text of their words."""
