"""BibTeX out of the window: the export dialog, checking keys before they freeze, kept-in-sync
files.
"""
