"""The key that signs the viewer's session cookie (and so its CSRF tokens).

It must outlive a restart, or a scorer's open page would lose its session: unless the
configuration or ``$JACQUET_SECRET_KEY`` gives one, it is kept in a file beside the
archive (``<archive>.secret``, readable by its owner only), made on first use. It is never
stored inside the archive, which Datasette may publish."""

from __future__ import annotations

import logging
import os
import secrets
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)


MIN_LENGTH = 32


def secret_key(archive: str | os.PathLike[str]) -> str:
    """``$JACQUET_SECRET_KEY``, else the key kept beside the archive, made if missing."""
    from_environment = os.environ.get("JACQUET_SECRET_KEY")
    if from_environment:
        return from_environment
    path = Path(f"{os.fspath(archive)}.secret")
    kept = _read(path)
    if kept is not None:
        return kept
    key = secrets.token_hex(32)
    try:
        _write_once(path, key)
    except FileExistsError:  # made meanwhile by another process: use that one
        return _read(path) or key
    except OSError as error:
        log.warning("cannot keep a key in %s (%s): sessions end when the server stops", path, error)
    return key


def _read(path: Path) -> str | None:
    """The key in ``path``, or ``None`` if there is none (or too short to be one)."""
    try:
        key = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return key if len(key) >= MIN_LENGTH else None


def _write_once(path: Path, key: str) -> None:
    """Write ``key`` to ``path`` whole or not at all: to a private temporary file first,
    then linked into place (``FileExistsError`` if another process got there first). A
    short or empty file left by a crash is replaced."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(key + "\n")
        if path.exists() and _read(path) is None:
            os.replace(temporary, path)
        else:
            os.link(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
