"""Shared fixtures: the rule sets and the data files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from notation import rule_set

os.environ["LANGUAGE"] = "en"  # the suite asserts English; a test of another language asks for it
DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def load_jsonl(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


JOB_SECONDS = 3600.0
"""``WORK_SECONDS`` of every app a test makes without naming its own: a job's time limit is
the subject of the tests that set one, never of the others, whose jobs (a fresh worker
process loading the bear-off tables, at ``nice`` 10 below a test run itself started under
``nice``) took past the 10 s default on a loaded machine and were answered 413."""


@pytest.fixture(scope="session", autouse=True)
def jobs_without_a_time_limit():
    """The worker pool's default ``WORK_SECONDS`` lifted to :data:`JOB_SECONDS` for the
    session (a test of the limit sets ``WORK_SECONDS`` itself), so that no test's outcome
    depends on the machine's pace."""
    from webviewer.plumbing.workers import WORK_DEFAULTS

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(WORK_DEFAULTS, "WORK_SECONDS", JOB_SECONDS)
        yield


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
