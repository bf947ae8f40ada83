"""`python -m dtypeguard` is the same CLI as the `dtypeguard` script."""

import sys

from dtypeguard.cli import main

sys.exit(main())
