"""The import graph is one-way: each layer imports only the layers below it.

notation: messages, errors and limits (the base), then ``engine/``, ``tree/``, ``formats/``, ``render/``
and the recorder; above notation, ``archive/``, then ``webviewer/``, then ``jacquet_cli/``;
``analysis/`` stands beside the archive, over notation. No blueprint of the viewer imports
another. Checked on the source (every ``import`` statement run, wherever it stands; those
under ``if TYPE_CHECKING:`` name types only and are left out), so that a forbidden import
fails here before it can make a cycle somewhere else.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ALLOWED = {
    "notation.messages": {"notation.messages"},
    "notation.errors": {"notation.messages"},
    "notation.limits": {"notation.messages", "notation.errors"},
    "notation.engine": {"notation.messages", "notation.errors", "notation.limits", "notation.engine"},
    "notation.tree": {"notation.messages", "notation.errors", "notation.limits", "notation.engine",
                      "notation.tree"},
    "notation.formats": {"notation.messages", "notation.errors", "notation.limits", "notation.engine",
                         "notation.tree", "notation.formats"},
    "notation.render": {"notation.messages", "notation.errors", "notation.engine", "notation.render"},
    "notation.recording": {"notation.messages", "notation.errors", "notation.limits", "notation.engine",
                           "notation.tree", "notation.formats"},
}
"""For each part of notation, the parts it may import."""

ABOVE = {"notation": set(), "analysis": {"notation"}, "archive": {"notation"},
         "webviewer": {"notation", "archive", "analysis"},
         "jacquet_cli": {"notation", "archive", "webviewer", "analysis"}}
"""For each top-level package, the other packages it may import."""


def _part(module: str) -> str:
    """The layer a module of notation belongs to (``notation.engine.rules.base`` ->
    ``notation.engine``)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in a file (relative ones stay in their folder)."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    typing_only = {id(inner) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                   and node.test.id == "TYPE_CHECKING" for inner in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py")) if (ROOT / package).is_dir() else []


@pytest.mark.parametrize("package", sorted(ABOVE))
def test_each_package_imports_only_those_below_it(package):
    wrong = []
    for path in _sources(package):
        for line, module in _imports(path):
            top = module.split(".")[0]
            if top in ABOVE and top != package and top not in ABOVE[package]:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    assert not wrong, "\n".join(wrong)


def test_each_layer_of_notation_imports_only_the_layers_below_it():
    wrong = []
    for path in _sources("notation"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        part = _part(module)
        allowed = ALLOWED.get(part)
        if allowed is None:  # the package's face, notation/__init__.py
            continue
        for line, imported in _imports(path):
            if imported.startswith("notation") and _part(imported) not in allowed | {"notation"}:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {part} imports {imported}")
            if imported == "notation":
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports the package's face")
    assert not wrong, "\n".join(wrong)


def test_no_blueprint_of_the_viewer_imports_another():
    folder = ROOT / "webviewer" / "blueprints"
    if not folder.is_dir():
        pytest.skip("the viewer has no blueprints/ folder")
    blueprints = {f"webviewer.blueprints.{path.stem}" for path in folder.glob("*.py")
                  if path.stem != "__init__"}
    wrong = [f"{path.relative_to(ROOT)}:{line}: imports {module}"
             for path in folder.glob("*.py") for line, module in _imports(path)
             if module in blueprints and module != f"webviewer.blueprints.{path.stem}"]
    assert not wrong, "\n".join(wrong)
