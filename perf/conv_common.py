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
