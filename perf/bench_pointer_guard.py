"""The cost of the pointer guard per pointer on a GPU handle.

The guard (core/handle.cpp CheckDevicePointer -> gpu::CheckPointer) makes one runtime query per
data pointer, cudaPointerGetAttributes / hipPointerGetAttributes, before an op queues anything.
miopenCyGetPointerDevice makes the same query, so this times it on device memory and on host
memory, minus the same call on a null pointer (which returns before querying): what is left is the
query's cost per pointer. It also times two small ops (activation forward, 2 pointers; tensor op, 3)
for the whole per-call host cost the guard sits in. No thresholds.

    python perf/bench_pointer_guard.py [--calls 200000]
"""
import argparse
import time

import numpy as np

import miopen_cy as mi


def per_call(fn, n, repeat=5):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=200000)
    args = ap.parse_args()
    h = mi.Handle(device="gpu")
    dev = mi.DeviceBuffer(h, 1 << 20)
    host = np.ones(1 << 18, np.float32)
    n = args.calls
    base = per_call(lambda: mi.cyGetPointerDevice(0), n)
    print(f"device: {h.device}; {n} calls, best of 5")
    for what, addr in (("device memory", dev.ptr), ("host memory", host.ctypes.data)):
        t = per_call(lambda: mi.cyGetPointerDevice(addr), n)
        print(f"  query on {what:14s} {1e6 * (t - base):7.3f} us per pointer "
              f"(call {1e6 * t:.3f} us, null-pointer call {1e6 * base:.3f} us)")
    d = mi.TensorDescriptor()
    mi.set4dTensorDescriptor(d, mi.miopenFloat, 1, 1, 1, 256)
    act = mi.ActivationDescriptor()
    mi.setActivationDescriptor(act, mi.miopenActivationRELU, 0.0, 0.0, 0.0)
    x, y = mi.DeviceBuffer(h, 1024), mi.DeviceBuffer(h, 1024)
    m = max(n // 20, 1000)
    t2 = per_call(lambda: mi.activationForward(h, act, 1.0, d, x.ptr, 0.0, d, y.ptr), m)
    t3 = per_call(lambda: mi.opTensor(h, mi.miopenTensorOpAdd, 1.0, d, x.ptr, 1.0, d, x.ptr, 0.0, d,
                                      y.ptr), m)
    mi.cyStreamSynchronize(h)
    print(f"  activationForward (2 pointers): {1e6 * t2:.3f} us per call, host side")
    print(f"  opTensor (3 pointers):          {1e6 * t3:.3f} us per call, host side")


if __name__ == "__main__":
    main()
