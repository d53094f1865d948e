"""What every subcommand shares: exit statuses and the usage error."""
from __future__ import annotations

import argparse
import sys

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2


class UsageError(Exception):
    """A bad command line: exit 2 with the message."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> "None":  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise UsageError(message)
