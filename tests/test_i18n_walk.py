"""What the last walk through the viewer and the commands in French and Russian found
still in English or in the wrong form (issue 36), each now in the page's or the command's
language: a busy server's refusal (given before Flask sees the request), a position ID
that does not read, a download in a format that does not exist or cannot hold the game,
the date fields' placeholder, the accounts page (roles and times) and the audit log's
times, the random engine named after "against", and ``jacquet users add``'s role."""

from __future__ import annotations

import re
from datetime import datetime
from html import unescape
from pathlib import Path

import pytest
from babel.dates import format_datetime
from babel.messages.pofile import read_po

import archive
from archive.accounts import list_users
from archive.audit import entries
from notation import NotationError, Position
from notation.messages import Message, render
from tests.accounts_helpers import signed_in_client
from tests.cli_language_helpers import run, said
from tests.test_early_refusal import CLIENT, app_seen, share_taken
from tests.test_server_workers import GAME
from tests.viewer_helpers import _translations, shown, shown_count

TRANSLATED = ["fr", "ru"]


def get(client, path: str, language: str):
    return client.get(path, headers={"Accept-Language": language})


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_busy_servers_refusal_is_in_the_visitors_language(make_app, monkeypatch, language):
    """By the browser's Accept-Language, and by the switcher's cookie before it."""
    app, _ = app_seen(make_app)
    english, busy = (render(Message.of("server.busy"), chosen) for chosen in ("en", language))
    with share_taken(app, monkeypatch, environ_base={"REMOTE_ADDR": CLIENT}):
        client = app.test_client()
        asked = client.post("/validate", data={"record": GAME, "format": "jqn"}, environ_base={"REMOTE_ADDR": CLIENT},
                            headers={"Accept-Language": language})
        client.set_cookie("language", language)
        chosen = client.post("/validate", data={"record": GAME, "format": "jqn"}, environ_base={"REMOTE_ADDR": CLIENT},
                             headers={"Accept-Language": "en"})
    for refused in (asked, chosen):
        assert refused.status_code == 503 and busy != english and busy in refused.text
        assert refused.text.startswith(shown("Error %(code)s", language, code=503))


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_position_id_that_does_not_read_is_refused_in_the_language(client, language):
    with pytest.raises(NotationError) as refusal:
        Position.from_id("zzzz")
    answer = get(client, "/position/zzzz", language)
    assert answer.status_code == 400
    text = unescape(answer.text)
    assert render(refusal.value.msg, language) in text and render(refusal.value.msg, "en") not in text


@pytest.fixture
def archive_path(archive_of, tmp_path):
    record = tmp_path / "game.jqn"
    record.write_text('[White "Marie"]\n[Black "Jean"]\n\n1. 55: 24/4 66: 24/18 *\n', encoding="utf-8")
    return archive_of(record)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_download_the_format_cannot_give_says_why_in_the_language(client, language):
    cannot_hold = get(client, "/game/1.mat", language)  # .mat holds backgammon only
    assert cannot_hold.status_code == 404
    said = render(Message.of("format.rule-sets", format="mat", variants="backgammon", variant="jacquet"), language)
    assert said in unescape(cannot_hold.text) and said != render(Message.of("format.rule-sets", format="mat",
                                                                             variants="backgammon", variant="jacquet"))
    unknown = get(client, "/game/1.xyz", language)
    assert unknown.status_code == 404
    assert unescape(shown("no format “%(format)s”", language, format="xyz")) in unescape(unknown.text)
    assert {"fr": "« xyz »", "ru": "«xyz»"}[language] in unescape(unknown.text)  # the language's quotes
    assert "holds backgammon only" not in cannot_hold.text and "no format" not in unknown.text


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_date_fields_say_the_dates_form_in_the_language(scorer, language):
    placeholder = f'placeholder="{shown("YYYY.MM.DD", language)}"'
    assert shown("YYYY.MM.DD", language) != "YYYY.MM.DD"
    assert get(scorer, "/", language).text.count(placeholder) == 2  # from, to
    assert placeholder in get(scorer, "/record/", language).text


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_accounts_and_the_audit_log_name_roles_and_times_in_the_language(app, archive_path, language):
    signed_in_client(app)  # a scorer too
    admin = signed_in_client(app, name="Boss", role="admin")
    assert admin.post("/admin/game/1", data={"action": "hide"}).status_code in (302, 303)
    with archive.open_archive(archive_path) as db:
        users, (line,) = list_users(db), entries(db, 10, None)
    page = unescape(get(admin, "/admin/users", language).text)
    for user in users:
        assert f"<td>{shown(user.role, language)}</td>" in page and shown(user.role, language) != user.role
        assert user.created not in page
        assert format_datetime(datetime.fromisoformat(user.created), "medium", locale=language) in page
    log = unescape(get(admin, "/admin/audit", language).text)
    assert line["at"] not in log and format_datetime(datetime.fromisoformat(line["at"]), "medium", locale=language) in log


