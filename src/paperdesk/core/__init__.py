"""The Qt-free core of PaperDesk: parsing, the library store, search, duplicates, BibTeX."""
