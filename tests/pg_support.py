"""A throwaway PostgreSQL server for the archive tests: a cluster in a temporary folder, on a Unix socket only.

``$PBEM_TEST_POSTGRES`` (a URL of a role that may create databases) uses an existing server instead.
The binaries are found on PATH or in ``/usr/lib/postgresql/*/bin`` (Debian's ``postgresql``; ``.ci/run``
installs it). initdb refuses to run as root, so as root the cluster is made and run as ``nobody``.
Tests skip, saying why, only when there are no binaries or the server does not start.
"""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

ENV = "PBEM_TEST_POSTGRES"
PASSWORD_USER = "pbem_pw"  # a role that logs in with a password (scram), for the credentials tests
PASSWORD = "Sw0rdfish-" + uuid.uuid4().hex[:12]


@dataclass
class Server:
    """A running server: ``url(database)`` reaches it as its superuser, ``stop()`` ends it (if it is ours)."""

    base: str  # URL without a database name
    socket: str | None = None  # the socket folder of our own cluster
    folder: Path | None = None
    runner: list[str] | None = None
    pg_ctl: str | None = None

    def url(self, database: str = "postgres", user: str = "pbem", password: str | None = None) -> str:
        if self.socket is None:
            return _with_database(self.base, database)
        login = quote(user) + (":" + quote(password, safe="") if password else "")
        return f"postgresql://{login}@/{database}?host={quote(self.socket)}"

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(sql)

    def new_database(self) -> str:
        import psycopg

        name = "pbem_test_" + uuid.uuid4().hex[:10]
        with psycopg.connect(self.url(), autocommit=True) as db:
            # Copying the template's files is the quicker way for a small database (PostgreSQL 15 and later).
            fast = db.info.server_version >= 150000
            db.execute(f"CREATE DATABASE {name}" + (" STRATEGY = FILE_COPY" if fast else ""))
        return name

    def drop_database(self, name: str) -> None:
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        if self.folder is None:
            return
        subprocess.run([*self.runner, self.pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


def _with_database(url: str, database: str) -> str:
    """``url`` (a postgresql:// URL) naming ``database`` instead of its own."""
    from urllib.parse import urlsplit, urlunsplit

    return urlunsplit(urlsplit(url)._replace(path="/" + database))


def binaries() -> str | None:
    """The folder of initdb and pg_ctl, or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return str(Path(found).parent)
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return str(Path(candidates[-1]).parent) if candidates else None


def start() -> Server | str:
    """A running server, or why none could be had."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install '.[test]')"
    if os.environ.get(ENV):
        return Server(os.environ[ENV])
    folder_of_binaries = binaries()
    if folder_of_binaries is None:
        return "no PostgreSQL binaries (initdb, pg_ctl): install Debian's postgresql, or set PBEM_TEST_POSTGRES"
    initdb, pg_ctl = str(Path(folder_of_binaries) / "initdb"), str(Path(folder_of_binaries) / "pg_ctl")
    root = os.geteuid() == 0
    # As root, in /tmp itself: $TMPDIR may be a folder nobody cannot enter.
    folder = Path(tempfile.mkdtemp(prefix="pbem-pg-", dir="/tmp" if root and os.path.isdir("/tmp") else None))
    runner: list[str] = []
    if root:  # initdb and postgres refuse root: the cluster belongs to nobody
        runner = ["runuser", "-u", "nobody", "--"]
        shutil.chown(folder, "nobody")
    data, socket = folder / "data", folder
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}

    def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([*runner, *args], capture_output=True, text=True, cwd=folder, env=env, timeout=timeout)

    try:
        made = run(initdb, "-D", str(data), "-U", "pbem", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
        if made.returncode:
            raise RuntimeError(f"initdb failed: {(made.stderr or made.stdout).strip().splitlines()[-1:]}")
        # Local logins trust the OS user, except one role that must give its password (scram).
        (data / "pg_hba.conf").write_text(f"local all {PASSWORD_USER} scram-sha-256\nlocal all all trust\n")
        options = f"-k {socket} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
        started = run(pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-o", options, "-w", "-t", "60", "start", timeout=90)
        if started.returncode:
            log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else started.stderr
            raise RuntimeError(f"the server did not start: {log.strip().splitlines()[-1:]}")
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as error:
        run(pg_ctl, "-D", str(data), "-m", "immediate", "stop") if data.exists() else None
        shutil.rmtree(folder, ignore_errors=True)
        return f"a throwaway PostgreSQL could not be started: {error}"
    server = Server("", socket=str(socket), folder=folder, runner=runner, pg_ctl=pg_ctl)
    atexit.register(server.stop)  # also if the session ends without its finalizers (stop twice is harmless)
    server.admin(f"CREATE ROLE {PASSWORD_USER} LOGIN SUPERUSER PASSWORD '{PASSWORD}'")
    return server
