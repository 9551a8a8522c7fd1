"""The key that signs the viewer's session cookie (and so its CSRF tokens).

It must outlive a restart, or a scorer's open page would lose its session: unless the
configuration or ``$JACQUET_SECRET_KEY`` gives one, it is kept in a file beside the
archive (``<archive>.secret``, readable by its owner only), made on first use. It is never
stored inside the archive, which Datasette may publish."""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path

log = logging.getLogger(__name__)


def secret_key(archive: str | os.PathLike) -> str:
    from_environment = os.environ.get("JACQUET_SECRET_KEY")
    if from_environment:
        return from_environment
    path = Path(f"{os.fspath(archive)}.secret")
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    except OSError as error:
        log.warning("cannot read %s (%s): sessions end when the server stops", path, error)
        return secrets.token_hex(32)
    key = secrets.token_hex(32)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # made meanwhile by another process: use that one
        return path.read_text(encoding="ascii").strip()
    except OSError as error:
        log.warning("cannot keep a key in %s (%s): sessions end when the server stops", path, error)
        return key
    with os.fdopen(descriptor, "w", encoding="ascii") as out:
        out.write(key + "\n")
    return key
