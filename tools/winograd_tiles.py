#!/usr/bin/env python3
"""Writes hip/kernels/conv/conv_winograd_tiles.hpp: the 1-d Winograd transforms of the GPU
Winograd solvers for filters larger than 3x3, F(m, r) for the (m, r) in TILES, derived here
exactly (Python fractions) by the Toom-Cook construction and printed as straight-line code.

    python tools/winograd_tiles.py > hip/kernels/conv/conv_winograd_tiles.hpp

The construction, for alpha = m + r - 1 points p_0 .. p_{alpha-2} and infinity:
  A^T[i][j] = p_j^i (m x alpha; the column of infinity is 1 in its last row only),
  G[j][k]   = p_j^k / prod_{l != j} (p_j - p_l) (alpha x r; the row of infinity picks g_{r-1}),
  B^T       the one alpha x alpha matrix with A^T [(G g) . (B^T d)] = the correlation of d with g
            for every d and g (solved exactly below).
Forward and backward data use In (B^T), Fil (G) and Out (A^T); backward weights, with dy cut
into m x m tiles, uses In, Dy (A) and Wt (G^T):
  dw = sum over tiles of G^T [(A dy A^T) . (B^T x B)] G.
The points are Lavin & Gray's (0, +-1, +-2, +-1/2): the F(4,5) points are those of F(6,3).
fp32 error of the whole convolution, measured against float64 in tests/conv/solvers/
test_winograd.py, is stated in README.md.
"""
from fractions import Fraction as Fr
import struct
import sys

HALF = Fr(1, 2)
# (m, r): the finite points (alpha - 1 of them).
TILES = {
    (4, 5): [Fr(0), Fr(1), Fr(-1), Fr(2), Fr(-2), HALF, -HALF],
    (3, 5): [Fr(0), Fr(1), Fr(-1), Fr(2), Fr(-2), HALF],
}


def matrices(m, r, pts):
    a = m + r - 1
    assert len(pts) == a - 1
    at = [[Fr(0)] * a for _ in range(m)]
    g = [[Fr(0)] * r for _ in range(a)]
    for j, p in enumerate(pts):
        f = Fr(1)
        for l, q in enumerate(pts):
            if l != j:
                f *= p - q
        for i in range(m):
            at[i][j] = p**i
        for k in range(r):
            g[j][k] = p**k / f
    at[m - 1][a - 1] = Fr(1)
    g[a - 1][r - 1] = Fr(1)
    # B^T: for each column s of B^T, sum_j AT[i][j] G[j][k] BT[j][s] = [s == i + k] for all i, k:
    # m * r equations in the alpha unknowns BT[.][s], consistent; exact Gauss-Jordan.
    bt = [[Fr(0)] * a for _ in range(a)]
    for s in range(a):
        rows = [[at[i][j] * g[j][k] for j in range(a)] + [Fr(1 if s == i + k else 0)]
                for i in range(m) for k in range(r)]
        piv_cols = []
        row = 0
        for col in range(a):
            piv = next((x for x in range(row, len(rows)) if rows[x][col] != 0), None)
            if piv is None:
                continue
            rows[row], rows[piv] = rows[piv], rows[row]
            inv = 1 / rows[row][col]
            rows[row] = [v * inv for v in rows[row]]
            for x in range(len(rows)):
                if x != row and rows[x][col] != 0:
                    c = rows[x][col]
                    rows[x] = [vx - c * vr for vx, vr in zip(rows[x], rows[row])]
            piv_cols.append(col)
            row += 1
        assert len(piv_cols) == a, "B^T is not determined"
        assert all(all(v == 0 for v in rw) for rw in rows[row:]), "inconsistent system"
        for x, col in enumerate(piv_cols):
            bt[col][s] = rows[x][a]
    return at, g, bt


def literal(c):
    def f32(x):
        return struct.unpack("f", struct.pack("f", x))[0]

    value = f32(float(c))
    # the shortest decimal that reads back as this float (nine digits always do)
    text = next(t for t in ("%.{}g".format(d) % value for d in range(1, 10)) if f32(float(t)) == value)
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


def term(c, name):
    """(sign, text) of c * name."""
    if c == 1:
        return "+", name
    if c == -1:
        return "-", name
    return ("-" if c < 0 else "+"), f"{literal(abs(c))} * {name}"


def statement(head, coefs, names, indent):
    """`head` = the sum of coefs * names, the zero terms left out, as lines of at most 110
    columns, broken before a "+" or "-"."""
    parts = [term(c, n) for c, n in zip(coefs, names) if c != 0]
    if not parts:
        return [head + "0.0f;"]
    sign, text = parts[0]
    lines, line = [], head + ("-" if sign == "-" else "") + text
    for sign, text in parts[1:]:
        piece = f" {sign} {text}"
        if len(line) + len(piece) + 1 > 110:
            lines.append(line)
            line = " " * indent + piece.lstrip()
        else:
            line += piece
    lines.append(line + ";")
    return lines


def load(arg, j):
    return f"{arg}[0]" if j == 0 else f"{arg}[{arg}s]" if j == 1 else f"{arg}[{j} * {arg}s]"


def function(name, matrix, n_in, n_out, arg, comment):
    lines = [f"    // {comment}",
             f"    __device__ static inline void {name}(const float* {arg}, int {arg}s, float* o, int os)",
             "    {"]
    for j0 in range(0, n_in, 4):
        loads = ", ".join(f"{arg}{j} = {load(arg, j)}" for j in range(j0, min(n_in, j0 + 4)))
        lines.append(f"        const float {loads};")
    for i in range(n_out):
        dst = "o[0]" if i == 0 else "o[os]" if i == 1 else f"o[{i} * os]"
        lines += statement(f"        {dst} = ", matrix[i], [f"{arg}{j}" for j in range(n_in)], 12)
    lines.append("    }")
    return "\n".join(lines)


def transpose(mat):
    return [list(col) for col in zip(*mat)]


def main():
    out = [
        "// Generated by tools/winograd_tiles.py: do not edit. The 1-d transforms of Winograd F(m, r)",
        "// for the GPU Winograd solvers' filters larger than 3x3 (conv_winograd.hip; the 3x3 tiles are",
        "// written there by hand): In = B^T d, Fil = G g, Out = A^T m; backward weights Dy = A dy,",
        "// Wt = G^T m. The construction and the points are in the generator.",
        "#pragma once",
        "",
        "namespace miopen::gpu::wino {",
        "",
        "template <int M, int R>",
        "struct Tile;",
    ]
    for (m, r), pts in TILES.items():
        at, g, bt = matrices(m, r, pts)
        a = m + r - 1
        names = ", ".join(str(p) for p in pts)
        out += ["",
                f"// F({m}, {r}): alpha = {a}, points {names} and infinity.",
                "template <>",
                f"struct Tile<{m}, {r}>",
                "{",
                function("In", bt, a, a, "d", f"B^T d ({a} -> {a})"),
                function("Fil", g, r, a, "g", f"G g ({r} -> {a})"),
                function("Out", at, a, m, "m", f"A^T m ({a} -> {m})"),
                function("Dy", transpose(at), m, a, "d", f"A dy ({m} -> {a})"),
                function("Wt", transpose(g), a, r, "m", f"G^T m ({a} -> {r})"),
                "};"]
    out += ["", "} // namespace miopen::gpu::wino", ""]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