@pytest.fixture
def viewer_config():
    return {"WTF_CSRF_ENABLED": False, "WORKERS": 0}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_random_engine_is_named_in_the_language(client, language):
    started = client.post("/play/", data={"variant": "jacquet", "side": "White", "strength": "random"},
                          headers={"Accept-Language": language})
    page = unescape(get(client, started.headers["Location"], language).text)
    engine = _translations(language).pgettext("engine", "random")
    assert engine not in ("random", shown("random", language))
    assert f"<title>{shown('Playing %(engine)s', language, engine=engine)}" in page
    assert shown("You (%(side)s) against %(engine)s", language, side=shown("White", language), engine=engine) in page
    listed = unescape(get(client, "/play/", language).text)
    assert shown("%(variant)s: you (%(side)s) against %(engine)s", language, variant="jacquet",
                 side=shown("White", language), engine=engine) in listed


@pytest.mark.parametrize("language", TRANSLATED)
def test_jacquet_users_add_names_the_role_in_the_language(tmp_path, language):
    archive.open_archive(tmp_path / "club.db").close()
    answer = run(language, "users", "add", "Marie", "--role", "scorer", "--password-stdin",
                 "--db", str(tmp_path / "club.db"), input="secret-word\n")
    assert answer.exit_code == 0, answer.output
    role = Message.of("account.role.scorer")
    assert said(language, "cli.users.added", name="Marie", role=role) in answer.output
    assert "(scorer)" not in answer.output and render(role, language) != "scorer"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_print_pages_diagram_choices_count_plies_in_the_language(client, language):
    """Russian says 2 and 4 полухода, 6, 10 and 20 полуходов (was one form for all)."""
    page = unescape(get(client, "/game/1/print", language).text)
    for n in (2, 4, 6, 10, 20):
        assert f'<option value="{n}">{shown_count("every %(num)d ply", "every %(num)d plies", n, language)}</option>' in page
    if language == "ru":
        assert "каждые 2 полухода" in page and "каждые 6 полуходов" in page


def test_the_practice_count_puts_the_french_noun_after_its_number():
    """French says "1 sur 22 positions" (was "1 positions sur 22"); Russian "1 из 22 позиций"."""
    english = "Due now: %(due)s of %(total)s positions."
    assert unescape(shown(english, "fr", due=1, total=22)).endswith(" 1 sur 22 positions.")
    assert unescape(shown(english, "ru", due=1, total=22)).endswith(" 1 из 22 позиций.")


@pytest.mark.parametrize("catalog", ["webviewer/translations/fr/LC_MESSAGES/messages.po",
                                     "notation/messages/locale/fr/LC_MESSAGES/jacquet.po"])
def test_french_writes_one_apostrophe(catalog):
    """The typographic apostrophe (l’équité, d’après) in both French catalogs: a page that
    showed "Taux d'erreur" beside "l’équité" mixed the two."""
    with open(Path(__file__).resolve().parents[1] / catalog, "rb") as handle:
        found = read_po(handle)
    straight = [message.id for message in found if message.id and any(
        re.search(r"\w'\w", text) for text in ([message.string] if isinstance(message.string, str) else message.string))]
    assert not straight


@pytest.mark.parametrize("decisions, russian", [(1, "по 1 решению"), (21, "по 21 решению"), (2, "по всем 2 решениям"),
                                                (45, "по всем 45 решениям")])
def test_a_players_error_rate_counts_his_decisions_in_russian(decisions, russian):
    """The player page's "over all N decisions" (one form before: по всем 21 решениям)."""
    said = shown_count("Error rate over the %(decisions)s decision: <strong>%(rate)s</strong>, <strong "
                       "class=\"skill-label\">%(skill)s</strong> on the rule set's scale, at %(engine)s.",
                       "Error rate over all %(decisions)s decisions: <strong>%(rate)s</strong>, <strong "
                       "class=\"skill-label\">%(skill)s</strong> on the rule set's scale, at %(engine)s.",
                       decisions, "ru", decisions=decisions, rate="12,5", skill="x", engine="y")
    assert said.startswith(f"Показатель ошибок {russian}:")


def test_no_translation_counts_with_an_s_in_brackets():
    """A count is a plural entry or a label and its number ("valides : 2"), never a
    "valide(s)" (the Validate page's summary said so in French)."""
    for catalog in ("webviewer/translations/fr/LC_MESSAGES/messages.po", "webviewer/translations/ru/LC_MESSAGES/messages.po"):
        with open(Path(__file__).resolve().parents[1] / catalog, "rb") as handle:
            found = read_po(handle)
        assert not [message.id for message in found if message.id and "(s)" in str(message.string)], catalog


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_format_that_cannot_hold_the_games_is_said_in_the_language(tmp_path, language):
    """``convert`` to ``.mat`` (backgammon only): "ничего не записано: .mat holds backgammon
    only, not jacquet" mixed two languages."""
    sample = Path(__file__).resolve().parents[1] / "samples" / "jacquet" / "annotated-game.jqn"
    answer = run(language, "convert", str(sample), str(tmp_path / "game.mat"))
    assert answer.exit_code == 1
    reason = said(language, "format.rule-sets", format="mat", variants="backgammon", variant="jacquet")
    assert said(language, "cli.write.nothing", reason=reason) in answer.output and "holds" not in answer.output
