"""``/play/``: after the engine's turn the board shows the dice it played, beside it (the
game page's way: dice beside who rolled them), until you roll (through Flask's test
client, the random engine in the request's thread)."""

from __future__ import annotations

import html
import re

import pytest


@pytest.fixture
def viewer_config():
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0}


def drawn_dice(page: str) -> list[str]:
    group = re.search(r'<g class="dice">(.*?)</g>', page)
    return [] if group is None else re.findall(r'font-weight="bold" fill="#111">(\d)</text>', group.group(1))


def version(page: str) -> str:
    return re.search(r'name="version" value="(\d+)"', page).group(1)


def test_the_engines_dice_are_drawn_after_it_plays(client):
    at = client.post("/play/", data={"variant": "jacquet", "side": "White", "strength": "random"}).headers["Location"]
    for _ in range(10):
        page = client.get(f"{at}?hints=1").text
        if '<p class="engine-play">' in page and 'value="roll"' in page:  # the engine's answer, then our roll
            break
        if 'value="roll"' in page:
            client.post(at, data={"version": version(page), "action": "roll"})
            continue
        play = html.unescape(re.search(r'<td class="play">([^<]*)</td>', page).group(1))
        client.post(at, data={"version": version(page), "action": "play", "play": play})
    else:
        raise AssertionError("the engine never played")
    record = html.unescape(re.search(r'<pre class="record">(.*?)</pre>', page, re.S).group(1))
    last_roll = re.findall(r"\b([1-6])([1-6]): ", record)[-1]  # the engine's, the record's last turn
    assert drawn_dice(page) == list(last_roll)
    # the dice stand on the board's left half: Black's, the engine's (you, White, at the bottom)
    first_die = re.search(r'<g class="dice"><rect class="die" x="(\d+)"', page).group(1)
    middle = re.search(r'viewBox="0 0 (\d+) ', page).group(1)
    assert int(first_die) < int(middle) / 2
