"""`python -m miopen_cy.driver <sub-command> [flags]`: the same as `python -m miopen_cy`."""
import sys

from miopen_cy.driver import main

sys.exit(main())
