"""The English catalog of what the archive, the accounts, the analysis and the viewer's
server say of their own work (:class:`archive.ArchiveError`,
:class:`archive.accounts.AccountError`, :class:`analysis.shipped.NoNet`, the trainers'
progress lines, a busy server's refusal). What SQLite itself says
(``database disk image is malformed``) is passed on as it wrote it, in a parameter."""

from __future__ import annotations

MESSAGES: dict[str, str | tuple[str, str]] = {
    # the archive (archive/store.py): opening it, SQLite's failures and the hint for each
    "archive.missing": "no archive at {path}",
    "archive.not-archive": "{path} is not a jacquet archive",
    "archive.foreign": (("{path} is an SQLite database but not a jacquet archive (it holds {count} "
                         "other table): nothing was written to it"),
                        ("{path} is an SQLite database but not a jacquet archive (it holds {count} "
                         "other tables): nothing was written to it")),
    "archive.damaged": ("the archive {path} is damaged ({problem}): run jacquet check on it, and "
                        "restore it from a backup"),
    "archive.failed.open": "cannot open the archive {path}: {error}",
    "archive.failed.read": "cannot read the archive {path}: {error}",
    "archive.failed.write": "cannot write to the archive {path}: {error}",
    "archive.failed.use": "cannot use the archive {path}: {error}",
    "archive.sqlite.hinted": "{error} ({hint})",
    "archive.hint.ioerr": "the disk may be full, over a size limit or failing",
    "archive.hint.readonly": "the file or its folder is read-only",
    "archive.hint.cantopen": "the folder is missing or cannot be written",
    "archive.hint.corrupt": "the file is damaged",
    "archive.hint.notadb": "it is not an SQLite file",
    "archive.hint.busy": "another process is writing to it",
    "archive.problem": "{path}: {problem}",
    # a search's filters (archive/search.py)
    "archive.filter.date": "{value} is not a date: write YYYY, YYYY.MM or YYYY.MM.DD",
    "archive.filter.words": ("{name} holds more than {count} word", "{name} holds more than {count} words"),
    "archive.filter.sort": "cannot sort by {sort}; sort by: {sorts}",
    # the key that signs the viewer's sessions, kept beside the archive
    "archive.key.short": (("JACQUET_SECRET_KEY is {count} character long: a key needs at least {least} "
                           "characters (python3 -c 'import secrets; print(secrets.token_hex(32))' "
                           "makes one)"),
                          ("JACQUET_SECRET_KEY is {count} characters long: a key needs at least {least} "
                           "characters (python3 -c 'import secrets; print(secrets.token_hex(32))' "
                           "makes one)")),
    "archive.key.owner": ("the key file {path} belongs to another user: remove it, or give it to the "
                          "user that runs the server (chown), mode 600"),
    "archive.key.mode": ("the key file {path} may be read by others (mode {mode}): chmod 600 {path}, or "
                         "remove it to make a new key (open sessions end)"),
    # accounts (archive/accounts.py)
    "account.name.empty": "a user name cannot be empty",
    "account.name.form": ("a user name is printable text of at most {count} character",
                          "a user name is printable text of at most {count} characters"),
    "account.password.empty": "the password cannot be empty",
    "account.password.long": ("the password is longer than {count} character",
                              "the password is longer than {count} characters"),
    "account.role": "the role is one of: {roles}",
    "account.role.scorer": "scorer",
    "account.role.admin": "admin",
    "account.taken": "the name {name} is taken",
    "account.unknown": "no user {name}",
    # the nets (analysis/shipped.py)
    "net.no-file": "no net file {path}",
    "net.not-shipped": ("no net is shipped for {variant}: train one with `jacquet train --variant "
                        "{variant} --games N -o {variant}.npz`, then give it with --net"),
    "net.not-a-net": "{path} is not a net file: {error}",
    "net.wrong-variant": "{path} is a {found} net, not a {variant} one",
    "net.race.not-a-net": "the shipped race net of {variant} is not one: {error}",
    "net.race.wrong-variant": "the shipped race net of {variant} is a {found} one",
    # a file that is not a net the engine can read (analysis/network.py, race.py: BadNet)
    "net.file.format": "the net file's format is {found}, not {version}",
    "net.file.shape": "the net file's first layer does not match its metadata",
    "net.file.inputs": ("the net file has {inputs} inputs, but {variant}'s encoding v{version} has "
                        "{size}: it was trained for another encoding; train it again"),
    "net.race.file.format": "{path} is not a race net of format {version}",
    "net.race.file.inputs": ("{path} has {inputs} inputs, but {variant}'s race inputs r{version} have "
                             "{size}: train it again"),
    # a judge the engine cannot make (analysis/ranking.py, confirm.py: CannotJudge)
    "judge.depth": "the engine looks {depths} ply ahead, not {ply}",
    "judge.net-variant": "a {net} net cannot judge {variant}",
    "judge.confirmation": "no confirmation '{setting}': one of {settings}",
    # the trainers (analysis/training.py, race_training.py, contact_training.py): progress lines
    "training.core.fast": "fast core (numba; a first run compiles its kernels, a minute or two, then cached)",
    "training.core.no-numba": ("reference engine (numba is not there: the fast core would run as plain "
                               "Python)"),
    "training.core.not-covered": "reference engine (the fast core does not train {variant} yet)",
    "training.policy.changed": ("{work} was begun by another engine (digest {begun}), not {policy}: "
                                "name the net it began with (jacquet train-contact --policy)"),
    "training.siblings.changed": ("{work} was begun with --siblings {begun}, not {siblings}: run it again "
                                  "with --siblings {begun}, or name another output"),
    "training.race.not-covered": "the fast core does not cover {variant}: its race net cannot be trained yet",
    "training.contact.prime": ("{variant} scores a prime held: its contact positions need the prime flags, "
                               "which the contact trainer does not follow yet"),
    "training.positions.race": ("{count} race position from {games} self-play games",
                                "{count} race positions from {games} self-play games"),
    "training.positions.contact": ("{count} contact position from {games} self-play games",
                                   "{count} contact positions from {games} self-play games"),
    "training.rolled-out": "rolled out {done}/{total} positions ({seconds} s CPU each)",
    "training.before-fit": "before the fit: loss {loss}, held out {held_out} (equity off by {equity})",
    "training.epoch": "epoch {epoch}: loss {loss}, held out {held_out} (equity off by {equity})",
    "training.skipped": "skipped {path}: {error}",
    "training.real": ("{count} contact position from recorded games ({files})",
                      "{count} contact positions from recorded games ({files})"),
    "count.files": ("{count} file", "{count} files"),
    "training.encoding.unknown": "no encoding version {version}: there are {versions}",
    "training.encoding.narrower": ("encoding version {version} lacks inputs of the version {net} net: a net "
                                   "is widened to a newer encoding only"),
    "training.encoding.hitting": ("encoding version {version} is for the rule sets with hitting; {variant} "
                                  "has none"),
    "training.resume.variant": "{path} holds a {found} net, not {variant}",
    "training.resume.committee": ("{path} holds a committee of nets ({engine}), which is made from its "
                                  "members by tools/committee.py, not trained: train a member, then make "
                                  "the committee again"),
    # the viewer's server refusing heavy work while its workers are busy (webviewer/plumbing/workers.py)
    "server.busy": ("The server is busy with other heavy requests (checking records, the engine's work), "
                    "or this address has its share of them under way: try again in a few seconds."),
    # the audit log's details (archive/audit.py), said in the reader's language
    "audit.recorded": "recorded",
    "audit.played": "played against the engine",
    "audit.saved": "saved from {name}",
    "audit.import": "jacquet import of {source}: {games}: {numbers}",
    "audit.deleted": "{white} - {black} {result}",
}
