"""The demo archive ``jacquet serve`` builds when there is none: every sample record,
the invalid ones kept flagged so that the viewer shows their errors.

The games list shows the newest games first, so the samples are imported with the most
instructive last: first the error samples (on the list's last page, apart), then the
generated games, then the openings, the match and the annotated game of every rule set
(on the first page)."""

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


ORDER = ("errors", "generated", "openings", "matches")
"""The sample folders imported first, in this order; the annotated games come last."""


def demo_order(files: list[Path]) -> list[Path]:
    """The sample files in the order they are imported (see the module's docstring)."""
    def rank(file: Path) -> tuple[int, str]:
        folder = file.parent.name
        return (ORDER.index(folder) if folder in ORDER else len(ORDER), str(file))

    return sorted(files, key=rank)


def build_demo(path: str | Path) -> ImportSummary:
    """Import every sample into the archive at ``path``, the most instructive last."""
    db = open_archive(path)
    try:
        return import_files(db, demo_order(list(samples_folder().rglob("*.jqn"))), keep_invalid=True)
    finally:
        db.close()
