"""The language server with broken features, to check that a failing
handler is answered and logged, and that the rest keeps working."""
import sys

import irilint.lsp.actions as actions
import irilint.lsp.hover as hover
from irilint.lsp.server import main


def boom(*args, **kwargs):
    raise RuntimeError("boom (deliberate test failure)")


hover.hover_markdown = boom
actions.refactor_actions = boom

if __name__ == "__main__":
    sys.exit(main())
