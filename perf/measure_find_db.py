"""What a find-db hit adds to a convolution call: the same tiny convolutionForward with the find-db
off, with no record, and with a record (median of 3000 calls each).  python perf/measure_find_db.py"""
import numpy as np, miopen_cy as mi, time, os, statistics, tempfile
os.environ["MIOPEN_USER_DB_PATH"] = tempfile.mkdtemp()
def desc(s):
    d = mi.TensorDescriptor(); mi.setTensorDescriptor(d, mi.miopenFloat, len(s), list(s), None); return d
h = mi.Handle()
cd = mi.ConvolutionDescriptor(); mi.initConvolutionDescriptor(cd, 0, 0,0,1,1,1,1)
x = np.ones((1,1,2,2), np.float32); w = np.ones((1,1,1,1), np.float32); y = np.empty((1,1,2,2), np.float32)
xd, wd, yd = desc(x.shape), desc(w.shape), desc(y.shape)
def t(n=3000):
    ts=[]
    for _ in range(n):
        t0=time.perf_counter(); mi.convolutionForward(h, 1.0, xd, x, wd, w, cd, 1, 0.0, yd, y, None, 0); ts.append(time.perf_counter()-t0)
    return statistics.median(ts)*1e6
os.environ["MIOPEN_DEBUG_DISABLE_FIND_DB"]="1"; no_db = t()
del os.environ["MIOPEN_DEBUG_DISABLE_FIND_DB"]; miss = t()
mi.findConvolutionForwardAlgorithm(h, xd, x, wd, w, cd, yd, y, 5, None, 0, False); hit = t()
print(f"convolutionForward on a 1x1x2x2 problem, median of 3000 calls: find-db off {no_db:.1f} us, no record {miss:.1f} us, record hit {hit:.1f} us -> a hit adds {hit-no_db:.1f} us")
