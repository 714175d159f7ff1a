"""tests/gcn: the GCN kernels of asm/, assembled by LLVM 15 and executed by a test-only
interpreter. Every test here needs the LLVM tools: without them it is skipped with the reason
(or fails under MIOPEN_CY_REQUIRE_GCN_TOOLS=1, as in CI's GCN step)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from gcn_tools import require_tools  # noqa: E402


@pytest.fixture(autouse=True)
def _gcn_tools():
    require_tools()
