"""``python -m agentic_core``: the command line."""

import sys

from agentic_core.cli import main

sys.exit(main())
