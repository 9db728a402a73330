"""The built-in PDF reader: its window, pages, rendering thread and layout."""
