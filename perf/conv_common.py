"""Small helpers shared by the perf scripts (imported as `conv_common`: scripts run as
`python3 perf/<script>.py` have perf/ first on the import path)."""
import miopen_cy as mi


def desc(shape):
    """A packed float TensorDescriptor of `shape`."""
    d = mi.TensorDescriptor()
    mi.setTensorDescriptor(d, mi.miopenFloat, len(shape), list(shape), None)
    return d


def algo_of(solver, table):
    """The convolution algorithm of `solver`: the value of the first prefix in `table` it has."""
    for prefix, algo in table.items():
        if solver.startswith(prefix):
            return algo
    raise KeyError(solver)


def layer_descs(n, layer):
    """The convolution of one benchmark layer (c, h, w, k, r, s, stride, pad, groups) at batch n:
    its descriptor, the x / w / y shapes and their packed descriptors, as
    (cd, xs, wsh, ys, xd, wd, yd)."""
    c, hh, ww, k, r, s, st, p, g = layer
    cd = mi.ConvolutionDescriptor()
    mi.initConvolutionDescriptor(cd, mi.miopenConvolution, p, p, st, st, 1, 1)
    mi.setConvolutionGroupCount(cd, g)
    xs, wsh = (n, c, hh, ww), (k, c // g, r, s)
    xd, wd = desc(xs), desc(wsh)
    ys = tuple(mi.getConvolutionForwardOutputDim(cd, xd, wd))
    return cd, xs, wsh, ys, xd, wd, desc(ys)
