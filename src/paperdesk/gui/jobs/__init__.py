"""Work off the UI thread: the worker for writes, the reading thread, writes by other programs."""
