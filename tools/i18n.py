"""Extract, update and compile the translation catalogs: the one script for adding or
changing a language (docs/languages.md).

Two catalogs (gettext domains), each with a template (``.pot``) and one ``.po``/``.mo``
pair a language:

* ``jacquet``: the messages of the engine, the readers, the archive, the analysis and the
  command line. Their English texts live in the code's message catalog
  (:mod:`notation.messages`), keyed by message id; the template is written from it (the
  id is each entry's context, the English text its ``msgid``).
* ``messages``: the viewer's pages (templates and Python-built fragments), extracted by
  Babel from ``webviewer/`` as Flask-Babel expects.

    python tools/i18n.py extract      # the templates, from the code
    python tools/i18n.py update       # every language's .po brought up to its template
    python tools/i18n.py compile      # the .po compiled to the .mo the programs read
    python tools/i18n.py init de      # a new language, from the templates
    python tools/i18n.py all          # extract, update and compile

The compiled ``.mo`` are committed (the README's install needs no Babel step); a test
fails when one is out of date with its ``.po``.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Domain:
    """One catalog: its gettext domain, the folder of its languages and how its template
    is made (``babel.cfg`` mapping for Babel's extractor, or ``None`` for the code's
    message catalog)."""

    name: str
    folder: Path
    mapping: Path | None

    @property
    def template(self) -> Path:
        return self.folder / f"{self.name}.pot"


DOMAINS = (
    Domain("jacquet", ROOT / "notation" / "messages" / "locale", None),
    Domain("messages", ROOT / "webviewer" / "translations", ROOT / "webviewer" / "babel.cfg"),
)


def pybabel(*args: str) -> None:
    """Run one ``pybabel`` command in this process."""
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(domain: Domain) -> None:
    """Write the domain's template from the code."""
    domain.folder.mkdir(parents=True, exist_ok=True)
    if domain.mapping is None:
        sys.path.insert(0, str(ROOT))
        from notation.messages import write_template

        write_template(domain.template)
    else:
        # from the project's root, so that the template's locations are relative paths
        os.chdir(ROOT)
        pybabel("extract", "-F", str(domain.mapping.relative_to(ROOT)), "-k", "lazy_gettext",
                "-k", "_l", "--sort-by-file", "--no-wrap", "-o", str(domain.template), "webviewer")


def languages(domain: Domain) -> list[str]:
    """The languages the domain has a catalog for."""
    return sorted(path.parent.parent.name for path in domain.folder.glob(f"*/LC_MESSAGES/{domain.name}.po"))


def update(domain: Domain) -> None:
    """Bring every language's ``.po`` up to the template (new texts empty, changed ones
    marked fuzzy)."""
    for language in languages(domain):
        pybabel("update", "--no-wrap", "-i", str(domain.template), "-d", str(domain.folder),
                "-D", domain.name, "-l", language)


def compile_all(domain: Domain) -> None:
    """Compile every language's ``.po`` to its ``.mo``."""
    for language in languages(domain):
        pybabel("compile", "-d", str(domain.folder), "-D", domain.name, "-l", language)


def init(domain: Domain, language: str) -> None:
    """Start a language's ``.po`` from the template."""
    pybabel("init", "--no-wrap", "-i", str(domain.template), "-d", str(domain.folder),
            "-D", domain.name, "-l", language)


def main(argv: list[str]) -> int:
    """The command line (see the module's docstring)."""
    if not argv or argv[0] not in ("extract", "update", "compile", "init", "all") \
            or (argv[0] == "init") != (len(argv) == 2):
        print(__doc__, file=sys.stderr)
        return 2
    for domain in DOMAINS:
        if argv[0] in ("extract", "all"):
            extract(domain)
        if argv[0] == "init":
            init(domain, argv[1])
        if argv[0] in ("update", "all"):
            update(domain)
        if argv[0] in ("compile", "all"):
            compile_all(domain)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
