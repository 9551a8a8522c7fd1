"""The key that signs the viewer's session cookie (and so its CSRF tokens).

It must outlive a restart, or a scorer's open page would lose its session: unless the
configuration or ``$JACQUET_SECRET_KEY`` gives one, it is kept in a file beside the
archive (``<archive>.secret``), made on first use readable and writable by its owner only
(mode 0600). A key file that others may read, or that belongs to another user, is refused
(:class:`InsecureSecret`): whoever reads the key can forge sessions. It is never stored
inside the archive, which Datasette may publish."""

from __future__ import annotations

import logging
import os
import secrets
import stat
import tempfile
from pathlib import Path

from archive import ArchiveError

log = logging.getLogger(__name__)


MIN_LENGTH = 32
"""The fewest characters of a key, from the environment or the key file (a shorter one
can be guessed)."""


class InsecureSecret(ArchiveError):
    """The key file beside the archive may be read by others, or is not the user's."""


def secret_key(archive: str | os.PathLike[str]) -> str:
    """``$JACQUET_SECRET_KEY``, else the key kept beside the archive, made if missing."""
    from_environment = os.environ.get("JACQUET_SECRET_KEY")
    if from_environment:
        if len(from_environment.strip()) < MIN_LENGTH:
            raise InsecureSecret("archive.key.short", count=len(from_environment.strip()), least=MIN_LENGTH)
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
    """The key in ``path``, or ``None`` if there is none (or too short to be one);
    :class:`InsecureSecret` if the file is another user's or others may read or write it."""
    try:
        with open(path, "rb") as handle:
            status = os.fstat(handle.fileno())
            data = handle.read(4096)
    except OSError:
        return None
    if status.st_uid != os.geteuid():
        raise InsecureSecret("archive.key.owner", path=str(path))
    if status.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise InsecureSecret("archive.key.mode", path=str(path), mode=f"{stat.S_IMODE(status.st_mode):o}")
    try:
        key = data.decode("ascii").strip()
    except UnicodeDecodeError:
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
