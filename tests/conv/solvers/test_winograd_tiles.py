"""The generated Winograd transforms of the GPU's 5x5 solvers (hip/kernels/conv/conv_winograd_tiles.hpp,
written by tools/winograd_tiles.py): the header is the generator's output, unedited, and the
generator's exact matrices compute the correlation, A^T [(G g) . (B^T d)] = d (*) g, for every
tile it emits (checked in exact rational arithmetic on random integer data)."""
import importlib.util
import io
import os
import random
from contextlib import redirect_stdout
from fractions import Fraction

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")
HEADER = os.path.join(ROOT, "hip", "kernels", "conv", "conv_winograd_tiles.hpp")


def generator():
    spec = importlib.util.spec_from_file_location("winograd_tiles", os.path.join(ROOT, "tools", "winograd_tiles.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_header_is_the_generators_output():
    out = io.StringIO()
    with redirect_stdout(out):
        generator().main()
    with open(HEADER, encoding="utf-8") as f:
        assert f.read() == out.getvalue(), (
            "conv_winograd_tiles.hpp differs from the generator: run "
            "`python tools/winograd_tiles.py > hip/kernels/conv/conv_winograd_tiles.hpp`")


@pytest.mark.parametrize("tile", sorted(generator().TILES), ids=lambda t: f"F({t[0]},{t[1]})")
def test_matrices_compute_the_correlation(tile):
    gen = generator()
    m, r = tile
    at, g, bt = gen.matrices(m, r, gen.TILES[tile])
    a = m + r - 1
    rng = random.Random(m * 10 + r)
    for _ in range(20):
        d = [Fraction(rng.randint(-9, 9)) for _ in range(a)]
        w = [Fraction(rng.randint(-9, 9)) for _ in range(r)]
        u = [sum(g[j][k] * w[k] for k in range(r)) for j in range(a)]
        v = [sum(bt[j][s] * d[s] for s in range(a)) for j in range(a)]
        y = [sum(at[i][j] * u[j] * v[j] for j in range(a)) for i in range(m)]
        assert y == [sum(d[i + k] * w[k] for k in range(r)) for i in range(m)]
