"""``serve``'s key file (issue 55): read and checked before anything changes; made owner-only
only when its key is the one served, only as a regular file beside the match (never through a
link), and said; a refused ``serve`` changes nothing: the mode and bytes of the key file, and of
a file a link there points at, are the same after as before.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest
from serving import command, serving

PLAYERS = "东,南,西,北"
GOOD_KEY = b"Qm9vX3R0dGhlX3BpZ3M1\n"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command(), *args], capture_output=True, text=True, timeout=60)


def serve_once(served: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command(), "serve", str(served), "--port", "0", "--no-qr", "--lang",
                           "en", *args], capture_output=True, text=True, timeout=30)  # fmt: skip


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def looks(*paths: Path) -> list[tuple[bool, int | None, bytes | None]]:
    """Each path's kind (a link?), mode and bytes (links followed)."""
    return [
        (p.is_symlink(), mode(p) if p.exists() else None, p.read_bytes() if p.exists() else None)
        for p in paths
    ]


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "table" / "k.yaml"
    path.parent.mkdir()
    assert cli("match", "new", str(path), "--players", PLAYERS).returncode == 0
    return path


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A file outside the match's folder, readable by others."""
    outside = tmp_path / "outside" / "secret.txt"
    outside.parent.mkdir()
    return outside


def test_a_loose_key_file_holding_no_key_is_refused_and_left_as_it_was(ledger: Path) -> None:
    key = ledger.with_name("k.yaml.key")
    key.write_bytes(b"not a key\n")
    key.chmod(0o644)
    before = looks(key)
    for args in ((), ("--host", "127.0.0.1")):
        done = serve_once(ledger, *args)
        assert done.returncode == 2, done
        assert done.stderr == f"error: {key}: holds no key the page can use; make a new one " \
                              "with --new-key\n"  # fmt: skip
        assert done.stdout == ""
    assert looks(key) == before == [(False, 0o644, b"not a key\n")]


def test_a_linked_key_file_holding_no_key_changes_nothing_outside(
    ledger: Path, elsewhere: Path
) -> None:
    elsewhere.write_bytes(b"my diary\n")
    elsewhere.chmod(0o644)
    key = ledger.with_name("k.yaml.key")
    key.symlink_to(elsewhere)
    before = looks(key, elsewhere)
    done = serve_once(ledger)
    assert done.returncode == 2 and "holds no key the page can use" in done.stderr, done
    assert looks(key, elsewhere) == before
    assert mode(elsewhere) == 0o644 and os.readlink(key) == str(elsewhere)


def test_a_folder_key_linked_out_is_never_tightened(tmp_path: Path, elsewhere: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    elsewhere.write_bytes(GOOD_KEY)
    elsewhere.chmod(0o644)
    key = tmp_path / "club.key"
    key.symlink_to(elsewhere)
    with (
        tempfile.TemporaryFile("w+", encoding="utf-8") as err,
        serving(str(folder), "--lang", "en", stderr=err) as served,
    ):
        assert served.key == GOOD_KEY.decode().strip()  # (the key it points at is used)
        assert served.get("/api/matches")[0] == 200
        err.seek(0)
        said = err.readline()
    assert mode(elsewhere) == 0o644 and key.is_symlink()  # never changed through the link
    assert elsewhere.read_bytes() == GOOD_KEY
    assert said == (
        f"warning: the page's key file {key} is a link to {elsewhere}, which others could read "
        "(mode 0644); left as it is, since serve changes no file elsewhere. Make that file "
        "owner-only, or replace the key with --new-key\n"
    )


def test_a_loose_key_file_in_use_is_made_owner_only_and_said(ledger: Path) -> None:
    key = ledger.with_name("k.yaml.key")
    key.write_bytes(GOOD_KEY)
    key.chmod(0o640)
    with (
        tempfile.TemporaryFile("w+", encoding="utf-8") as err,
        serving(str(ledger), "--lang", "en", stderr=err) as served,
    ):
        assert served.key == GOOD_KEY.decode().strip()
        assert mode(key) == 0o600
        err.seek(0)
        said = err.readline()
    assert said.startswith(f"warning: the page's key file {key} could be read by others (mode "
                           "0640); it is owner-only (0600) now")  # fmt: skip
    assert key.read_bytes() == GOOD_KEY


def test_a_new_key_replaces_a_link_and_leaves_its_target_alone(
    ledger: Path, elsewhere: Path
) -> None:
    elsewhere.write_bytes(GOOD_KEY)
    elsewhere.chmod(0o644)
    key = ledger.with_name("k.yaml.key")
    key.symlink_to(elsewhere)
    with serving(str(ledger), "--new-key") as served:
        assert served.key != GOOD_KEY.decode().strip()
        assert not key.is_symlink() and mode(key) == 0o600
        assert key.read_text().strip() == served.key
    assert looks(elsewhere) == [(False, 0o644, GOOD_KEY)]


def _taken_port() -> socket.socket:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s


@pytest.mark.parametrize("why", ["port taken", "empty host"])
@pytest.mark.parametrize("key_file", ["none", "loose", "loose, --new-key", "link"])
def test_a_serve_refused_later_changes_no_key_file(
    ledger: Path, elsewhere: Path, why: str, key_file: str
) -> None:
    key = ledger.with_name("k.yaml.key")
    if key_file.startswith("loose"):
        key.write_bytes(GOOD_KEY)
        key.chmod(0o644)
    elif key_file == "link":
        elsewhere.write_bytes(GOOD_KEY)
        elsewhere.chmod(0o644)
        key.symlink_to(elsewhere)
    args = ["--new-key"] if "new-key" in key_file else []
    before = looks(key, elsewhere)
    files = sorted(p.name for p in ledger.parent.iterdir())
    with _taken_port() as taken:
        if why == "port taken":
            args += ["--port", str(taken.getsockname()[1])]
        else:
            args += ["--host", ""]
        done = subprocess.run([*command(), "serve", str(ledger), "--no-qr", "--lang", "en", *args],
                              capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 2 and done.stdout == "", done
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("error: "), done.stderr
    assert looks(key, elsewhere) == before
    assert sorted(p.name for p in ledger.parent.iterdir()) == files  # (no key file made)
