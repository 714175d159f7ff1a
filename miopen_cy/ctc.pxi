# The CTC loss group of miopen.h: the CTC loss descriptor (data type, blank label, whether a
# log-softmax is applied to probs), miopenGetCTCLossWorkspaceSize and miopenCTCLoss (the loss of
# each batch item and the gradient). labels, labelLengths and inputLengths are host arrays in C;
# here they are sequences of ints (lists, NumPy arrays), checked against probsDesc's batch.


class CTCLossAlgo(_enum.IntEnum):
    """C: miopenCTCLossAlgo_t"""
    MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC = 0


ENUMS = ENUMS + (CTCLossAlgo,)


cdef class CTCLossDescriptor:
    """Data type, blank label id and apply_softmax_layer of a CTC loss (MIOpen's defaults when
    created: miopenFloat, 0, True).  C: miopenCreateCTCLossDescriptor"""
    cdef miopenCTCLossDescriptor_t c_desc      # NULL once destroyed

    def __cinit__(self):
        self.c_desc = NULL
        check_status(miopenCreateCTCLossDescriptor(&self.c_desc))

    def __dealloc__(self):                     # never raises: the status is deliberately ignored
        if self.c_desc is not NULL:
            miopenDestroyCTCLossDescriptor(self.c_desc)

    cdef tuple c_get(self):
        cdef miopenDataType_t dt = miopenFloat
        cdef int blank = 0
        cdef cbool sm = True
        if self.c_desc is NULL or miopenGetCTCLossDescriptor(
                self.c_desc, &dt, &blank, &sm) != miopenStatusSuccess:
            return None
        return (DataType(dt), blank, bool(sm))

    @property
    def dataType(self):
        """The DataType (read-only; None once destroyed)."""
        got = self.c_get()
        return None if got is None else got[0]

    @property
    def blank_label_id(self):
        """The blank label's class index (read-only; None once destroyed)."""
        got = self.c_get()
        return None if got is None else got[1]

    @property
    def apply_softmax_layer(self):
        """Whether probs are activations under a log-softmax (read-only; None once destroyed)."""
        got = self.c_get()
        return None if got is None else got[2]

    def __repr__(self):
        got = self.c_get()
        if got is None:
            return "CTCLossDescriptor(destroyed)"
        return (f"CTCLossDescriptor({got[0].name}, blank_label_id={got[1]}, "
                f"apply_softmax_layer={got[2]})")


cdef miopenCTCLossDescriptor_t c_ctc(CTCLossDescriptor desc, str name) except? NULL:
    """The C descriptor, or NULL for None (the C call then names the parameter)."""
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


_CTC_ITEMSIZE = {miopenHalf: 2, miopenBFloat16: 2, miopenFloat: 4, miopenDouble: 8,
                 miopenInt32: 4, miopenInt8: 1}


cdef vector[int] c_ctc_ints(object values, str name, str api) except *:
    """A host int array: a NumPy integer array is copied in one go (a transcript's labels can
    be thousands), anything else element by element."""
    cdef vector[int] out
    cdef const int[::1] view
    if type(values).__module__ == "numpy" and getattr(values, "ndim", 0) == 1 and \
            values.dtype.kind in "iu":
        import numpy as np
        if values.size and (values.min() < INT32_MIN or values.max() > INT32_MAX):
            raise OverflowError(f"{name} has values that do not fit in a C int")
        view = np.ascontiguousarray(values, dtype=np.intc)
        if view.shape[0]:
            out.assign(&view[0], &view[0] + view.shape[0])
        return out
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of ints, not {type(values).__name__}") from None
    out.reserve(len(items))
    for i, v in enumerate(items):
        out.push_back(c_int(v, f"{name}[{i}]"))
    return out


cdef tuple c_ctc_batch(TensorDescriptor probsDesc):
    """(batch, dtype) of a 3-d probsDesc, else None (the C call reports the descriptor)."""
    if probsDesc is None:
        return None
    got = probsDesc.c_get()
    if got is None or len(got[1]) != 3:
        return None
    return (got[1][1], int(got[0]))


cdef int c_ctc_lengths(tuple batch, vector[int]& labels, vector[int]& labelLengths,
                       vector[int]& inputLengths, str api) except -1:
    """The C call reads batch entries of the lengths and their sum of labels: the arrays must
    hold exactly that many."""
    if batch is None:
        return 0
    n = batch[0]
    if <Py_ssize_t>labelLengths.size() != n:
        c_raise(miopenStatusBadParm, api, f"labelLengths has {labelLengths.size()} entries; "
                f"probsDesc's batch is {n}")
    if <Py_ssize_t>inputLengths.size() != n:
        c_raise(miopenStatusBadParm, api, f"inputLengths has {inputLengths.size()} entries; "
                f"probsDesc's batch is {n}")
    total = 0
    for v in labelLengths:
        if v < 0:
            return 0                           # the C call refuses it before reading labels
        total += v
    if <Py_ssize_t>labels.size() != total:
        c_raise(miopenStatusBadParm, api, f"labels has {labels.size()} entries; labelLengths add "
                f"up to {total}")
    return 0


def createCTCLossDescriptor():
    """A new CTC loss descriptor (miopenFloat, blank label 0, softmax applied).
    C: miopenCreateCTCLossDescriptor"""
    return CTCLossDescriptor()


