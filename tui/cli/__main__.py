"""``python -m tui.cli ARGS``: the console script ``vampire ARGS``."""

import sys

from tui.cli.parser import main

sys.exit(main())
