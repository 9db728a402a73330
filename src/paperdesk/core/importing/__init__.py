"""Getting papers in: the explicit list of importers, digests and .bib files, the report of one
file, undoing an import.
"""
