# cython: language_level=3, boundscheck=False, wraparound=False
# distutils: language = c++
"""The Cython mirror of the MIOpen C API (hip/include/miopen/miopen.h), one Python name per C
function by DESIGN.md's mechanical rule. One extension module; each .pxi holds one group of
miopen.h, so the groups share the C types and helpers without cross-module cimports."""

from libc.stdint cimport uintptr_t, uint64_t, INT32_MAX, INT32_MIN
from libc.stddef cimport size_t

from libcpp.vector cimport vector
from cpython.bytes cimport PyBytes_AsString

from miopen_cy._c.miopen cimport *

include "status.pxi"
include "buffers.pxi"
include "handle.pxi"
include "tensor.pxi"
include "activation.pxi"
include "softmax.pxi"
include "pooling.pxi"
include "lrn.pxi"
include "reduce.pxi"
include "batchnorm.pxi"
include "bias.pxi"
include "convolution.pxi"
include "conv_immediate.pxi"
include "find2.pxi"
include "fusion.pxi"
include "gemm.pxi"
include "dropout.pxi"
include "rnn.pxi"
include "ctc.pxi"
include "info.pxi"
