"""Starting: one window per library, the platform check, the self-test, library files."""
