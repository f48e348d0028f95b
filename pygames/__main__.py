"""`python -m pygames`: see pygames.cli."""

import sys

from .cli import main

sys.exit(main())
