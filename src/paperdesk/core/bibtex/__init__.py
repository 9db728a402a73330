"""BibTeX and what goes out: the .bib block scanner and entry reader, names, LaTeX read and
written (and what of it is safe), fields and their repair, citation keys, the export, CSL-
JSON, citations.
"""
