"""Shared fixtures: the rule sets and the data files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notation import rule_set

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def load_jsonl(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="session")
def jacquet():
    return rule_set("jacquet")


@pytest.fixture(scope="session")
def murray():
    return rule_set("murray")


@pytest.fixture(scope="session")
def versailles():
    return rule_set("versailles")


@pytest.fixture(scope="session")
def hale():
    return rule_set("hale")


@pytest.fixture(scope="session")
def backgammon():
    return rule_set("backgammon")
