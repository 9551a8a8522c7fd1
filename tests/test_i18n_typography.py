"""French typography where the code joins texts (issue 36): French puts a space before
``:``, ``;``, ``?`` and ``!``, and the catalogs write it, so no page or command may join a
translated text to such a sign itself (``demi-coup 5: ...``, click's ``...(Entrée, ou les
dés):``). An audit over the pages a player reads (the analysed game, its printed page, the
player, match, position and audit log pages, Validate with an illegal play, the recorder,
``/play/``) and the command line's outputs (``validate``, ``record``'s prompts): in French
no letter stands right before one of the signs; in English and Russian none has a space
before ``:`` or ``;`` (the French rule does not leak)."""

from __future__ import annotations

import re

import pytest

from jacquet_cli import main
from notation.engine.state import Colour
from tests.accounts_helpers import signed_in_client
from tests.cli_language_helpers import run, said
from tests.report_fixtures import analysed  # noqa: F401 (a fixture)
from tests.test_viewer_languages_pages import GAME, pages, visible
from tests.viewer_helpers import viewer_app

FRENCH_FAULT = re.compile(r"[^\s\d?!(\[/'\"«][:;?!](?=\s|$)")
"""A sign French writes after a space, right after a letter or a closing bracket (not a
digit: a time, the notation's ``53: 24/20``; not a mark's ``?!``)."""
OTHER_FAULT = re.compile(r"\S\s[:;](?=\s|$)")
"""A space before ``:`` or ``;``: the French rule in a language that has it not."""
LANGUAGES = ["fr", "en", "ru"]


def faults(text: str, language: str) -> list[str]:
    """Each place ``text`` breaks its language's rule, with a little of what is around it."""
    pattern = FRENCH_FAULT if language == "fr" else OTHER_FAULT
    return [text[max(0, found.start() - 30):found.end() + 10] for found in pattern.finditer(text)]


INLINE = re.compile(r"</?(?:a|span|strong|em|b|i|small|code|abbr|kbd|bdi)(?:\s[^>]*)?>")
"""The tags inside a line of text, which a reader does not see as a space."""


def read(page: str) -> str:
    """What a player reads of a page: :func:`visible`, an inline tag read as nothing, and
    without the record's own texts (its comments, in their author's language)."""
    page = re.sub(r'<(p|span) class="comment">.*?</\1>', " ", page, flags=re.S)
    return visible(INLINE.sub("", page))


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The archive of the game pages' tests, with the game of the pages' test beside."""
    folder = tmp_path_factory.mktemp("typography")
    (folder / "game.jqn").write_text(GAME, encoding="utf-8")
    import archive

    with archive.open_archive(folder / "club.db") as db:
        archive.import_files(db, [folder / "game.jqn"])
    return viewer_app(folder / "club.db")


@pytest.fixture(scope="module")
def analysed_app(analysed):
    path, ids = analysed
    return viewer_app(path), ids


def analysed_pages(app, ids: dict[str, int], language: str) -> dict[str, str]:
    """The analysed games' pages and the pages they lead to, as an admin reads them."""
    admin = signed_in_client(app, "Admin", "admin")
    headers = {"Accept-Language": language}
    match, jacquet = ids["match"], ids["jacquet"]
    admin.post(f"/admin/game/{ids['plain']}", data={"action": "hide", "csrf_token": token(admin)})
    found = {}
    for address in (f"/game/{match}?ply=5", f"/game/{jacquet}?ply=7", f"/game/{match}/print",
                    f"/game/{jacquet}/print", "/", "/admin/audit", "/player/BoardLord", "/?from=soon"):
        found[address] = admin.get(address, headers=headers).text
    game = found[f"/game/{match}?ply=5"]
    for address in sorted(set(re.findall(r'href="(/(?:match|position)/[^"]+)"', game)))[:2]:
        found[address] = admin.get(address.replace("&amp;", "&"), headers=headers).text
    assert any(address.startswith("/match/") for address in found), "the game page links its match"
    return found


def token(client) -> str:
    page = client.get("/validate").text
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_joins_a_text_to_punctuation_against_the_language(app, analysed_app, language):
    read_pages = {name: page for name, (_, page) in pages(app, language).items()}
    read_pages.update(analysed_pages(*analysed_app, language))
    found = {name: faults(read(page), language) for name, page in read_pages.items()}
    assert not {name: said for name, said in found.items() if said}, language
    band = {"fr": r"demi-coup 5 : Blanc \d", "en": r"ply 5: White \d", "ru": r"полуход 5: белые \d"}
    assert re.search(band[language], read(read_pages[f"/game/{analysed_app[1]['match']}?ply=5"]))  # a join it reads


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_command_lines_joins_follow_the_language(language, tmp_path):
    from tests.test_cli_language import SAMPLE, TYPED

    validated = run(language, "validate", str(SAMPLE)).output
    messages = [line.split("] ", 1)[1] for line in validated.splitlines() if "] " in line]
    recorded = run(language, "record", "--first", "White", "-o", str(tmp_path / "game.jqn"), input=TYPED)
    assert recorded.exit_code == 0, recorded.output
    lines = [*messages, *recorded.output.splitlines()]
    assert not [fault for line in lines for fault in faults(line, language)]
    question = said(language, "cli.record.to-roll", player=Colour.WHITE.named)
    assert said(language, "cli.prompt", question=question) + " " in recorded.output
    assert {"fr": "(Entrée, ou les dés) : ", "en": "(Enter, or the dice): ", "ru": "кости): "}[language] in recorded.output


def test_the_password_prompts_are_the_catalogs(tmp_path):
    """``jacquet users add`` asks the password, then again, in the language (click's own
    words would be English: "Repeat for confirmation")."""
    from click.testing import CliRunner

    from notation.messages import Message, render

    path = tmp_path / "club.db"
    import archive

    archive.open_archive(path).close()
    answer = CliRunner().invoke(main, ["--lang", "fr", "users", "add", "Marie", "--role", "scorer", "--db", str(path)],
                                input="secret-password-1\nsecret-password-1\n")
    assert answer.exit_code == 0, answer.output
    for question in ("cli.users.password", "cli.users.password.again"):
        asked = render(Message.of("cli.prompt", question=render(Message.of(question), "fr")), "fr")
        assert asked + " " in answer.output and asked.endswith(" :")
    assert "Repeat for confirmation" not in answer.output
