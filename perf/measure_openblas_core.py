"""Our GEMM solver (algo 0, no Find) and oneDNN on three ResNet-50 1x1 layers at batch 4, min of 30
runs each, one library after the other (never interleaved: two OpenMP pools on 2 cores slow each
other). Run it once per OpenBLAS kernel set to see what OPENBLAS_CORETYPE costs:

    for ct in Haswell SkylakeX; do OPENBLAS_CORETYPE=$ct python perf/measure_openblas_core.py; done
"""
import os, sys, time, tempfile
os.environ["MIOPEN_USER_DB_PATH"] = tempfile.mkdtemp()
import numpy as np, torch, torch.nn.functional as F
import miopen_cy as mi
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_conv import openblas_core
from conv_common import desc
h = mi.Handle(device="cpu")
res = []
for (c, hw, k) in [(128, 28, 512), (1024, 14, 256), (512, 7, 2048)]:
    cd = mi.ConvolutionDescriptor(); mi.initConvolutionDescriptor(cd, mi.miopenConvolution, 0, 0, 1, 1, 1, 1)
    xs, wsh = (4, c, hw, hw), (k, c, 1, 1)
    xd, wd = desc(xs), desc(wsh); ys = mi.getConvolutionForwardOutputDim(cd, xd, wd); yd = desc(ys)
    x = np.random.rand(*xs).astype(np.float32); w = np.random.rand(*wsh).astype(np.float32); y = np.empty(ys, np.float32)
    ws = np.empty(1, np.uint8)
    tx, tw = torch.from_numpy(x), torch.from_numpy(w)
    def tmin(fn):
        fn(); t = []
        for _ in range(30):
            t0 = time.perf_counter(); fn(); t.append(time.perf_counter() - t0)
        return min(t) * 1e3
    ours = tmin(lambda: mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, 0, 0.0, yd, y, ws, 0))
    theirs = tmin(lambda: F.conv2d(tx, tw))
    res.append(f"c{c} {hw}x{hw} k{k}: ours {ours:.3f} oneDNN {theirs:.3f}")
print(openblas_core(), " | ".join(res), flush=True)