def setCTCLossDescriptor(CTCLossDescriptor ctcLossDesc, dataType, blank_label_id,
                         apply_softmax_layer):
    """Sets the data type (miopenFloat or miopenHalf), the blank label's class index and whether
    probs are activations that a log-softmax over the classes turns into log probabilities (True)
    or log probabilities as they are (False).  C: miopenSetCTCLossDescriptor"""
    cdef miopenCTCLossDescriptor_t d = c_ctc(ctcLossDesc, "ctcLossDesc")
    cdef miopenDataType_t dt = <miopenDataType_t>c_int(dataType, "dataType")
    cdef int blank = c_int(blank_label_id, "blank_label_id")
    cdef cbool sm = True if apply_softmax_layer else False
    check_status(miopenSetCTCLossDescriptor(d, dt, blank, sm))


def getCTCLossDescriptor(CTCLossDescriptor ctcLossDesc):
    """(dataType, blank_label_id, apply_softmax_layer).  C: miopenGetCTCLossDescriptor"""
    cdef miopenDataType_t dt = miopenFloat
    cdef int blank = 0
    cdef cbool sm = True
    check_status(miopenGetCTCLossDescriptor(c_ctc(ctcLossDesc, "ctcLossDesc"), &dt, &blank, &sm))
    return (DataType(dt), blank, bool(sm))


def getCTCLossWorkspaceSize(Handle handle, TensorDescriptor probsDesc,
                            TensorDescriptor gradientsDesc, labels, labelLengths, inputLengths,
                            algo, CTCLossDescriptor ctcLossDesc):
    """Bytes of workspace CTCLoss needs for these labels and lengths, after every check CTCLoss
    makes of them.  C: miopenGetCTCLossWorkspaceSize"""
    api = "miopenGetCTCLossWorkspaceSize"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenTensorDescriptor_t pd = c_tensor(probsDesc, "probsDesc")
    cdef miopenTensorDescriptor_t gd = c_tensor(gradientsDesc, "gradientsDesc")
    cdef vector[int] lab = c_ctc_ints(labels, "labels", api)
    cdef vector[int] ll = c_ctc_ints(labelLengths, "labelLengths", api)
    cdef vector[int] il = c_ctc_ints(inputLengths, "inputLengths", api)
    cdef miopenCTCLossAlgo_t a = <miopenCTCLossAlgo_t>c_int(algo, "algo")
    cdef miopenCTCLossDescriptor_t d = c_ctc(ctcLossDesc, "ctcLossDesc")
    c_ctc_lengths(c_ctc_batch(probsDesc), lab, ll, il, api)
    cdef size_t n = 0
    check_status(miopenGetCTCLossWorkspaceSize(h, pd, gd, lab.data(), ll.data(), il.data(), a, d,
                                               &n))
    return n


def CTCLoss(Handle handle, TensorDescriptor probsDesc, probs, labels, labelLengths, inputLengths,
            losses, TensorDescriptor gradientsDesc, gradients, algo, CTCLossDescriptor ctcLossDesc,
            workSpace, workSpaceSize):
    """losses[b] = -log p(the labels of item b | probs over its inputLengths[b] time steps) and
    gradients = d losses[b] / d probs (zero past inputLengths[b]). probs and gradients are
    [max time steps, batch, classes]; labels hold every item's labels concatenated; losses has
    batch elements of probs' type.  C: miopenCTCLoss"""
    api = "miopenCTCLoss"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenTensorDescriptor_t pd = c_tensor(probsDesc, "probsDesc")
    cdef miopenTensorDescriptor_t gd = c_tensor(gradientsDesc, "gradientsDesc")
    cdef vector[int] lab = c_ctc_ints(labels, "labels", api)
    cdef vector[int] ll = c_ctc_ints(labelLengths, "labelLengths", api)
    cdef vector[int] il = c_ctc_ints(inputLengths, "inputLengths", api)
    cdef miopenCTCLossAlgo_t a = <miopenCTCLossAlgo_t>c_int(algo, "algo")
    cdef miopenCTCLossDescriptor_t d = c_ctc(ctcLossDesc, "ctcLossDesc")
    cdef size_t nws = c_size(workSpaceSize, "workSpaceSize")
    batch = c_ctc_batch(probsDesc)
    c_ctc_lengths(batch, lab, ll, il, api)
    cdef size_t nloss = 0
    cdef int ldt = -1
    if batch is not None:
        nloss = <size_t>batch[0] * _CTC_ITEMSIZE.get(batch[1], 1)
        ldt = batch[1]
    cdef const void* pp = c_data(probs, "probs", api, handle, probsDesc, False)
    cdef void* pl = c_pointer(losses, "losses", api, handle, nloss, ldt, True)
    cdef void* pg = c_data(gradients, "gradients", api, handle, gradientsDesc, True)
    cdef void* pw = c_workspace(workSpace, "workSpace", api, handle, nws, True)
    with nogil:
        check_status(miopenCTCLoss(h, pd, pp, lab.data(), ll.data(), il.data(), pl, gd, pg, a, d,
                                   pw, nws))


def destroyCTCLossDescriptor(CTCLossDescriptor ctcLossDesc not None):
    """Destroys the descriptor; using it afterwards raises.  C: miopenDestroyCTCLossDescriptor"""
    cdef miopenCTCLossDescriptor_t d = c_ctc(ctcLossDesc, "ctcLossDesc")
    ctcLossDesc.c_desc = NULL
    check_status(miopenDestroyCTCLossDescriptor(d))
