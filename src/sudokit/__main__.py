"""``python -m sudokit``: the same as the ``sudokit`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
