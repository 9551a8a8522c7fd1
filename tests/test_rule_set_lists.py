"""One list of rule sets, the registry's (``notation.engine.rules.NAMES``): code derives its
lists from it, and every text that must spell them out says the same, so a rule set added
to the registry and forgotten in one of them fails here."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import tomllib

from jacquet_cli import main
from notation.engine.rules import DEFAULT, NAMES

ROOT = Path(__file__).resolve().parents[1]
XS = "{http://www.w3.org/2001/XMLSchema}"


def test_the_schemas_variants_are_the_registrys():
    schema = ElementTree.parse(ROOT / "notation" / "formats" / "schema" / "games.xsd").getroot()
    (variant,) = [node for node in schema.iter(f"{XS}simpleType") if node.get("name") == "Variant"]
    assert [e.get("value") for e in variant.iter(f"{XS}enumeration")] == list(NAMES)


def test_the_readme_names_every_rule_set():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    opening = re.search(r"relatives \(([^)]*)\)", text)
    assert opening is not None
    assert re.findall(r"`(\w+)`", opening.group(1)) == [name for name in NAMES if name != DEFAULT]
    section = text.split("## Rule sets", 1)[1].split("\n\n", 2)[1]
    listed = section.split(":", 1)[0]
    assert re.findall(r"`(\w+)`", listed) == list(NAMES)
    assert f"`{DEFAULT}` (default)" in listed


def test_the_rules_doc_describes_every_rule_set():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split("## Rule sets", 1)[1].split("\n\n", 2)[1]
    assert re.findall(r"^\| `(\w+)`", table, re.MULTILINE) == list(NAMES)


def test_the_commands_help_lists_every_rule_set():
    """``jacquet --help`` imports no rule set (tests/test_cli_lazy.py), so it says them as text."""
    listed = ", ".join(f"{name} (default)" if name == DEFAULT else name for name in NAMES)
    assert f"Rule sets: {listed}." in (main.help or "")


def test_the_package_says_every_rule_set_and_installs_its_samples():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    described = re.search(r"relatives \(([^)]*)\)", config["project"]["description"])
    assert described is not None
    assert described.group(1).split(", ") == [name for name in NAMES if name != DEFAULT]
    installed = config["tool"]["setuptools"]["data-files"]
    for name in NAMES:
        assert installed.get(f"share/jacquet/samples/{name}") == [f"samples/{name}/*.jqn"], name
        assert list((ROOT / "samples" / name).glob("*.jqn")), f"samples/{name}/ holds no record"


def test_the_training_script_trains_a_net_of_every_rule_set():
    script = (ROOT / "tools" / "train_nets.sh").read_text(encoding="utf-8")
    trained = set(re.findall(r"\btrain(?:_on \d+ \d+)? (\w+) \d+", script))
    assert trained == set(NAMES)
    for name in NAMES:
        assert (ROOT / "analysis" / "nets" / f"{name}.npz").is_file(), f"no shipped net for {name}"
