"""A C program written against MIOpen's miopen.h compiles against the installed package's header
and links to its library, unchanged, and runs several ops correctly."""
import os
import shutil
import subprocess

import pytest

from support.c_program import cc_command

HERE = os.path.dirname(__file__)


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
@pytest.mark.parametrize("program", ["ops_demo.c", "conv_demo.c", "find2_demo.c"])
def test_c_program_compiles_links_and_runs(tmp_path, program):
    exe = tmp_path / program.replace(".c", "")
    build = subprocess.run(cc_command(os.path.join(HERE, "c", program), exe), capture_output=True,
                           text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "all results match" in run.stdout
