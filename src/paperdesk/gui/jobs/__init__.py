"""Work off the UI thread: the one executor, the worker and the reader on it, writes by
other programs."""
