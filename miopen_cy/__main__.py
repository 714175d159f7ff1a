"""`python -m miopen_cy <sub-command> [flags]`: the miopen-driver command line (miopen_cy.driver)."""
import sys

from miopen_cy.driver import main

sys.exit(main())
