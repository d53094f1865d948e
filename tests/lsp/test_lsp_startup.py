"""Start-up (issue 7: start to ``initialize`` within 1.2x a bare pygls
server): the server does not import what it needs only later -- the
scanners (until a document is read), the IRI parser and converters (until
a lint), the TOML parser (until a configuration file is read)."""
from __future__ import annotations

import json
import subprocess
import sys

LATER = ("tomllib", "irilint.convert", "irilint.iri", "irilint.engine", "irilint.rules",
         "irilint.scanners.text", "irilint.scanners.markdown", "irilint.scanners.html",
         "irilint.scanners.code")


def _modules_after(code: str) -> set:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_creating_the_server_imports_no_scanner_parser_or_toml():
    loaded = _modules_after("import irilint.lsp.server as s\ns.create_server()")
    assert "irilint.lsp.server" in loaded
    assert not loaded & set(LATER)


def test_the_package_api_still_loads_on_first_use():
    loaded = _modules_after("import irilint\nassert irilint.to_uri('http://é.org') == 'http://xn--9ca.org'\n"
                            "assert irilint.parse('a:b').scheme is not None\n"
                            "from irilint.scanners import SCANNERS, scanner_for\n"
                            "assert scanner_for(path='x.md').name == 'markdown' and 'html' in SCANNERS")
    assert {"irilint.convert", "irilint.iri", "irilint.scanners.markdown"} <= loaded
