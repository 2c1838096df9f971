"""The addresses ``gongzhu-score serve`` prints (issue 34): read from the network interfaces, not
the host name; one line per address it can be reached at, loopback last; a QR code for each
address a phone can open; and, where listening everywhere finds none, a plain word on stderr.

The unit tests fake psutil's view of the interfaces. The ``netns`` test runs the real command in
a network namespace of its own, whose host name resolves to 127.0.1.1 (as Debian and Ubuntu
write it in /etc/hosts) and whose one interface has 10.77.0.5: the page is served there.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from clitools import run
from serving import command

from gongzhu_score.terms import say
from gongzhu_score.web import serving
from gongzhu_score.web.serving import off_loopback, page_addresses

KEY = "Qm9vX3R0dGhlX3BpZ3M1"
AF_LINK = 17  # (psutil.AF_LINK on Linux: an interface's hardware address, never the page's)


class Address(NamedTuple):  # (psutil's snicaddr)
    family: int
    address: str
    netmask: str | None = None
    broadcast: str | None = None
    ptp: str | None = None


class Stats(NamedTuple):  # (psutil's snicstats: isup is "up and running")
    isup: bool
    duplex: int = 0
    speed: int = 0
    mtu: int = 1500


Interfaces = Callable[..., None]


@pytest.fixture
def interfaces(monkeypatch: pytest.MonkeyPatch) -> Interfaces:
    """``interfaces(lo=["127.0.0.1", "::1"], eth0=[...], down={"eth1"})``: psutil sees these."""
    import psutil

    def fake(down: frozenset[str] | set[str] = frozenset(), **named: list[str]) -> None:
        def family(address: str) -> int:
            if address.count(":") == 5 and "::" not in address:
                return AF_LINK
            return socket.AF_INET6 if ":" in address else socket.AF_INET

        addrs = {name: [Address(family(a), a) for a in found] for name, found in named.items()}
        stats = {name: Stats(isup=name not in down) for name in named}
        monkeypatch.setattr(psutil, "net_if_addrs", lambda: addrs)
        monkeypatch.setattr(psutil, "net_if_stats", lambda: stats)

    return fake


LO = ["127.0.0.1", "::1", "00:00:00:00:00:00"]


def urls(*hosts: str, port: int = 8000, key: str = KEY) -> list[str]:
    return [f"http://{h}:{port}/?key={key}" for h in hosts]


def kept_key(ledger: Path) -> str:
    """The match's key, as serve made it beside the ledger."""
    return ledger.with_name(ledger.name + ".key").read_text().strip()


def test_loopback_only_everywhere_is_the_loopback_address(interfaces: Interfaces) -> None:
    interfaces(lo=LO)
    assert page_addresses("0.0.0.0", 8000, KEY) == urls("127.0.0.1")
    assert page_addresses("::", 8000, KEY) == urls("[::1]")
    assert off_loopback(page_addresses("0.0.0.0", 8000, KEY)) == []


def test_every_lan_address_of_every_interface_then_loopback_last(interfaces: Interfaces) -> None:
    # (the host name is not asked: Debian's 127.0.1.1 cannot hide the LAN's address)
    interfaces(lo=LO, eth0=["192.168.1.23", "02:fc:00:00:00:01"], wlan0=["10.8.0.4", "10.8.0.9"])
    found = page_addresses("0.0.0.0", 8000, KEY)
    assert found == urls("192.168.1.23", "10.8.0.4", "10.8.0.9", "127.0.0.1")
    assert off_loopback(found) == found[:-1]


def test_an_interface_that_is_down_gives_no_address(interfaces: Interfaces) -> None:
    interfaces(lo=LO, eth0=["192.168.1.23"], wlan0=["10.8.0.4"], down={"eth0"})
    assert page_addresses("0.0.0.0", 8000, KEY) == urls("10.8.0.4", "127.0.0.1")
    interfaces(lo=LO, eth0=["192.168.1.23"], down={"eth0"})
    assert page_addresses("0.0.0.0", 8000, KEY) == urls("127.0.0.1")


