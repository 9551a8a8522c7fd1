"""The viewer's accounts, kept in the archive: a name, a role (``scorer`` or ``admin``) and
a password hash (werkzeug's scrypt), and the failed sign-ins counted against guessing.

A name is compared by its Unicode case fold (``key``), as players' names are. A user is
known to the session cookie by a random ``session_key``, made anew with every password:
changing a password (or removing the account) ends every session of that user. Each
signed-in session has its own random id too, kept (hashed) in ``sessions`` until it signs
out (:func:`close_session`) or is :data:`SESSION_DAYS` old: a copied cookie stops working
when its session signs out.

Sign-ins are limited per name from a client address and per address
(:class:`SignInLimit`): each attempt is counted before its password is checked; after
``failures`` attempts of a name from one address (``address_failures`` from the address,
whatever the names), each within ``window`` seconds of the one before, that name from that
address (or the address) is refused until ``window`` seconds have passed since its last
attempt, right password or not. A right password clears its own count. Guesses from
other addresses never keep a name's owner out.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlite_utils import Database
from werkzeug.security import check_password_hash, generate_password_hash

from notation.messages import MessageError

from .store import writing

ROLES = ("scorer", "admin")
"""The roles, each allowed what the one before may do and more: a scorer records live
games and saves validated records; an admin also manages accounts and hides or deletes
stored games."""
MAX_NAME = 60
SESSION_DAYS = 30
"""A signed-in session lasts at most this long (then sign in again); signing out ends it at
once."""
MAX_PASSWORD = 1000
"""Longer passwords are refused before hashing (a hash of megabytes costs as much)."""
_UNKNOWN = generate_password_hash(secrets.token_hex(16))
"""Checked against when the name is unknown, so that an unknown name costs as long to
refuse as a wrong password."""


class AccountError(MessageError, ValueError):
    """An account that cannot be made or changed: ``msg`` says why (an ``account.*``
    message, :mod:`notation.messages.admin`)."""


@dataclass(frozen=True)
class User:
    """An account as the viewer sees it (never its password hash)."""

    id: int
    name: str
    role: str
    session_key: str
    created: str
    language: str | None = None
    """The language the user chose for the viewer's pages (``fr``, ``en``, ``ru``), or
    ``None`` (not chosen: the browser's)."""

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    def may(self, role: str) -> bool:
        """Whether this user has ``role`` or a role above it."""
        return ROLES.index(self.role) >= ROLES.index(role)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _checked_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise AccountError("account.name.empty")
    if len(name) > MAX_NAME or not name.isprintable():
        raise AccountError("account.name.form", count=MAX_NAME)
    return name


def _checked_password(password: str) -> str:
    if not password:
        raise AccountError("account.password.empty")
    if len(password) > MAX_PASSWORD:
        raise AccountError("account.password.long", count=MAX_PASSWORD)
    return password


def _user(row: Any) -> User | None:
    return None if row is None else User(*row)


_COLUMNS = "id, name, role, session_key, created, language"


def add_user(db: Database, name: str, role: str, password: str) -> User:
    """A new account; :class:`AccountError` if the name is taken, the role unknown or the
    password empty."""
    name = _checked_name(name)
    if role not in ROLES:
        raise AccountError("account.role", roles=", ".join(ROLES))
    password_hash = generate_password_hash(_checked_password(password))
    with db.conn:
        if find_user(db, name) is not None:
            raise AccountError("account.taken", name=repr(name))
        db.execute("INSERT INTO users (name, key, role, password_hash, session_key, created) "
                   "VALUES (?, ?, ?, ?, ?, ?)",
                   [name, name.casefold(), role, password_hash, secrets.token_urlsafe(24), _now()])
    user = find_user(db, name)
    assert user is not None
    return user


def find_user(db: Database, name: str) -> User | None:
    """The account called ``name`` (case folded), or ``None``."""
    return _user(db.execute(f"SELECT {_COLUMNS} FROM users WHERE key = ?",
                            [" ".join(name.split()).casefold()]).fetchone())


def open_session(db: Database, user: User) -> str:
    """A new signed-in session of ``user``: its random id, for the session cookie (stored
    here only as its SHA-256). Sessions older than :data:`SESSION_DAYS` are removed."""
    session_id = secrets.token_urlsafe(24)
    with db.conn:
        db.execute("DELETE FROM sessions WHERE created < ?", [_days_ago(SESSION_DAYS)])
        db.execute("INSERT INTO sessions (id_hash, user_id, created) VALUES (?, ?, ?)",
                   [_digest(session_id), user.id, _now()])
    return session_id


def close_session(db: Database, session_id: str) -> None:
    """End the session ``session_id`` (signing out): its cookie no longer signs anyone in."""
    with db.conn:
        db.execute("DELETE FROM sessions WHERE id_hash = ?", [_digest(session_id)])


def user_of_session(db: Database, session_key: str, session_id: str) -> User | None:
    """The account signed in by the session ``session_id`` whose cookie carries
    ``session_key``, or ``None`` (signed out, older than :data:`SESSION_DAYS`, the password
    changed or the account removed since)."""
    return _user(db.execute(
        f"SELECT {', '.join('u.' + c for c in _COLUMNS.split(', '))} FROM users u "
        "JOIN sessions s ON s.user_id = u.id WHERE u.session_key = ? AND s.id_hash = ? "
        "AND s.created >= ?", [session_key, _digest(session_id), _days_ago(SESSION_DAYS)]).fetchone())


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


def _days_ago(days: int) -> str:
    return (datetime.now(timezone.utc) - timedelta(days=days)).isoformat(timespec="seconds")


def set_language(db: Database, user: User, language: str | None) -> None:
    """Keep ``language`` as ``user``'s choice for the viewer's pages (``None``: none)."""
    with db.conn:
        db.execute("UPDATE users SET language = ? WHERE id = ?", [language, user.id])


def list_users(db: Database) -> list[User]:
    """Every account, by name."""
    return [User(*row) for row in db.execute(f"SELECT {_COLUMNS} FROM users ORDER BY key")]


def count_users(db: Database) -> int:
    """How many accounts there are."""
    return int(db.execute("SELECT count(*) FROM users").fetchone()[0])


def remove_user(db: Database, name: str) -> User:
    """Remove the account ``name`` (its sessions end with it); :class:`AccountError` if
    there is none. The games it is recording stay, owned by nobody (an account made later
    may get the same id), for an admin to finish or let expire."""
    with db.conn:
        user = find_user(db, name)
        if user is None:
            raise AccountError("account.unknown", name=repr(name))
        db.execute("UPDATE live_games SET owner_id = NULL WHERE owner_id = ?", [user.id])
        db.execute("DELETE FROM sessions WHERE user_id = ?", [user.id])
        db.execute("DELETE FROM users WHERE id = ?", [user.id])
    return user


def set_password(db: Database, name: str, password: str) -> User:
    """A new password for ``name``, which ends its sessions; :class:`AccountError` if
    there is no such user or the password is empty."""
    password_hash = generate_password_hash(_checked_password(password))
    with db.conn:
        user = find_user(db, name)
        if user is None:
            raise AccountError("account.unknown", name=repr(name))
        db.execute("UPDATE users SET password_hash = ?, session_key = ? WHERE id = ?",
                   [password_hash, secrets.token_urlsafe(24), user.id])
        db.execute("DELETE FROM sessions WHERE user_id = ?", [user.id])
    changed = find_user(db, name)
    assert changed is not None
    return changed


def check_password(db: Database, name: str, password: str) -> User | None:
    """The account if ``password`` is its password, else ``None`` (an unknown name takes as
    long as a wrong password)."""
    row = db.execute(f"SELECT {_COLUMNS}, password_hash FROM users WHERE key = ?",
                     [" ".join(name.split()).casefold()]).fetchone()
    if len(password) > MAX_PASSWORD:
        return None
    if row is None:
        check_password_hash(_UNKNOWN, password)
        return None
    return User(*row[:-1]) if check_password_hash(row[-1], password) else None


@dataclass(frozen=True)
class SignInLimit:
    """At most ``failures`` failed sign-ins in a row for one name from one address, and
    ``address_failures`` from one address whatever the names; then that name from that
    address (or that address) waits ``window`` seconds from its last attempt. A name is
    never limited as such: guesses from elsewhere do not keep its owner out."""

    failures: int = 5
    address_failures: int = 20
    window: float = 900.0

    def attempt(self, db: Database, name: str, address: str | None,
                now: float | None = None) -> float:
        """Count a sign-in attempt of ``name`` from ``address`` as a failure before its
        password is checked, in one write transaction (so that attempts at once cannot all
        pass the limit): 0 if it may go on, else the seconds until it may try again
        (nothing counted then). A right password then undoes it (:meth:`succeeded`)."""
        now = time.time() if now is None else now
        pair, whole = _subjects(name, address)

        def count() -> float:
            db.execute("DELETE FROM login_failures WHERE last < ?", [now - self.window])
            counts = dict(db.execute("SELECT subject, failures FROM login_failures WHERE subject "
                                     "IN (?, ?)", [pair, whole]).fetchall())
            if counts.get(pair, 0) >= self.failures or counts.get(whole, 0) >= self.address_failures:
                last = db.execute("SELECT max(last) FROM login_failures WHERE subject IN (?, ?)",
                                  [pair, whole]).fetchone()[0]
                return max(0.0, float(last) + self.window - now)
            db.conn.executemany(
                "INSERT INTO login_failures (subject, failures, last) VALUES (?, 1, ?) "
                "ON CONFLICT (subject) DO UPDATE SET failures = failures + 1, last = excluded.last",
                [(pair, now), (whole, now)])
            return 0.0

        return writing(db, count)

    def succeeded(self, db: Database, name: str, address: str | None) -> None:
        """A right password: the count of ``name`` from ``address`` cleared, and this
        attempt taken back off the address's count (its other failures stay)."""
        pair, whole = _subjects(name, address)

        def clear() -> None:
            db.execute("DELETE FROM login_failures WHERE subject = ?", [pair])
            db.execute("UPDATE login_failures SET failures = failures - 1 WHERE subject = ?", [whole])
            db.execute("DELETE FROM login_failures WHERE subject = ? AND failures <= 0", [whole])

        writing(db, clear)


def _subjects(name: str, address: str | None) -> tuple[str, str]:
    """What a sign-in is counted against: its name (case folded) from its client address,
    and its address."""
    where = address or "-"
    return f"name:{' '.join(name.split()).casefold()} address:{where}", f"address:{where}"
