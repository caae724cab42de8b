"""``python -m exactdp``: the same command as the installed ``exactdp`` script."""

import sys

from exactdp.cli import main

if __name__ == "__main__":
    sys.exit(main())
