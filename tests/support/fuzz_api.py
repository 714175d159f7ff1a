"""API fuzzer: random, mostly invalid arguments for every public callable of miopen_cy.

Every public function and class of the package is found at run time (nothing to list by hand), its
parameters read from its signature, and hypothesis draws each argument from a pool built fresh for
each call: a working handle and a destroyed one; valid, unset and destroyed descriptors of every
kind; small NaN-filled arrays of the wrong sizes, dtypes and writability; out-of-range enums,
negative and huge ints, NaN and inf, strings, None, short and long lists. Parameters named like a
handle, a descriptor or a tensor mostly get a value of that kind, so many calls are valid but for
one thing and reach the deeper checks (sizes, shapes, buffers).

Checked for every call: the process does not crash (run this in a child process, or under the
sanitizers); a rejected call raises a typed exception (MIOpenError or a TypeError, ValueError or
OverflowError) with a message; and a rejected call wrote nothing: every NumPy array of the pool is
bitwise unchanged.

Raw addresses are the C API's own contract (an int is used as a pointer, as in C), so parameters
that take a data pointer or an address (found in the Cython sources: the arguments of c_data,
c_workspace, c_pointer and c_address) never get a positive int below 2**64; every other kind of
value still goes there.

    python3 tests/support/fuzz_api.py [--examples N] [--seed S]
prints "fuzz_api: C calls" and exits 0, or prints the falsifying example and exits 1."""
import argparse
import glob
import inspect
import os
import re
import sys

import numpy as np
from hypothesis import HealthCheck, given, seed, settings, strategies as st

import miopen_cy as mi

ALLOWED = (mi.MIOpenError, TypeError, ValueError, OverflowError)
SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "miopen_cy")
CALLS = [0]
REJECTED = {}          # exception type name: count


def discover():
    """[(name, callable, [parameter names])]: every public function and class of miopen_cy
    (enums, exceptions and plain data classes excepted)."""
    out = []
    for name in sorted(dir(mi)):
        if name.startswith("_"):
            continue
        obj = getattr(mi, name)
        if isinstance(obj, type):
            if issubclass(obj, (BaseException, int)) or obj is mi.ConvAlgoPerf:
                continue
        elif not callable(obj) or inspect.ismodule(obj):
            continue
        try:
            params = list(inspect.signature(obj).parameters.values())
        except (TypeError, ValueError):
            params = []
        if isinstance(obj, type) and not params:
            try:
                params = list(inspect.signature(obj.__init__).parameters.values())[1:]
            except (TypeError, ValueError):
                params = []
        names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        out.append((name, obj, names))
    return out


def pointer_params():
    """{function name: {parameter names taken as data pointers or addresses}} from the Cython
    sources; None when the sources are not there (then no parameter gets a plausible address)."""
    files = glob.glob(os.path.join(SOURCES, "*.pxi"))
    if not files:
        return None
    out = {}
    for path in files:
        with open(path) as f:
            text = f.read()
        for m in re.finditer(r"^def (\w+)\((.*?)^(?=def |cdef |class |\Z)", text, re.M | re.S):
            used = set(re.findall(r"c_(?:data|workspace|pointer|address)\((\w+)", m.group(2)))
            out[m.group(1)] = used
    return out


