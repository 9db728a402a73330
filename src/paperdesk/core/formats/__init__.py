"""Getting papers in: the explicit list of importers, the digest and .bib
importers, the Hugging Face Hub.

Imports the areas and the floors below them.
"""
