"""The test suite's network block: every socket that could reach another
machine is refused, in the pytest process and in every Python process it
starts (through ``sitecustomize.py`` next to this file, which
``tests/conftest.py`` puts first on ``PYTHONPATH``).

It is an audit hook (PEP 578), not a patch of the ``socket`` module, so
that it also covers code that uses ``_socket`` directly or keeps a
reference to ``socket.socket`` taken before the patch.  It refuses:

* ``socket.__new__`` for every family but ``AF_UNIX`` (asyncio's self-pipe
  and ``socketpair`` are Unix sockets);
* ``connect``/``bind``/``sendto``/``sendmsg`` to any non-Unix address, which
  catches sockets rebuilt from a file descriptor, whose family the
  ``__new__`` event does not show;
* name resolution (``getaddrinfo``, ``gethostbyname``, ...).

The refusal is :class:`NetworkBlockedError`, deliberately *not* an
``OSError``: code that quietly handles network errors must not hide an
attempt.  Every attempt is also appended to the file named by
``IRILINT_NETBLOCK_LOG`` (if set), so that an attempt in a child process
whose error was swallowed still fails the session (see the session hook in
``tests/conftest.py``).

Exceptions, read at each event so a test can switch them with
``monkeypatch.setenv``:

* ``IRILINT_NETBLOCK_ALLOW=loopback``: 127.0.0.0/8, ``::1`` and
  ``localhost`` are allowed, every other address still refused.  Set only
  for tests marked ``allow_loopback`` (the ``--tcp`` transport test).
* the package installer: :func:`is_package_installer` is true for a
  process whose main module is pip (pre-commit pip-installs the hook
  environment).  The decision is made once, from the process's own command
  line, and never holds for irilint.
"""
from __future__ import annotations

import os
import socket as _socket_module
import sys

MESSAGE = "irilint test suite: network access is blocked"
ALLOW_ENV = "IRILINT_NETBLOCK_ALLOW"
LOG_ENV = "IRILINT_NETBLOCK_LOG"

_UNIX = getattr(_socket_module, "AF_UNIX", None)
_LOOPBACK_NAMES = {"localhost", "localhost.", "ip6-localhost", "::1", "0:0:0:0:0:0:0:1"}
_ADDRESS_EVENTS = {"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"}
_RESOLVE_EVENTS = {"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
                   "socket.getnameinfo"}

_installed = False


class NetworkBlockedError(RuntimeError):
    """A network operation the test suite refuses."""


def _loopback_allowed() -> bool:
    return os.environ.get(ALLOW_ENV) == "loopback"


def _is_loopback_host(host) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    host = host.lower().split("%", 1)[0]  # an IPv6 zone id
    if host in _LOOPBACK_NAMES:
        return True
    parts = host.split(".")
    return len(parts) == 4 and parts[0] == "127" and all(p.isdigit() for p in parts)


def _address_host(address):
    """The host of a socket address, or None for a Unix socket path."""
    if isinstance(address, (str, bytes, bytearray)):
        return None  # AF_UNIX (a path or an abstract name)
    if isinstance(address, tuple) and address:
        return address[0]
    return address  # something else: never allowed


def _refuse(event: str, detail) -> None:
    what = "%s %r" % (event, detail)
    log = os.environ.get(LOG_ENV)
    if log:
        try:
            with open(log, "a", encoding="utf-8") as f:
                f.write("pid %d %r: %s\n" % (os.getpid(), getattr(sys, "orig_argv", sys.argv), what))
        except OSError:
            pass
    raise NetworkBlockedError("%s (%s)" % (MESSAGE, what))


def _hook(event: str, args) -> None:
    if not event.startswith("socket."):
        return
    if event == "socket.__new__":
        family = args[1]
        # -1: rebuilt from a file descriptor (family unknown here); its
        # connect/bind events are checked below.
        if family in (_UNIX, -1):
            return
        if _loopback_allowed() and family in (_socket_module.AF_INET, _socket_module.AF_INET6):
            return  # the address is checked at connect/bind
        _refuse(event, "family %r" % (family,))
    elif event in _ADDRESS_EVENTS:
        address = args[1]
        host = _address_host(address)
        if host is None:
            return
        if _loopback_allowed() and _is_loopback_host(host):
            return
        _refuse(event, address)
    elif event in _RESOLVE_EVENTS:
        host = args[0] if args else None
        if event == "socket.getnameinfo" and isinstance(host, tuple):
            host = host[0]
        if _loopback_allowed() and _is_loopback_host(host):
            return
        _refuse(event, args)


def is_package_installer(argv=None) -> bool:
    """Whether this process's main module is pip (``python -m pip``, a
    ``pip``/``pip3`` script, or pip's own runner script that pip uses for
    build dependencies)."""
    if argv is None:
        argv = list(getattr(sys, "orig_argv", None) or [])
    if not argv:
        return False
    args = list(argv[1:])
    # skip interpreter options (-I, -E, -s, -u, -B, -W x, -X y)
    while args and args[0].startswith("-") and args[0][:2] not in ("-m", "-c") and args[0] != "-":
        opt = args.pop(0)
        if opt in ("-W", "-X") and args:
            args.pop(0)
    if args and args[0].startswith("-m"):  # "-m pip" or "-mpip"
        module = args[0][2:] or (args[1] if len(args) > 1 else "")
        return module == "pip" or module.startswith("pip.")
    if not args or args[0].startswith("-c") or args[0] == "-":
        return False
    script = os.path.normpath(args[0])
    name = os.path.basename(script)
    if name in ("pip", "pip3") or (name.startswith("pip3.") and name[5:].isdigit()):
        return True
    return os.path.basename(os.path.dirname(script)) == "pip" and name in (
        "__pip-runner__.py", "__main__.py")


def install() -> None:
    """Install the block in this process (once)."""
    global _installed
    if _installed:
        return
    sys.addaudithook(_hook)
    _installed = True


def install_unless_installer() -> None:
    if not is_package_installer():
        install()
