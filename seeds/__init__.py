"""The sample digests: the demo library and the first test data."""
