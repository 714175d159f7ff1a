"""The README's first command: a few MIOpen calls from NumPy on the default device (the CPU
here), each checked against a plain NumPy computation."""
import numpy as np

import miopen_cy as mi


def main():
    h = mi.Handle()
    print(f"miopen_cy {mi.__version__} (MIOpen API {'.'.join(map(str, mi.getVersion()))}) on {h.device}")

    x = np.random.default_rng(0).standard_normal((8, 64, 56, 56)).astype(np.float32)
    xd = mi.TensorDescriptor()
    mi.set4dTensorDescriptor(xd, mi.miopenFloat, *x.shape)
    bd = mi.TensorDescriptor()
    mi.set4dTensorDescriptor(bd, mi.miopenFloat, 1, 64, 1, 1)
    b = np.linspace(-1, 1, 64, dtype=np.float32).reshape(1, 64, 1, 1)

    # y = x + b (the bias broadcast over N, H, W), then y = 0.5 * y.
    y = np.empty_like(x)
    mi.opTensor(h, mi.miopenTensorOpAdd, 1.0, xd, x, 1.0, bd, b, 0.0, xd, y)
    mi.scaleTensor(h, xd, y, 0.5)
    err = float(np.abs(y - 0.5 * (x + b)).max())
    print(f"opTensor + scaleTensor on {x.shape}: max abs error {err:.2e}")

    # NHWC copy of x through a strided descriptor (miopenTransformTensor).
    nd = mi.TensorDescriptor()
    mi.setNdTensorDescriptorWithLayout(nd, mi.miopenFloat, mi.miopenTensorNHWC, list(x.shape), 4)
    y_nhwc = np.empty((8, 56, 56, 64), np.float32)
    mi.transformTensor(h, 1.0, xd, x, 0.0, nd, y_nhwc)
    ok = np.array_equal(y_nhwc, x.transpose(0, 2, 3, 1))
    print(f"transformTensor NCHW -> NHWC: {'OK' if ok else 'FAILED'}")
    return 0 if ok and err < 1e-5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
