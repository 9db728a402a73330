"""A workaround for a reference-count bug in PySide6 6.12.0 on Python 3.11.

That release drops one reference to ``None`` each time a C++ method without a
result is called from Python, or a Python override returns ``None`` to C++
(and the same for ``True``/``False`` in places). After a few thousand calls
Python frees ``None`` and the process aborts with "none_dealloc". Python 3.12
made these objects immortal, so the bug is harmless there; on 3.11 we give
them a reference count too large to ever run down, which is what 3.12 does.
"""

from __future__ import annotations

import ctypes
import sys

import PySide6

AFFECTED = ("6.12.0",)
_PLENTY = 1 << 60


def immortalise_singletons() -> bool:
    """Protect None, True and False; returns whether it was needed."""
    if sys.version_info >= (3, 12) or PySide6.__version__ not in AFFECTED:
        return False
    if sys.implementation.name != "cpython":
        return False
    for obj in (None, True, False):
        count = ctypes.c_ssize_t.from_address(id(obj))
        if count.value < _PLENTY:
            count.value += _PLENTY
    return True
