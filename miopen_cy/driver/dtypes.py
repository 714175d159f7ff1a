"""The data types of the layer sub-commands: MIOpenDriver's type suffixes (convfp16, convbfp16, activfp16, softmaxfp16,
poolfp16, lrnfp16, tensoropfp16, bnormfp16, bnormfp16fp32, bnormbfp16fp32) and ours beyond
MIOpen in the same naming (activbfp16, softmaxbfp16, poolbfp16, lrnbfp16, tensoropbfp16,
bnormbfp16), the host storage of each type, and the verification tolerance per op and type.

Inputs are generated in float64, rounded once to the storage type, and the float64 references run
on the stored values, as MIOpenDriver's do (a double host computation from the same fp16 data).

Tolerances, on MIOpen's rms_range metric: fp32 keeps each sub-command's own; fp16 takes
MIOpenDriver's value for fp16 where its driver has one (softmax 5e-2, pool 5e-3, bnorm RMSTOL_FP16
0.5e-3, activ and tensorop 80 * epsilon(half)), else the fp16 tolerance of MIOpen's tests
(8.2e-3: LRN, whose driver states one value for every type); bf16 takes 8 times the fp16 value
(its unit roundoff is 8 times fp16's), as MIOpen's tests scale bf16 against fp16."""
import numpy as np

import miopen_cy as mi


class DataTypeMissing(Exception):
    """The host storage of a type is not installed (bf16 needs ml_dtypes)."""


class DType:
    """One storage type: MIOpen's enum, the sub-command suffix, the NumPy dtype of its host data."""

    def __init__(self, suffix, mi_type, name, eps):
        self.suffix, self.mi, self.name, self.eps = suffix, mi_type, name, eps

    @property
    def np(self):
        if self.mi == mi.miopenBFloat16:
            try:
                import ml_dtypes
            except ImportError:
                raise DataTypeMissing("bf16 data needs the ml_dtypes package (pip install ml_dtypes)") from None
            return np.dtype(ml_dtypes.bfloat16)
        return np.dtype(np.float16 if self.mi == mi.miopenHalf else np.float32)

    @property
    def itemsize(self):
        return 2 if self.mi in (mi.miopenHalf, mi.miopenBFloat16) else 4

    def store(self, values):
        """float64 (or any) values rounded once to this type (through fp32 for bf16, as the
        library's own conversions do)."""
        a = np.asarray(values, dtype=np.float64).astype(np.float32)
        return a if self.mi == mi.miopenFloat else a.astype(self.np)

    def __repr__(self):
        return self.name


FP32 = DType("", mi.miopenFloat, "fp32", 2.0 ** -23)
FP16 = DType("fp16", mi.miopenHalf, "fp16", 2.0 ** -10)
BF16 = DType("bfp16", mi.miopenBFloat16, "bf16", 2.0 ** -7)


def as64(a):
    """The float64 values of stored data (exact for every storage type)."""
    return np.asarray(a).astype(np.float32).astype(np.float64)


# sub-command -> (base sub-command, data type, batch-norm parameter type, MIOpenDriver's name?)
VARIANTS = {
    "convfp16": ("conv", FP16, None, True),
    "convbfp16": ("conv", BF16, None, True),
    "activfp16": ("activ", FP16, None, True),
    "softmaxfp16": ("softmax", FP16, None, True),
    "poolfp16": ("pool", FP16, None, True),
    "lrnfp16": ("lrn", FP16, None, True),
    "tensoropfp16": ("tensorop", FP16, None, True),
    "bnormfp16": ("bnorm", FP16, FP16, True),
    "bnormfp16fp32": ("bnorm", FP16, FP32, True),
    "bnormbfp16fp32": ("bnorm", BF16, FP32, True),
    "activbfp16": ("activ", BF16, None, False),
    "softmaxbfp16": ("softmax", BF16, None, False),
    "poolbfp16": ("pool", BF16, None, False),
    "lrnbfp16": ("lrn", BF16, None, False),
    "tensoropbfp16": ("tensorop", BF16, None, False),
    "bnormbfp16": ("bnorm", BF16, BF16, False),
    "rnnfp16": ("rnn", FP16, None, True),
    "rnnbfp16": ("rnn", BF16, None, False),
    "CBAInferfp16": ("CBAInfer", FP16, None, True),
    "CBAInferbfp16": ("CBAInfer", BF16, None, False),
    "dropoutfp16": ("dropout", FP16, None, True),
    "dropoutbfp16": ("dropout", BF16, None, False),
}

# MIOpenDriver's fp16 tolerance per op (None: its driver has none for fp16, see the module's text).
_FP16_TOL = {"activ": 80 * FP16.eps, "tensorop": 80 * FP16.eps, "softmax": 5e-2, "pool": 5e-3,
             "bnorm": 0.5e-3, "lrn": None, "dropout": 5e-4}
_GENERIC_FP16_TOL = 8.2e-3


def tolerance(op, dtype, fp32_tol):
    """The verification tolerance of `op` in `dtype`; `fp32_tol` is the sub-command's own."""
    if dtype.mi == mi.miopenFloat:
        return fp32_tol
    tol = _FP16_TOL.get(op) or _GENERIC_FP16_TOL
    return tol if dtype.mi == mi.miopenHalf else 8 * tol