def test_ipv6_global_addresses_in_brackets_never_link_local(
    interfaces: Interfaces, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(socket, "has_dualstack_ipv6", lambda: True)
    interfaces(lo=LO, eth0=["192.168.1.23", "2001:db8::5", "fe80::fc:ff:fe00:1%eth0", "fd00::2"],
               wlan0=["fe80::1%wlan0", "ff02::1"])  # fmt: skip
    # On 0.0.0.0 (IPv4 only) no IPv6 address is the page's.
    assert page_addresses("0.0.0.0", 8000, KEY) == urls("192.168.1.23", "127.0.0.1")
    # On :: the IPv4 ones too (its socket takes IPv4), then the IPv6 ones but link-local's.
    assert page_addresses("::", 8000, KEY) == urls(
        "192.168.1.23", "[2001:db8::5]", "[fd00::2]", "[::1]"
    )


def test_on_ipv6_only_systems_double_colon_gives_only_ipv6_addresses(
    interfaces: Interfaces, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(socket, "has_dualstack_ipv6", lambda: False)
    interfaces(lo=LO, eth0=["192.168.1.23", "2001:db8::5"])
    assert page_addresses("::", 8000, KEY) == urls("[2001:db8::5]", "[::1]")


def test_a_host_of_its_own_is_the_one_address(interfaces: Interfaces) -> None:
    interfaces(lo=LO, eth0=["192.168.1.23"])
    assert page_addresses("127.0.0.1", 8000, KEY) == urls("127.0.0.1")
    assert page_addresses("10.8.0.4", 8000, KEY) == urls("10.8.0.4")
    assert page_addresses("2001:db8::5", 8000, KEY) == urls("[2001:db8::5]")
    assert off_loopback(page_addresses("::1", 8000, KEY)) == []


def test_double_colon_listens_on_ipv4_too() -> None:
    """What page_addresses says of ``::``: its socket takes IPv4 (socket.create_server alone
    would make it IPv6 only)."""
    if not (socket.has_ipv6 and socket.has_dualstack_ipv6()):
        pytest.skip("no dual-stack IPv6 here")
    try:
        sock = serving.listen("::", 0)
    except Exception as e:  # (an IPv6 stack turned off)
        pytest.skip(f"cannot listen on :: here: {e}")
    with sock, socket.create_connection(("127.0.0.1", sock.getsockname()[1]), timeout=10):
        pass


# --- what serve prints ----------------------------------------------------------------------


@pytest.fixture
def stub_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, list[int]]:
    """serve's command as it is, but listening on a free port of loopback (whatever --host
    says) and serving nothing: a ledger, and the ports it listened on."""
    ledger = tmp_path / "tonight.yaml"
    assert run("match", "new", str(ledger), "--players", "东,南,西,北").exit_code == 0
    listen, ports = serving.listen, []

    def on_loopback(host: str, port: int) -> socket.socket:
        sock = listen("127.0.0.1", 0)
        ports.append(sock.getsockname()[1])
        return sock

    monkeypatch.setattr(serving, "listen", on_loopback)
    monkeypatch.setattr(serving, "serve", lambda *args: args[3].close())
    monkeypatch.setattr(serving, "qr_text", lambda url: f"QR {url}\n")
    return ledger, ports


def test_serve_prints_every_address_and_a_qr_code_for_each_a_phone_can_open(
    interfaces: Interfaces, stub_server: tuple[Path, list[int]]
) -> None:
    ledger, ports = stub_server
    interfaces(lo=LO, eth0=["192.168.1.23"], wlan0=["10.8.0.4"])
    done = run("serve", str(ledger), "--host", "0.0.0.0")
    assert done.exit_code == 0, done.stderr
    found = urls("192.168.1.23", "10.8.0.4", "127.0.0.1", port=ports[-1], key=kept_key(ledger))
    lines = done.stdout.splitlines()
    assert lines[:5] == [*found, f"QR {found[0]}", f"QR {found[1]}"]
    assert lines[5] == say("serve.running", "en", ledger=str(ledger))
    assert done.stderr == ""


def test_serve_says_when_no_phone_can_reach_this_machine(
    interfaces: Interfaces, stub_server: tuple[Path, list[int]]
) -> None:
    ledger, ports = stub_server
    interfaces(lo=LO, eth0=["192.168.1.23"], down={"eth0"})
    for lang in ("en", "zh"):
        done = run("serve", str(ledger), "--host", "0.0.0.0", "--lang", lang)
        assert done.exit_code == 0, done.stderr
        only = urls("127.0.0.1", port=ports[-1], key=kept_key(ledger))[0]
        assert done.stdout.splitlines()[:2] == [only, f"QR {only}"]
        assert done.stderr.strip() == say("serve.no_network", lang)
    assert "no network" in say("serve.no_network", "en")
    # On loopback by choice (the default), nothing is said: the one address gets its code.
    done = run("serve", str(ledger))
    only = urls("127.0.0.1", port=ports[-1], key=kept_key(ledger))[0]
    assert done.stdout.splitlines()[:2] == [only, f"QR {only}"] and done.stderr == ""


# --- the "done when": a host name that resolves to 127.0.1.1 -------------------------

INSIDE = r"""
import json, subprocess, sys, time, urllib.request
serve, ledger, hosts = json.loads(sys.argv[1]), *sys.argv[2:4]

def sh(line):
    subprocess.run(line, shell=True, check=True)

sh("mount --make-rprivate /")
sh("hostname gongzhu-test")
sh(f"mount --bind {hosts} /etc/hosts")
sh("ip link set lo up")
# A dummy link; a pair of veth links where the kernel has none (either is up and running).
if subprocess.run("ip link add gz0 type dummy", shell=True, capture_output=True).returncode:
    sh("ip link add gz0 type veth peer name gz1 && ip link set gz1 up")
sh("ip addr add 10.77.0.5/24 dev gz0 && ip -6 addr add fd77::5/64 dev gz0 nodad")
sh("ip link set gz0 up")
said = {"getent": subprocess.run(["getent", "hosts", "gongzhu-test"], capture_output=True,
                                 text=True).stdout.split()}

def served(host):
    process = subprocess.Popen([*serve, "serve", ledger, "--host", host, "--port", "0", "--no-qr"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while (line := process.stdout.readline().strip()).startswith("http://"):
            lines.append(line)
        statuses = []
        for url in lines:
            for attempt in range(100):  # (the socket listens before anything is printed)
                try:
                    with urllib.request.urlopen(url, timeout=10) as answer:
                        statuses.append(answer.status)
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                statuses.append(None)
        return {"lines": lines, "then": line, "statuses": statuses}
    finally:
        process.send_signal(2)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        said.setdefault("stderr", []).append(process.stderr.read())

said["everywhere"] = served("0.0.0.0")
said["ipv6"] = served("::")
print(json.dumps(said))
"""


@pytest.mark.netns
def test_serve_everywhere_prints_the_interface_address_where_the_host_name_is_loopback(
    tmp_path: Path,
) -> None:
    ledger = tmp_path / "L.yaml"
    made = subprocess.run([*command(), "match", "new", str(ledger), "--players", "东,南,西,北"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert made.returncode == 0, made.stderr
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1 localhost\n::1 localhost\n127.0.1.1 gongzhu-test\n")
    inside = ["unshare", "--net", "--uts", "--mount", sys.executable, "-c", INSIDE]
    done = subprocess.run([*inside, json.dumps(command()), str(ledger), str(hosts)],
                          capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    said: dict[str, Any] = json.loads(done.stdout)
    assert said["getent"] == ["127.0.1.1", "gongzhu-test"]  # (Debian's /etc/hosts)
    stopped = "stopped serving; every ledger is as it was last written\n"  # (Ctrl-C: one line)
    assert said["stderr"] == [stopped, stopped]

    lines = said["everywhere"]["lines"]
    port = lines[0].split(":")[2].split("/")[0]
    key = lines[0].partition("?key=")[2]
    assert len(key) >= 16
    assert lines == [f"http://10.77.0.5:{port}/?key={key}", f"http://127.0.0.1:{port}/?key={key}"]
    assert said["everywhere"]["statuses"] == [200, 200]
    assert said["everywhere"]["then"].startswith("serving ")

    lines = said["ipv6"]["lines"]
    port = lines[0].split("/")[2].rpartition(":")[2]
    assert lines == [f"http://10.77.0.5:{port}/?key={key}", f"http://[fd77::5]:{port}/?key={key}",
                     f"http://[::1]:{port}/?key={key}"]  # fmt: skip
    assert said["ipv6"]["statuses"] == [200, 200, 200]
