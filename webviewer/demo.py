"""The demo archive ``jacquet serve`` builds when there is none: every sample record,
the invalid ones kept flagged so that the viewer shows their errors."""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

from archive import ImportSummary, import_files, open_archive


def samples_folder() -> Path:
    """``samples/`` of a source checkout or editable install, else the copy an installed
    package puts under ``<prefix>/share/jacquet/samples``."""
    candidates = [Path(__file__).resolve().parents[1] / "samples",
                  Path(sysconfig.get_path("data")) / "share" / "jacquet" / "samples",
                  Path(sys.prefix) / "share" / "jacquet" / "samples"]
    for folder in candidates:
        if folder.is_dir() and any(folder.rglob("*.jqn")):
            return folder
    raise FileNotFoundError("the sample records are not installed (looked in "
                            + ", ".join(str(c) for c in candidates) + ")")


def build_demo(path: str | Path) -> ImportSummary:
    """Import every sample into the archive at ``path``."""
    db = open_archive(path)
    try:
        return import_files(db, sorted(samples_folder().rglob("*.jqn")), keep_invalid=True)
    finally:
        db.close()
