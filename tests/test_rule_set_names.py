"""Nothing outside ``notation/engine/rules/`` asks a rule set's name what the game is: what
differs between the games is a field of its ``RuleSet`` (python-chess's variants are the
model), so a new rule set touches its own module, docs, samples, net and tests only.

Checked on the source, like ``tests/test_layers.py``: in the Python of notation (its
``engine/rules/`` aside), the archive, the analysis, the viewer and the command, no rule
set's name (the registry's, and the relatives on their way: ``narde``, ``fevga``) is
compared (``==``, ``!=``, ``in``/``not in`` a literal tuple, list or set, a ``match`` case);
in the viewer's templates and scripts, no such comparison either.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from notation.engine.rules import NAMES

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("notation", "archive", "analysis", "webviewer", "jacquet_cli")
WATCHED = frozenset(NAMES) | {"narde", "fevga"}
"""The names no code may compare: the registry's, and the relatives being written."""


def _names_in(node: ast.expr) -> list[str]:
    """The rule-set names ``node`` is, or holds as a literal tuple, list or set."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value.lower() in WATCHED else []
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [name for element in node.elts for name in _names_in(element)]
    return []


def _case_names(pattern: ast.pattern) -> list[str]:
    """The rule-set names a ``match`` case pattern tests for."""
    if isinstance(pattern, ast.MatchValue):
        return _names_in(pattern.value)
    if isinstance(pattern, ast.MatchOr | ast.MatchSequence):
        return [name for inner in pattern.patterns for name in _case_names(inner)]
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        return _case_names(pattern.pattern)
    return []


def name_tests(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """(line, name) of every comparison with a rule set's name in Python ``source``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
                if isinstance(op, ast.Eq | ast.NotEq | ast.Is | ast.IsNot):
                    found += [(node.lineno, name) for name in _names_in(left) + _names_in(right)]
                elif isinstance(op, ast.In | ast.NotIn) and not isinstance(right, ast.Constant):
                    # (a name looked for in a text is no test of a rule set)
                    found += [(node.lineno, name) for name in _names_in(right)]
        elif isinstance(node, ast.match_case):
            found += [(node.pattern.lineno, name) for name in _case_names(node.pattern)]
    return found


_QUOTED = "|".join(sorted(WATCHED))
TEMPLATE_TEST = re.compile(
    rf"""(?:==|!=|\bin\b)\s*[(\[]?\s*["']({_QUOTED})["']|["']({_QUOTED})["']\s*(?:===?|!==?)""",
    re.IGNORECASE)
"""A comparison with a quoted rule-set name in a Jinja template or a script."""


def template_tests(text: str) -> list[tuple[int, str]]:
    """(line, name) of every comparison with a quoted rule-set name in ``text``."""
    return [(text.count("\n", 0, match.start()) + 1, match.group(1) or match.group(2))
            for match in TEMPLATE_TEST.finditer(text)]


def name_tests_under(root: Path) -> list[str]:
    """Every comparison with a rule set's name in the checked parts of the tree at ``root``."""
    wrong = []
    rules = root / "notation" / "engine" / "rules"
    for path in sorted(p for package in PACKAGES for p in (root / package).rglob("*.py")):
        if rules in path.parents:
            continue
        for line, name in name_tests(path.read_text(encoding="utf-8"), str(path)):
            wrong.append(f"{path.relative_to(root)}:{line}: compares the rule set name {name!r}")
    for pattern in ("webviewer/templates/**/*.html", "webviewer/static/**/*.js"):
        for path in sorted(root.glob(pattern)):
            for line, name in template_tests(path.read_text(encoding="utf-8")):
                wrong.append(f"{path.relative_to(root)}:{line}: compares the rule set name {name!r}")
    return wrong


def test_no_rule_set_name_is_compared_outside_the_rule_sets():
    wrong = name_tests_under(ROOT)
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("source", [
    'if rules.name == "backgammon": pass',
    'if "hale" != rule_set: pass',
    'x = variant in ("jacquet", "versailles")',
    'x = name not in ["murray"]',
    'x = name in {"Narde", "other"}',
    'match name:\n    case "fevga": pass',
    'match name:\n    case "x" | "murray": pass',
])
def test_the_checker_finds_each_kind_of_comparison(source):
    assert name_tests(source)


@pytest.mark.parametrize("source", [
    'rules = rule_set("backgammon")',
    'x = name == DEFAULT',
    'x = "backgammon" in text',  # a word looked for in a text, not a name compared
    'x = {"jacquet": 1}',
])
def test_the_checker_leaves_other_uses_of_a_name(source):
    assert not name_tests(source)


def test_the_checker_finds_comparisons_in_templates():
    assert template_tests("{% if row.variant == 'backgammon' %}") == [(1, "backgammon")]
    assert template_tests("{% if v in ('hale', 'x') %}") == [(1, "hale")]
    assert template_tests('if (variant === "murray") {') == [(1, "murray")]
    assert template_tests("<option>backgammon</option>") == []
