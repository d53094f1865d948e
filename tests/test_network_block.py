"""The suite's network block (tests/netblock, installed by tests/conftest.py)
really blocks: in this process, in a child Python, and for the real
irilint entry points.  If the block were missing these tests fail; they do
not need a network to pass (the refusal comes before any packet)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

import _irilint_netblock as netblock

BLOCKED = netblock.MESSAGE


@pytest.fixture(autouse=True)
def _own_log(tmp_path, monkeypatch):
    """These tests attempt on purpose: log to their own file, not the session's
    (which fails the session when it is not empty)."""
    log = tmp_path / "attempts.log"
    monkeypatch.setenv(netblock.LOG_ENV, str(log))
    return log


def _child(code: str, **env):
    e = dict(os.environ)
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=e)


@pytest.mark.parametrize("family", ["AF_INET", "AF_INET6"])
def test_creating_an_internet_socket_raises(family):
    with pytest.raises(netblock.NetworkBlockedError, match=BLOCKED):
        socket.socket(getattr(socket, family), socket.SOCK_STREAM)


def test_udp_and_raw_c_level_sockets_are_refused_too():
    import _socket

    with pytest.raises(netblock.NetworkBlockedError):
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    with pytest.raises(netblock.NetworkBlockedError):
        _socket.socket(socket.AF_INET, socket.SOCK_STREAM)


def test_unix_sockets_still_work():
    a, b = socket.socketpair()
    with a, b:
        a.sendall(b"x")
        assert b.recv(1) == b"x"


def test_name_resolution_is_refused():
    with pytest.raises(netblock.NetworkBlockedError):
        socket.getaddrinfo("example.com", 80)
    with pytest.raises(netblock.NetworkBlockedError):
        socket.create_connection(("192.0.2.1", 80), timeout=1)


def test_urlopen_fails_with_the_block_error_not_a_timeout(_own_log):
    with pytest.raises(netblock.NetworkBlockedError, match=BLOCKED):
        urllib.request.urlopen("http://192.0.2.1/", timeout=30)
    assert "192.0.2.1" in _own_log.read_text(encoding="utf-8")


def test_a_socket_rebuilt_from_a_descriptor_cannot_connect(monkeypatch):
    # socket(fileno=...) does not show its family when it is created, so the
    # connect is what is refused.  An internet socket's descriptor can only be
    # had with the loopback exception on; it is turned off before the rebuild.
    monkeypatch.setenv(netblock.ALLOW_ENV, "loopback")
    fd = socket.socket(socket.AF_INET, socket.SOCK_STREAM).detach()
    monkeypatch.delenv(netblock.ALLOW_ENV)
    with socket.socket(fileno=fd) as s:
        assert s.family == socket.AF_INET
        with pytest.raises(netblock.NetworkBlockedError):
            s.connect(("127.0.0.1", 9))


def test_a_child_python_is_blocked(_own_log):
    r = _child("import socket; socket.socket(socket.AF_INET)")
    assert r.returncode != 0
    assert "NetworkBlockedError" in r.stderr and BLOCKED in r.stderr, r.stderr
    assert "socket.__new__" in _own_log.read_text(encoding="utf-8")


def test_a_child_urlopen_is_blocked():
    r = _child("import urllib.request; urllib.request.urlopen('http://192.0.2.1/', timeout=30)")
    assert r.returncode != 0 and BLOCKED in r.stderr, r.stderr


def test_loopback_exception_allows_only_loopback(monkeypatch):
    monkeypatch.setenv(netblock.ALLOW_ENV, "loopback")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        with pytest.raises(netblock.NetworkBlockedError):
            s.connect(("192.0.2.1", 80))
    with pytest.raises(netblock.NetworkBlockedError):
        socket.getaddrinfo("example.com", 80)


@pytest.mark.allow_loopback
def test_the_marker_sets_the_loopback_exception_for_children():
    r = _child("import socket\n"
               "s = socket.socket(); s.bind(('127.0.0.1', 0))\n"
               "try:\n    s.connect(('192.0.2.1', 80))\n"
               "except Exception as e:\n    print(type(e).__name__)\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "NetworkBlockedError"


def test_without_the_marker_loopback_is_refused():
    with pytest.raises(netblock.NetworkBlockedError):
        socket.socket().bind(("127.0.0.1", 0))


@pytest.mark.parametrize("argv, installer", [
    (["python", "-m", "pip", "install", "."], True),
    (["python", "-mpip", "install", "."], True),
    (["/env/bin/python", "/env/bin/pip", "install", "x"], True),
    (["python", "/env/lib/site-packages/pip/__pip-runner__.py", "install"], True),
    (["python", "-m", "irilint", "check"], False),
    (["/env/bin/python", "/env/bin/irilint", "check", "."], False),
    (["python", "-m", "irilint.lsp"], False),
    (["python", "-c", "import pip"], False),
    (["python", "-m", "pipx"], False),
    (["python", "/tmp/pip.py"], False),
])
def test_only_pip_is_exempt(argv, installer):
    assert netblock.is_package_installer(argv) is installer


def test_the_irilint_cli_runs_under_the_block(tmp_path, _own_log):
    doc = tmp_path / "a.md"
    doc.write_text("see http://192.0.2.1/%7e and http://example.com/\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "irilint", "check", "--no-cache", str(doc)],
                       capture_output=True, text=True, timeout=120)
    assert "IRI402" in r.stdout, r.stdout + r.stderr
    assert "NetworkBlocked" not in r.stderr
    assert not _own_log.exists()


def test_children_inherit_the_block_folder():
    assert os.environ["PYTHONPATH"].split(os.pathsep)[0] == os.path.dirname(netblock.__file__)
