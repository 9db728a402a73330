"""Kept-in-sync .bib files: the records, the change feed's listener, the locked write, the file
on disk.
"""
