"""Knowledge store errors: an SQLite failure told as what it is for the store's file.

SQLite's messages ("attempt to write a readonly database", "unable to open database file")
do not say which file or why. :func:`store_error` turns a ``sqlite3.Error`` into a
:class:`KnowledgeStoreError` (an ``OSError``) naming the file, the reason (read-only, disk
full, not a database, corrupt, locked, cannot open) and what to do about it.
"""

from __future__ import annotations

import errno
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3

__all__ = ["KnowledgeStoreError", "store_error", "is_busy"]

# SQLite primary result codes (the low byte of an extended code).
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26


class KnowledgeStoreError(OSError):
    """A knowledge store file that cannot be used, saying why.

    ``reason`` is one of ``"read-only"``, ``"disk-full"``, ``"corrupt"``, ``"locked"``,
    ``"cannot-open"`` or ``"io"``; ``errno`` is set where one fits (``EROFS``/``EACCES``,
    ``ENOSPC``, ``ENOENT``). The sqlite3 error is the ``__cause__``.

    Example:
        >>> error = KnowledgeStoreError("knowledge store kb.sqlite: disk is full", "disk-full")
        >>> isinstance(error, OSError), error.reason, error.errno == errno.ENOSPC
        (True, 'disk-full', True)
    """

    _ERRNO = {"read-only": errno.EROFS, "disk-full": errno.ENOSPC}

    def __init__(self, message: str, reason: str, code: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.errno = code if code is not None else self._ERRNO.get(reason)


def _primary_code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def is_busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` is SQLite's "database is locked" (another connection holds a lock)."""
    return _primary_code(error) in (_BUSY, _LOCKED) or "locked" in str(error)


def _read_only_reason(path: str) -> tuple[str, int]:
    """Why a store file cannot be written, as far as the file system tells."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        if os.statvfs(directory).f_flag & os.ST_RDONLY:
            return "its file system is mounted read-only", errno.EROFS
    except OSError:
        pass
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return "the file is not writable", errno.EACCES
    if not os.access(directory, os.W_OK):
        return (
            f"its directory {directory} is not writable (SQLite creates the -wal and -shm "
            "files next to it)",
            errno.EACCES,
        )
    return "SQLite opened it read-only", errno.EROFS


def store_error(
    error: sqlite3.Error, action: str, path: str, timeout_s: float
) -> KnowledgeStoreError:
    """The sqlite3 ``error`` met while doing ``action`` on the store file ``path`` (whose
    writes wait ``timeout_s`` for a lock), as a :class:`KnowledgeStoreError`."""
    code = _primary_code(error)
    text = str(error)
    if code == _READONLY or "readonly" in text:
        why, number = _read_only_reason(path)
        return KnowledgeStoreError(
            f"knowledge store {path} is read-only ({why}); cannot {action}", "read-only", number
        )
    if code == _FULL or "is full" in text:
        return KnowledgeStoreError(
            f"knowledge store {path}: disk is full (or the file reached its size limit); "
            f"cannot {action}, earlier records are intact",
            "disk-full",
        )
    if code == _NOTADB or "not a database" in text:
        return KnowledgeStoreError(
            f"knowledge store {path} is not a SQLite database (SQLite: {text}); "
            "give a new path or move the file away",
            "corrupt",
        )
    if code == _CORRUPT or "malformed" in text:
        return KnowledgeStoreError(
            f"knowledge store {path} is corrupt (SQLite: {text}); restore it from a backup "
            "or give a new path",
            "corrupt",
        )
    if code in (_BUSY, _LOCKED) or "locked" in text:
        return KnowledgeStoreError(
            f"knowledge store {path} stayed locked by another process for more than "
            f"`timeout_s`={timeout_s} s; cannot {action}",
            "locked",
        )
    if code == _CANTOPEN or "unable to open" in text:
        directory = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(directory):
            return KnowledgeStoreError(
                f"knowledge store {path}: directory {directory} does not exist",
                "cannot-open",
                errno.ENOENT,
            )
        if os.path.isdir(path):
            return KnowledgeStoreError(
                f"knowledge store {path} is a directory, expected a file path",
                "cannot-open",
                errno.EISDIR,
            )
        why, number = _read_only_reason(path)
        return KnowledgeStoreError(
            f"knowledge store {path} is read-only ({why}); cannot {action}", "read-only", number
        )
    reason = "io" if code == _IOERR else "cannot-open"
    return KnowledgeStoreError(f"knowledge store {path}: cannot {action} ({text})", reason)