def make_pool():
    """Fresh objects for one call: {kind: [values]}."""
    h = mi.Handle(device="cpu")
    dead_h = mi.Handle(device="cpu")
    mi.destroy(dead_h)

    def tensor(shape, dtype=mi.miopenFloat):
        d = mi.TensorDescriptor()
        mi.setTensorDescriptor(d, dtype, len(shape), list(shape), None)
        return d

    t4, t1, tbig = tensor((2, 3, 4, 5)), tensor((1, 1, 1, 1)), tensor((64, 64, 32, 32))
    t5, thalf, tunset = tensor((1, 2, 3, 4, 5)), tensor((2, 3, 4, 5), mi.miopenHalf), mi.TensorDescriptor()
    tbn = tensor((1, 3, 1, 1))
    tdead = tensor((2, 3, 4, 5))
    mi.destroyTensorDescriptor(tdead)
    act = mi.ActivationDescriptor()
    mi.setActivationDescriptor(act, mi.miopenActivationRELU, 1.0, 0.0, 0.0)
    act_dead = mi.ActivationDescriptor()
    mi.destroyActivationDescriptor(act_dead)
    conv = mi.ConvolutionDescriptor()
    mi.initConvolutionNdDescriptor(conv, 2, (1, 1), (1, 1), (1, 1), mi.miopenConvolution)
    conv_dead = mi.ConvolutionDescriptor()
    mi.destroyConvolutionDescriptor(conv_dead)
    pool = mi.PoolingDescriptor()
    mi.set2dPoolingDescriptor(pool, mi.miopenPoolingMax, 2, 2, 0, 0, 2, 2)
    pool_dead = mi.PoolingDescriptor()
    mi.destroyPoolingDescriptor(pool_dead)
    lrn = mi.LRNDescriptor()
    mi.setLRNDescriptor(lrn, mi.miopenLRNCrossChannel, 5, 1e-4, 0.75, 2.0)
    lrn_dead = mi.LRNDescriptor()
    mi.destroyLRNDescriptor(lrn_dead)

    nan = np.nan
    readonly = np.full(120, nan, np.float32)
    readonly.flags.writeable = False
    arrays = [np.full(120, nan, np.float32), np.full((2, 3, 4, 5), nan, np.float32),
              np.full(119, nan, np.float32), np.full(1, nan, np.float32),
              np.full(0, nan, np.float32), np.full(120, nan, np.float64),
              np.full(120, -1, np.int8), np.full(240, nan, np.float32)[::2],
              np.full(3, nan, np.float32), np.full(4096, 0xFF, np.uint8), readonly]
    buffers = [mi.DeviceBuffer(h, 480), mi.DeviceBuffer(h, 4)]
    descs = [t4, t1, tbig, t5, thalf, tunset, tdead, tbn, act, act_dead, conv, conv_dead, pool,
             pool_dead, lrn, lrn_dead]
    ints = [0, 1, 2, 3, 4, 5, 7, 9, 11, 99, -1, -7, 2**31 - 1, 2**31, -2**31 - 1, 2**32 + 1,
            2**63, 2**64 + 5, True]
    scalars = [0.0, 1.0, -0.5, 1e30, nan, np.inf, -np.inf, np.float32(2.0), 1j]
    enums = [m for e in mi._mirror.ENUMS for m in list(e)[:2]]
    others = [None, "", "x", "cpu", "gpu:7", b"\x00", [], [1], [2, 3], [1, 1, 1, 1],
              [-1, 2, 3, 4], [2**31, 1, 1, 1], (2, 3, 4, 5), [1.5, 2], ["a"], {}, object(),
              np.int64(3), np.array([1, 2]), range(3)]
    return {"handle": [h, h, h, dead_h], "desc": descs, "array": arrays + buffers,
            "tensor": [t4, t4, t1, tbig, t5, thalf, tunset, tdead, tbn],
            "activ": [act, act, act_dead], "conv": [conv, conv, conv_dead],
            "pool": [pool, pool, pool_dead], "lrn": [lrn, lrn, lrn_dead],
            "int": ints + enums, "scalar": scalars, "other": others,
            "_arrays": arrays}


def kind_of(param):
    """The kind a parameter's name suggests (most draws come from it)."""
    p = param.lower()
    if p == "handle":
        return "handle"
    if p.endswith("desc") or p.endswith("descriptor"):
        for prefix, kind in (("activ", "activ"), ("conv", "conv"), ("pool", "pool"),
                             ("lrn", "lrn")):
            if p.startswith(prefix):
                return kind
        return "tensor"
    if p in ("alpha", "beta", "alpha1", "alpha2", "activalpha", "activbeta", "activgamma",
             "epsilon", "expavgfactor", "lrnalpha", "lrnbeta", "lrnk") or p.endswith("factor"):
        return "scalar"
    if (p in ("x", "y", "dx", "dy", "w", "dw", "db", "a", "b", "c", "bias", "ptr", "workspace")
            or p.startswith("workspace") or p.startswith("result") or p.startswith("save")
            or p.startswith("estimated") or p.startswith("bnscale") or p.startswith("bnbias")
            or p.startswith("result") or p.endswith("diff") or p.endswith("data")):
        return "array"
    return "int"


