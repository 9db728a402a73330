"""The command line: headless commands over the same Library facade as the GUI."""
