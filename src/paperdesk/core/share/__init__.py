"""One library on several computers: the library mapped onto a Loro document whose
updates travel through a folder or a git repository (docs/architecture.md)."""
