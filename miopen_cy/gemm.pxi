# miopenCySgemm (a miopen_cy extension): the GEMM kernel behind the GEMM convolution solvers.


cdef size_t c_matrix_bytes(long long rows, long long cols, long long ld, long long count,
                           long long stride):
    """Bytes spanned by `count` row-major rows x cols matrices (leading dimension ld, `stride`
    elements apart); 0 when a size is not positive (C reports bad values)."""
    if rows <= 0 or cols <= 0 or count <= 0 or ld < 0 or stride < 0:
        return 0
    return <size_t>(((count - 1) * stride + (rows - 1) * ld + cols) * 4)


cdef long long c_index(object value, str name) except? -1:
    """A 64-bit element count or offset: TypeError / OverflowError naming `name`."""
    try:
        i = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if i < -(1 << 63) or i >= (1 << 63):
        raise OverflowError(f"{name} = {i} does not fit in 64 bits")
    return i


def cySgemm(Handle handle, transA, transB, sumBatch, m, n, k, batch, A, lda, strideA, B, ldb,
            strideB, C, ldc, strideC):
    """Row-major fp32 strided-batched GEMM on the handle's device: C[b] = opA(A[b]) * opB(B[b]),
    or with sumBatch one C = the sum of the products in b order; C is overwritten. Matrices are
    float32 buffers (a DeviceBuffer, an address, a CUDA / DLPack array or NumPy), offsets in
    elements.  C: miopenCySgemm"""
    api = "miopenCySgemm"
    cdef miopenHandle_t h = c_handle(handle)
    cdef bint ta = bool(transA), tb = bool(transB), sb = bool(sumBatch)
    cdef int cm = c_int(m, "m"), cn = c_int(n, "n"), ck = c_int(k, "k"), cbatch = c_int(batch, "batch")
    cdef long long clda = c_index(lda, "lda"), cldb = c_index(ldb, "ldb"), cldc = c_index(ldc, "ldc")
    cdef long long csa = c_index(strideA, "strideA"), csb = c_index(strideB, "strideB")
    cdef long long csc = c_index(strideC, "strideC")
    cdef size_t need_a = c_matrix_bytes(ck if ta else cm, cm if ta else ck, clda, cbatch, csa)
    cdef size_t need_b = c_matrix_bytes(cn if tb else ck, ck if tb else cn, cldb, cbatch, csb)
    cdef size_t need_c = c_matrix_bytes(cm, cn, cldc, 1 if sb else cbatch, csc)
    cdef void* pa = c_pointer(A, "A", api, handle, need_a, <int>miopenFloat, False)
    cdef void* pb = c_pointer(B, "B", api, handle, need_b, <int>miopenFloat, False)
    cdef void* pc = c_pointer(C, "C", api, handle, need_c, <int>miopenFloat, True)
    with nogil:
        check_status(miopenCySgemm(h, ta, tb, sb, cm, cn, ck, cbatch, <const float*>pa, clda, csa,
                                   <const float*>pb, cldb, csb, <float*>pc, cldc, csc))
