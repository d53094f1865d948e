#!/usr/bin/env bash
# CI for the VS Code extension: install (the only step that uses the
# network), type-check, compile, test (unit tests, package.json checks, and
# the protocol test against the real server), package the .vsix offline and
# check what it holds.
#
# The protocol test runs $IRILINT_SERVER (the `irilint` executable), else
# `irilint` from PATH; under CI one of them must exist.
#
#   IRILINT_SERVER=/path/to/venv/bin/irilint bash editors/vscode/ci.sh
set -euo pipefail
cd "$(dirname "$0")"

echo "== VS Code extension: node $(node --version), npm $(npm --version 2>/dev/null)"

if [ -n "${IRILINT_SERVER:-}" ]; then
  if [ ! -x "$IRILINT_SERVER" ]; then
    echo "IRILINT_SERVER=$IRILINT_SERVER is not an executable" >&2
    exit 1
  fi
elif [ -n "${CI:-}" ] && ! command -v irilint >/dev/null 2>&1; then
  echo "CI: set IRILINT_SERVER (or put irilint on PATH) for the protocol test" >&2
  exit 1
fi

echo "== npm ci"
npm ci --no-audit --no-fund

# Nothing below needs the network.
export npm_config_offline=true

echo "== typecheck"
npm run typecheck

echo "== compile"
npm run compile

echo "== tests (helpers, package.json, protocol)"
npm test

echo "== package"
rm -f irilint.vsix
npm run package
ls -l irilint.vsix

echo "== .vsix contents"
npm run test:vsix