def address_safe(values):
    """The values without plausible raw addresses (positive ints below 2**64)."""
    return [v for v in values
            if not (isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 < v < 2**64)]


def check_call(fn, name, args, arrays):
    before = [a.tobytes() for a in arrays]
    CALLS[0] += 1
    try:
        fn(*args)
    except ALLOWED as e:
        REJECTED[type(e).__name__] = REJECTED.get(type(e).__name__, 0) + 1
        assert str(e).strip(), f"{name}: {type(e).__name__} without a message"
        if isinstance(e, mi.MIOpenError):
            assert e.api, f"{name}: MIOpenError without the API name"
        for a, b in zip(arrays, before):
            assert a.tobytes() == b, f"{name} raised {type(e).__name__} but wrote an output: {e}"
    except BaseException as e:
        raise AssertionError(f"{name}{tuple(map(short, args))} raised {type(e).__name__}: {e}") from e


def short(v):
    r = repr(v)
    return r if len(r) < 60 else r[:57] + "..."


def fuzz_one(name, fn, params, pointers, examples, seed_value):
    kinds = [kind_of(p) for p in params]
    no_addr = {p for p in params if pointers is None or p in pointers.get(name, set())}
    # An extra trailing argument sometimes (wrong arity), or one fewer.
    arity = st.sampled_from([len(params)] * 8 + [max(len(params) - 1, 0), len(params) + 1])
    # Mostly (7 in 8) a value of the kind the name suggests, so that calls get past the type
    # checks to the value checks; else anything.
    picks = st.lists(st.tuples(st.integers(0, 7).map(bool), st.integers(0, 10**6)),
                     min_size=len(params) + 1, max_size=len(params) + 1)

    @seed(seed_value)
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(n=arity, picks=picks)
    def run(n, picks):
        pool = make_pool()
        everything = [v for k, vs in pool.items() if not k.startswith("_") for v in vs]
        args = []
        for i in range(n):
            param = params[i] if i < len(params) else "extra"
            own, r = picks[min(i, len(picks) - 1)]
            choices = pool[kinds[i]] if own and i < len(params) else everything
            if param in no_addr or (pointers is None):
                choices = address_safe(choices) or [None]
            args.append(choices[r % len(choices)])
        check_call(fn, name, args, pool["_arrays"])

    run()


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=25, help="calls per callable")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default=None, help="a regex of callable names")
    args = ap.parse_args(argv)
    os.environ.setdefault("MIOPEN_CY_DEVICE", "cpu")
    if "MIOPEN_USER_DB_PATH" not in os.environ:           # never the user's find-db
        import tempfile
        os.environ["MIOPEN_USER_DB_PATH"] = tempfile.mkdtemp(prefix="fuzz_api_db")
    pointers = pointer_params()
    targets = [t for t in discover() if args.only is None or re.search(args.only, t[0])]
    assert len(targets) > 50 or args.only, f"only {len(targets)} callables found"
    for i, (name, fn, params) in enumerate(targets):
        fuzz_one(name, fn, params, pointers, args.examples, args.seed * 1000 + i)
    rejected = sum(REJECTED.values())
    print(f"fuzz_api: {CALLS[0]} calls over {len(targets)} callables "
          f"({'addresses from the sources' if pointers is not None else 'no address parameters'}); "
          f"{rejected} rejected, {CALLS[0] - rejected} accepted; "
          + ", ".join(f"{k} {v}" for k, v in sorted(REJECTED.items(), key=lambda kv: -kv[1])),
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
