# The RNN group of miopen.h: the RNN and sequence-tensor descriptors, the sizes, the per-layer
# parameter calls (MIOpen's weight layout) and the compute calls of the packed API (an array of
# per-step descriptors) and of the sequence-tensor API. The weight layout is documented in
# hip/src/rnn/rnn_args.hpp and README.md.


class RNNMode(_enum.IntEnum):
    """C: miopenRNNMode_t"""
    miopenRNNRELU = 0
    miopenRNNTANH = 1
    miopenLSTM = 2
    miopenGRU = 3


class RNNInputMode(_enum.IntEnum):
    """C: miopenRNNInputMode_t"""
    miopenRNNlinear = 0
    miopenRNNskip = 1


class RNNAlgo(_enum.IntEnum):
    """C: miopenRNNAlgo_t"""
    miopenRNNdefault = 0
    miopenRNNfundamental = 1


class RNNDirectionMode(_enum.IntEnum):
    """C: miopenRNNDirectionMode_t"""
    miopenRNNunidirection = 0
    miopenRNNbidirection = 1


class RNNBiasMode(_enum.IntEnum):
    """C: miopenRNNBiasMode_t"""
    miopenRNNNoBias = 0
    miopenRNNwithBias = 1


class RNNGEMMalgoMode(_enum.IntEnum):
    """C: miopenRNNGEMMalgoMode_t"""
    miopenRNNAlgoGEMM = 0


class RNNPaddingMode(_enum.IntEnum):
    """C: miopenRNNPaddingMode_t"""
    miopenRNNIONotPadded = 0
    miopenRNNIOWithPadding = 1


class RNNFWDMode(_enum.IntEnum):
    """C: miopenRNNFWDMode_t"""
    miopenRNNTraining = 0
    miopenRNNInference = 1


class RNNBaseLayout(_enum.IntEnum):
    """C: miopenRNNBaseLayout_t"""
    miopenRNNDataUnknownLayout = 0
    miopenRNNDataSeqMajorNotPadded = 1
    miopenRNNDataSeqMajorPadded = 2
    miopenRNNDataBatchMajorPadded = 3


ENUMS = ENUMS + (RNNMode, RNNInputMode, RNNAlgo, RNNDirectionMode, RNNBiasMode, RNNGEMMalgoMode,
                 RNNPaddingMode, RNNFWDMode, RNNBaseLayout)


cdef class RNNDescriptor:
    """Hidden size, layers, modes, data type and the dropout between layers of an RNN stack.
    C: miopenCreateRNNDescriptor"""
    cdef miopenRNNDescriptor_t c_desc          # NULL once destroyed
    cdef object c_dropout                      # the DropoutDescriptor of setRNNDescriptor_V2

    def __cinit__(self):
        self.c_desc = NULL
        self.c_dropout = None
        check_status(miopenCreateRNNDescriptor(&self.c_desc))

    def __dealloc__(self):                     # never raises: the status is deliberately ignored
        if self.c_desc is not NULL:
            miopenDestroyRNNDescriptor(self.c_desc)

    def __repr__(self):
        if self.c_desc is NULL:
            return "RNNDescriptor(destroyed)"
        try:
            m, a, i, d, b, h, n = getRNNDescriptor(self)
        except MIOpenError:
            return "RNNDescriptor(unset)"
        return (f"RNNDescriptor(hiddenSize={h}, layer={n}, rnnMode={m.name}, inputMode={i.name}, "
                f"dirMode={d.name}, biasMode={b.name})")


cdef class SeqTensorDescriptor:
    """Data type, layout, maximum length, batch, vector size and per-sequence lengths of an RNN
    sequence tensor.  C: miopenCreateSeqTensorDescriptor"""
    cdef miopenSeqTensorDescriptor_t c_desc    # NULL once destroyed

    def __cinit__(self):
        self.c_desc = NULL
        check_status(miopenCreateSeqTensorDescriptor(&self.c_desc))

    def __dealloc__(self):
        if self.c_desc is not NULL:
            miopenDestroySeqTensorDescriptor(self.c_desc)

    def __repr__(self):
        if self.c_desc is NULL:
            return "SeqTensorDescriptor(destroyed)"
        try:
            t, l, m, b, v, lens, _ = getRNNDataSeqTensorDescriptor(self, 0)
        except MIOpenError:
            return "SeqTensorDescriptor(unset)"
        return (f"SeqTensorDescriptor({DataType(t).name}, {RNNBaseLayout(l).name}, "
                f"maxSequenceLen={m}, batchSize={b}, vectorSize={v})")


cdef miopenRNNDescriptor_t c_rnn(RNNDescriptor desc, str name) except? NULL:
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


cdef miopenSeqTensorDescriptor_t c_seq(SeqTensorDescriptor desc, str name) except? NULL:
    if desc is None:
        return NULL
    if desc.c_desc is NULL:
        raise ValueError(f"{name} has been destroyed")
    return desc.c_desc


cdef vector[miopenTensorDescriptor_t] c_desc_array(object descs, int count, str name,
                                                   str count_name) except *:
    """A C array of `count` tensor descriptors from a Python sequence of TensorDescriptor."""
    cdef vector[miopenTensorDescriptor_t] out
    if descs is None:
        return out
    try:
        items = list(descs)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of TensorDescriptor, not "
                        f"{type(descs).__name__}") from None
    if len(items) != count:
        raise ValueError(f"{name} has {len(items)} entries but {count_name} = {count}")
    for i, d in enumerate(items):
        if not isinstance(d, TensorDescriptor):
            raise TypeError(f"{name}[{i}] must be a TensorDescriptor, not {type(d).__name__}")
        out.push_back(c_tensor(<TensorDescriptor>d, f"{name}[{i}]"))
    return out


cdef const miopenTensorDescriptor_t* c_array_ptr(vector[miopenTensorDescriptor_t]& v) noexcept nogil:
    if v.size() == 0:
        return NULL
    return &v[0]


cdef size_t c_steps_bytes(RNNDescriptor rnnDesc, object descs):
    """Bytes of the data a list of step descriptors describes (0 when unknown: C reports it)."""
    cdef miopenRNNPaddingMode_t pad = miopenRNNIONotPadded
    if descs is None or rnnDesc is None or rnnDesc.c_desc is NULL:
        return 0
    try:
        shapes = [d.shape for d in descs]
        dtype = descs[0].dtype
    except Exception:
        return 0
    if not shapes or any(s is None or len(s) != 2 for s in shapes) or dtype is None:
        return 0
    miopenGetRNNPaddingMode(rnnDesc.c_desc, &pad)
    if pad == miopenRNNIOWithPadding:
        rows = len(shapes) * shapes[0][0]
    else:
        rows = sum(s[0] for s in shapes)
    return <size_t>(rows * shapes[0][1] * _ITEMSIZE.get(int(dtype), 1))


cdef int c_steps_dtype(object descs):
    try:
        return int(descs[0].dtype)
    except Exception:
        return -1


cdef size_t c_seq_bytes(SeqTensorDescriptor desc):
    """Bytes of the data a sequence-tensor descriptor describes (0 when unset: C reports it).
    Calls C directly, never check_status: a wrapper may size an argument after staging others,
    and check_status would finish (copy back and free) that staging early."""
    cdef miopenDataType_t t = miopenFloat
    cdef miopenRNNBaseLayout_t l = miopenRNNDataUnknownLayout
    cdef int m = 0, b = 0, v = 0
    if desc is None or desc.c_desc is NULL:
        return 0
    if miopenGetRNNDataSeqTensorDescriptor(desc.c_desc, &t, &l, &m, &b, &v, 0, NULL,
                                           NULL) != miopenStatusSuccess or b <= 0:
        return 0
    cdef vector[int] lens = vector[int](b)
    if miopenGetRNNDataSeqTensorDescriptor(desc.c_desc, &t, &l, &m, &b, &v, b, lens.data(),
                                           NULL) != miopenStatusSuccess:
        return 0
    cdef size_t rows = 0
    if l == miopenRNNDataSeqMajorNotPadded:
        for i in range(b):
            rows += <size_t>lens[i]
    else:
        rows = <size_t>m * <size_t>b
    return <size_t>(rows * <size_t>v * <size_t>_ITEMSIZE.get(int(t), 1))


cdef int c_seq_dtype(SeqTensorDescriptor desc):
    cdef miopenDataType_t t = miopenFloat
    if desc is None or desc.c_desc is NULL:
        return -1
    if miopenGetRNNDataSeqTensorDescriptor(desc.c_desc, &t, NULL, NULL, NULL, NULL, 0, NULL,
                                           NULL) != miopenStatusSuccess:
        return -1
    return <int>t


import struct as _struct


cdef bytes c_marker_bytes(double v, int dtype):
    """The padding marker as stored in `dtype` (fp16 / bf16 rounded to nearest even)."""
    if dtype == miopenHalf:
        return _struct.pack("<e", v)
    bits = _struct.unpack("<I", _struct.pack("<f", v))[0]
    if dtype == miopenBFloat16:
        if (bits & 0x7f800000) != 0x7f800000:
            bits = (bits + 0x7fff + ((bits >> 16) & 1)) & 0xffffffff
        return _struct.pack("<H", bits >> 16)
    return _struct.pack("<I", bits)


_ITEMSIZE = {int(miopenFloat): 4, int(miopenHalf): 2, int(miopenBFloat16): 2,
             int(miopenDouble): 8, int(miopenInt32): 4, int(miopenInt8): 1}


# ---- descriptors ----------------------------------------------------------------------------

def createRNNDescriptor():
    """A new, unset RNN descriptor.  C: miopenCreateRNNDescriptor"""
    return RNNDescriptor()


def destroyRNNDescriptor(RNNDescriptor rnnDesc not None):
    """Destroys the descriptor; using it afterwards raises.  C: miopenDestroyRNNDescriptor"""
    cdef miopenRNNDescriptor_t d = c_rnn(rnnDesc, "rnnDesc")
    rnnDesc.c_desc = NULL
    rnnDesc.c_dropout = None
    check_status(miopenDestroyRNNDescriptor(d))


def setRNNDescriptor(RNNDescriptor rnnDesc, hsize, nlayers, inMode, direction, rnnMode,
                     biasMode, algo, dataType):
    """Sets hidden size, layers, input mode, direction, mode, bias mode, algorithm and data type
    (no dropout).  C: miopenSetRNNDescriptor"""
    check_status(miopenSetRNNDescriptor(
        c_rnn(rnnDesc, "rnnDesc"), c_int(hsize, "hsize"), c_int(nlayers, "nlayers"),
        <miopenRNNInputMode_t>c_int(inMode, "inMode"),
        <miopenRNNDirectionMode_t>c_int(direction, "direction"),
        <miopenRNNMode_t>c_int(rnnMode, "rnnMode"), <miopenRNNBiasMode_t>c_int(biasMode, "biasMode"),
        <miopenRNNAlgo_t>c_int(algo, "algo"), <miopenDataType_t>c_int(dataType, "dataType")))
    rnnDesc.c_dropout = None


def setRNNDescriptor_V2(RNNDescriptor rnnDesc, hsize, nlayers, DropoutDescriptor dropoutDesc,
                        inMode, direction, rnnMode, biasMode, algo, dataType):
    """As setRNNDescriptor, with the dropout applied between layers (kept by the descriptor).
    C: miopenSetRNNDescriptor_V2"""
    check_status(miopenSetRNNDescriptor_V2(
        c_rnn(rnnDesc, "rnnDesc"), c_int(hsize, "hsize"), c_int(nlayers, "nlayers"),
        c_dropout(dropoutDesc, "dropoutDesc"),
        <miopenRNNInputMode_t>c_int(inMode, "inMode"),
        <miopenRNNDirectionMode_t>c_int(direction, "direction"),
        <miopenRNNMode_t>c_int(rnnMode, "rnnMode"), <miopenRNNBiasMode_t>c_int(biasMode, "biasMode"),
        <miopenRNNAlgo_t>c_int(algo, "algo"), <miopenDataType_t>c_int(dataType, "dataType")))
    rnnDesc.c_dropout = dropoutDesc


def getRNNDescriptor(RNNDescriptor rnnDesc):
    """(rnnMode, algoMode, inputMode, dirMode, biasMode, hiddenSize, layer).
    C: miopenGetRNNDescriptor"""
    cdef miopenRNNMode_t m = miopenRNNTANH
    cdef miopenRNNAlgo_t a = miopenRNNdefault
    cdef miopenRNNInputMode_t i = miopenRNNlinear
    cdef miopenRNNDirectionMode_t d = miopenRNNunidirection
    cdef miopenRNNBiasMode_t b = miopenRNNNoBias
    cdef int h = 0, n = 0
    check_status(miopenGetRNNDescriptor(c_rnn(rnnDesc, "rnnDesc"), &m, &a, &i, &d, &b, &h, &n))
    return (RNNMode(m), RNNAlgo(a), RNNInputMode(i), RNNDirectionMode(d), RNNBiasMode(b), h, n)


def getRNNDescriptor_V2(RNNDescriptor rnnDesc):
    """(hiddenSize, layer, dropoutDesc, inputMode, dirMode, rnnMode, biasMode, algoMode,
    dataType); dropoutDesc is the DropoutDescriptor given to setRNNDescriptor_V2, or None.
    C: miopenGetRNNDescriptor_V2"""
    cdef miopenRNNMode_t m = miopenRNNTANH
    cdef miopenRNNAlgo_t a = miopenRNNdefault
    cdef miopenRNNInputMode_t i = miopenRNNlinear
    cdef miopenRNNDirectionMode_t d = miopenRNNunidirection
    cdef miopenRNNBiasMode_t b = miopenRNNNoBias
    cdef miopenDataType_t t = miopenFloat
    cdef miopenDropoutDescriptor_t dd = NULL
    cdef int h = 0, n = 0
    check_status(miopenGetRNNDescriptor_V2(c_rnn(rnnDesc, "rnnDesc"), &h, &n, &dd, &i, &d, &m,
                                           &b, &a, &t))
    return (h, n, rnnDesc.c_dropout if dd is not NULL else None, RNNInputMode(i),
            RNNDirectionMode(d), RNNMode(m), RNNBiasMode(b), RNNAlgo(a), DataType(t))


def setRNNPaddingMode(RNNDescriptor rnnDesc, paddingMode):
    """Padded (each step's rows the first step's batch) or packed data in the packed API.
    C: miopenSetRNNPaddingMode"""
    check_status(miopenSetRNNPaddingMode(c_rnn(rnnDesc, "rnnDesc"),
                                         <miopenRNNPaddingMode_t>c_int(paddingMode, "paddingMode")))


def getRNNPaddingMode(RNNDescriptor rnnDesc):
    """The padding mode.  C: miopenGetRNNPaddingMode"""
    cdef miopenRNNPaddingMode_t p = miopenRNNIONotPadded
    check_status(miopenGetRNNPaddingMode(c_rnn(rnnDesc, "rnnDesc"), &p))
    return RNNPaddingMode(p)


def createSeqTensorDescriptor():
    """A new, unset sequence-tensor descriptor.  C: miopenCreateSeqTensorDescriptor"""
    return SeqTensorDescriptor()


def destroySeqTensorDescriptor(SeqTensorDescriptor tensorDesc not None):
    """Destroys the descriptor.  C: miopenDestroySeqTensorDescriptor"""
    cdef miopenSeqTensorDescriptor_t d = c_seq(tensorDesc, "tensorDesc")
    tensorDesc.c_desc = NULL
    check_status(miopenDestroySeqTensorDescriptor(d))


def setRNNDataSeqTensorDescriptor(SeqTensorDescriptor seqTensorDesc, dataType, layout,
                                  maxSequenceLen, batchSize, vectorSize, sequenceLenArray,
                                  paddingMarker):
    """Sets type, layout, maximum length, batch, vector size, the length of each of the batchSize
    sequences and the padding marker (a float written to the padded positions of outputs, or
    None for zero).  C: miopenSetRNNDataSeqTensorDescriptor"""
    cdef int b = c_int(batchSize, "batchSize")
    cdef vector[int] lens = c_int_array(sequenceLenArray, b, "sequenceLenArray", "batchSize") \
        if b > 0 else vector[int]()
    cdef miopenDataType_t t = <miopenDataType_t>c_int(dataType, "dataType")
    cdef unsigned char marker[8]
    cdef const void* pm = NULL
    if paddingMarker is not None:
        raw = c_marker_bytes(c_double(paddingMarker, "paddingMarker"), <int>t)
        for i in range(len(raw)):
            marker[i] = raw[i]
        pm = <const void*>marker
    check_status(miopenSetRNNDataSeqTensorDescriptor(
        c_seq(seqTensorDesc, "seqTensorDesc"), t, <miopenRNNBaseLayout_t>c_int(layout, "layout"),
        c_int(maxSequenceLen, "maxSequenceLen"), b, c_int(vectorSize, "vectorSize"),
        lens.data() if lens.size() > 0 else NULL, <void*>pm))


def getRNNDataSeqTensorDescriptor(SeqTensorDescriptor seqTensorDesc, sequenceLenArrayLimit):
    """(dataType, layout, maxSequenceLen, batchSize, vectorSize, sequenceLenArray (at most
    sequenceLenArrayLimit lengths), paddingMarker).  C: miopenGetRNNDataSeqTensorDescriptor"""
    cdef miopenDataType_t t = miopenFloat
    cdef miopenRNNBaseLayout_t l = miopenRNNDataUnknownLayout
    cdef int m = 0, b = 0, v = 0
    cdef int limit = c_int(sequenceLenArrayLimit, "sequenceLenArrayLimit")
    cdef miopenSeqTensorDescriptor_t d = c_seq(seqTensorDesc, "seqTensorDesc")
    check_status(miopenGetRNNDataSeqTensorDescriptor(d, &t, &l, &m, &b, &v, 0, NULL, NULL))
    cdef int n = min(max(limit, 0), b)
    cdef vector[int] lens = vector[int](n if n > 0 else 1)
    cdef unsigned char marker[8]
    for i in range(8):
        marker[i] = 0
    check_status(miopenGetRNNDataSeqTensorDescriptor(d, &t, &l, &m, &b, &v, limit if limit < 0 else n,
                                                     lens.data(), marker))
    raw = bytes([marker[i] for i in range(8)])
    if t == miopenHalf:
        pv = _struct.unpack("<e", raw[:2])[0]
    elif t == miopenBFloat16:
        pv = _struct.unpack("<f", b"\0\0" + raw[:2])[0]
    else:
        pv = _struct.unpack("<f", raw[:4])[0]
    return (DataType(t), RNNBaseLayout(l), m, b, v, [lens[i] for i in range(n)], pv)


# ---- sizes ----------------------------------------------------------------------------------

def getRNNWorkspaceSize(Handle handle, RNNDescriptor rnnDesc, sequenceLen, xDesc):
    """Bytes of workspace of the packed API's calls.  C: miopenGetRNNWorkspaceSize"""
    cdef int n = c_int(sequenceLen, "sequenceLen")
    cdef vector[miopenTensorDescriptor_t] xd = c_desc_array(xDesc, n, "xDesc", "sequenceLen")
    cdef size_t out = 0
    check_status(miopenGetRNNWorkspaceSize(c_handle(handle), c_rnn(rnnDesc, "rnnDesc"), n,
                                           c_array_ptr(xd), &out))
    return out


def getRNNTrainingReserveSize(Handle handle, RNNDescriptor rnnDesc, sequenceLen, xDesc):
    """Bytes of reserve space of training.  C: miopenGetRNNTrainingReserveSize"""
    cdef int n = c_int(sequenceLen, "sequenceLen")
    cdef vector[miopenTensorDescriptor_t] xd = c_desc_array(xDesc, n, "xDesc", "sequenceLen")
    cdef size_t out = 0
    check_status(miopenGetRNNTrainingReserveSize(c_handle(handle), c_rnn(rnnDesc, "rnnDesc"), n,
                                                 c_array_ptr(xd), &out))
    return out


def getRNNTempSpaceSizes(Handle handle, RNNDescriptor rnnDesc, SeqTensorDescriptor xDesc,
                         fwdMode):
    """(workSpaceSize, reserveSpaceSize) of the sequence-tensor API.
    C: miopenGetRNNTempSpaceSizes"""
    cdef size_t ws = 0, rs = 0
    check_status(miopenGetRNNTempSpaceSizes(c_handle(handle), c_rnn(rnnDesc, "rnnDesc"),
                                            c_seq(xDesc, "xDesc"),
                                            <miopenRNNFWDMode_t>c_int(fwdMode, "fwdMode"), &ws,
                                            &rs))
    return (ws, rs)


def getRNNParamsSize(Handle handle, RNNDescriptor rnnDesc, TensorDescriptor xDesc, dtype):
    """Bytes of the parameters (weights and biases).  C: miopenGetRNNParamsSize"""
    cdef size_t out = 0
    check_status(miopenGetRNNParamsSize(c_handle(handle), c_rnn(rnnDesc, "rnnDesc"),
                                        c_tensor(xDesc, "xDesc"), &out,
                                        <miopenDataType_t>c_int(dtype, "dtype")))
    return out


def getRNNParamsDescriptor(Handle handle, RNNDescriptor rnnDesc, TensorDescriptor xDesc,
                           TensorDescriptor wDesc, dtype):
    """Sets wDesc to the parameters' 2-d descriptor.  C: miopenGetRNNParamsDescriptor"""
    check_status(miopenGetRNNParamsDescriptor(c_handle(handle), c_rnn(rnnDesc, "rnnDesc"),
                                              c_tensor(xDesc, "xDesc"), c_tensor(wDesc, "wDesc"),
                                              <miopenDataType_t>c_int(dtype, "dtype")))


def getRNNInputTensorSize(Handle handle, RNNDescriptor rnnDesc, seqLen, xDesc):
    """Bytes of the packed API's x.  C: miopenGetRNNInputTensorSize"""
    cdef int n = c_int(seqLen, "seqLen")
    cdef vector[miopenTensorDescriptor_t] xd = c_desc_array(xDesc, n, "xDesc", "seqLen")
    cdef size_t out = 0
    check_status(miopenGetRNNInputTensorSize(c_handle(handle), c_rnn(rnnDesc, "rnnDesc"), n,
                                             <miopenTensorDescriptor_t*>c_array_ptr(xd), &out))
    return out


def getRNNHiddenTensorSize(Handle handle, RNNDescriptor rnnDesc, seqLen, xDesc):
    """Bytes of one hidden-state tensor.  C: miopenGetRNNHiddenTensorSize"""
    cdef int n = c_int(seqLen, "seqLen")
    cdef vector[miopenTensorDescriptor_t] xd = c_desc_array(xDesc, n, "xDesc", "seqLen")
    cdef size_t out = 0
    check_status(miopenGetRNNHiddenTensorSize(c_handle(handle), c_rnn(rnnDesc, "rnnDesc"), n,
                                              <miopenTensorDescriptor_t*>c_array_ptr(xd), &out))
    return out


# ---- per-layer parameters -------------------------------------------------------------------

def getRNNLayerParamSize(Handle handle, RNNDescriptor rnnDesc, layer, TensorDescriptor xDesc,
                         paramID):
    """Bytes of one weight matrix.  C: miopenGetRNNLayerParamSize"""
    cdef size_t out = 0
    check_status(miopenGetRNNLayerParamSize(c_handle(handle), c_rnn(rnnDesc, "rnnDesc"),
                                            c_int(layer, "layer"), c_tensor(xDesc, "xDesc"),
                                            c_int(paramID, "paramID"), &out))
    return out


def getRNNLayerBiasSize(Handle handle, RNNDescriptor rnnDesc, layer, biasID):
    """Bytes of one bias.  C: miopenGetRNNLayerBiasSize"""
    cdef size_t out = 0
    check_status(miopenGetRNNLayerBiasSize(c_handle(handle), c_rnn(rnnDesc, "rnnDesc"),
                                           c_int(layer, "layer"), c_int(biasID, "biasID"), &out))
    return out


def getRNNLayerParamOffset(RNNDescriptor rnnDesc, layer, TensorDescriptor xDesc, paramID,
                           TensorDescriptor paramDesc):
    """Sets paramDesc to the matrix's descriptor and returns its element offset in the
    parameters.  C: miopenGetRNNLayerParamOffset"""
    cdef size_t out = 0
    check_status(miopenGetRNNLayerParamOffset(c_rnn(rnnDesc, "rnnDesc"), c_int(layer, "layer"),
                                              c_tensor(xDesc, "xDesc"), c_int(paramID, "paramID"),
                                              c_tensor(paramDesc, "paramDesc"), &out))
    return out


def getRNNLayerBiasOffset(RNNDescriptor rnnDesc, layer, TensorDescriptor xDesc, biasID,
                          TensorDescriptor biasDesc):
    """Sets biasDesc to the bias's descriptor and returns its element offset in the parameters.
    C: miopenGetRNNLayerBiasOffset"""
    cdef size_t out = 0
    check_status(miopenGetRNNLayerBiasOffset(c_rnn(rnnDesc, "rnnDesc"), c_int(layer, "layer"),
                                             c_tensor(xDesc, "xDesc"), c_int(biasID, "biasID"),
                                             c_tensor(biasDesc, "biasDesc"), &out))
    return out


cdef c_layer_piece(str api, Handle handle, RNNDescriptor rnnDesc, layer, TensorDescriptor xDesc,
                   TensorDescriptor wDesc, w, id_, TensorDescriptor pieceDesc, piece, bint bias,
                   bint set_):
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenRNNDescriptor_t r = c_rnn(rnnDesc, "rnnDesc")
    cdef int li = c_int(layer, "layer")
    cdef int pid = c_int(id_, "biasID" if bias else "paramID")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t wd = c_tensor(wDesc, "wDesc")
    cdef str pname = "biasDesc" if bias else "paramDesc"
    cdef miopenTensorDescriptor_t pd = c_tensor(pieceDesc, pname)
    cdef void* pw = NULL
    cdef void* pp = NULL
    cdef str dname = "layerBias" if bias else "layerParam"
    if not set_ and piece is not None:
        # the piece's descriptor is an output of the call: size the buffer from a first call,
        # before anything is staged (a checked call finishes the staging of host arrays for a
        # GPU handle: w's device copy would be gone by the second call)
        if bias:
            check_status(miopenGetRNNLayerBias(h, r, li, xd, wd, NULL, pid, pd, NULL))
        else:
            check_status(miopenGetRNNLayerParam(h, r, li, xd, wd, NULL, pid, pd, NULL))
    pw = c_data(w, "w", api, handle, wDesc, set_)
    if set_:
        pp = c_data(piece, dname, api, handle, pieceDesc, False)
    elif piece is not None:
        pp = c_data(piece, dname, api, handle, pieceDesc, True)
    if bias:
        if set_:
            with nogil:
                check_status(miopenSetRNNLayerBias(h, r, li, xd, wd, pw, pid, pd, pp))
        else:
            with nogil:
                check_status(miopenGetRNNLayerBias(h, r, li, xd, wd, pw, pid, pd, pp))
    else:
        if set_:
            with nogil:
                check_status(miopenSetRNNLayerParam(h, r, li, xd, wd, pw, pid, pd, pp))
        else:
            with nogil:
                check_status(miopenGetRNNLayerParam(h, r, li, xd, wd, pw, pid, pd, pp))


def getRNNLayerParam(Handle handle, RNNDescriptor rnnDesc, layer, TensorDescriptor xDesc,
                     TensorDescriptor wDesc, w, paramID, TensorDescriptor paramDesc, layerParam):
    """Sets paramDesc to the matrix's descriptor and, unless layerParam is None, copies the
    matrix out of w into it.  C: miopenGetRNNLayerParam"""
    c_layer_piece("miopenGetRNNLayerParam", handle, rnnDesc, layer, xDesc, wDesc, w, paramID,
                  paramDesc, layerParam, False, False)


def getRNNLayerBias(Handle handle, RNNDescriptor rnnDesc, layer, TensorDescriptor xDesc,
                    TensorDescriptor wDesc, w, biasID, TensorDescriptor biasDesc, layerBias):
    """Sets biasDesc to the bias's descriptor and, unless layerBias is None, copies the bias out
    of w into it.  C: miopenGetRNNLayerBias"""
    c_layer_piece("miopenGetRNNLayerBias", handle, rnnDesc, layer, xDesc, wDesc, w, biasID,
                  biasDesc, layerBias, True, False)


def setRNNLayerParam(Handle handle, RNNDescriptor rnnDesc, layer, TensorDescriptor xDesc,
                     TensorDescriptor wDesc, w, paramID, TensorDescriptor paramDesc, layerParam):
    """Copies the matrix layerParam (paramDesc) into its place in w.  C: miopenSetRNNLayerParam"""
    c_layer_piece("miopenSetRNNLayerParam", handle, rnnDesc, layer, xDesc, wDesc, w, paramID,
                  paramDesc, layerParam, False, True)


def setRNNLayerBias(Handle handle, RNNDescriptor rnnDesc, layer, TensorDescriptor xDesc,
                    TensorDescriptor wDesc, w, biasID, TensorDescriptor biasDesc, layerBias):
    """Copies the bias layerBias (biasDesc) into its place in w.  C: miopenSetRNNLayerBias"""
    c_layer_piece("miopenSetRNNLayerBias", handle, rnnDesc, layer, xDesc, wDesc, w, biasID,
                  biasDesc, layerBias, True, True)


# ---- the packed API -------------------------------------------------------------------------

cdef c_forward(str api, Handle handle, RNNDescriptor rnnDesc, sequenceLen, xDesc, x,
               TensorDescriptor hxDesc, hx, TensorDescriptor cxDesc, cx, TensorDescriptor wDesc,
               w, yDesc, y, TensorDescriptor hyDesc, hy, TensorDescriptor cyDesc, cy, workSpace,
               workSpaceNumBytes, reserveSpace, reserveSpaceNumBytes, bint training):
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenRNNDescriptor_t r = c_rnn(rnnDesc, "rnnDesc")
    cdef int n = c_int(sequenceLen, "sequenceLen")
    cdef vector[miopenTensorDescriptor_t] xd = c_desc_array(xDesc, n, "xDesc", "sequenceLen")
    cdef vector[miopenTensorDescriptor_t] yd = c_desc_array(yDesc, n, "yDesc", "sequenceLen")
    cdef miopenTensorDescriptor_t hxd = c_tensor(hxDesc, "hxDesc")
    cdef miopenTensorDescriptor_t cxd = c_tensor(cxDesc, "cxDesc")
    cdef miopenTensorDescriptor_t wd = c_tensor(wDesc, "wDesc")
    cdef miopenTensorDescriptor_t hyd = c_tensor(hyDesc, "hyDesc")
    cdef miopenTensorDescriptor_t cyd = c_tensor(cyDesc, "cyDesc")
    cdef size_t wsn = c_size(workSpaceNumBytes, "workSpaceNumBytes")
    cdef size_t rsn = c_size(reserveSpaceNumBytes, "reserveSpaceNumBytes") if training else 0
    cdef const void* px = c_pointer(x, "x", api, handle, c_steps_bytes(rnnDesc, xDesc),
                                    c_steps_dtype(xDesc), False)
    cdef const void* phx = c_data(hx, "hx", api, handle, hxDesc, False)
    cdef const void* pcx = c_data(cx, "cx", api, handle, cxDesc, False)
    cdef const void* pw = c_data(w, "w", api, handle, wDesc, False)
    cdef void* py = c_pointer(y, "y", api, handle, c_steps_bytes(rnnDesc, yDesc),
                              c_steps_dtype(yDesc), True)
    cdef void* phy = c_data(hy, "hy", api, handle, hyDesc, True)
    cdef void* pcy = c_data(cy, "cy", api, handle, cyDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, wsn, True)
    cdef void* prs = c_workspace(reserveSpace, "reserveSpace", api, handle, rsn, True) \
        if training else NULL
    if training:
        with nogil:
            check_status(miopenRNNForwardTraining(h, r, n, c_array_ptr(xd), px, hxd, phx, cxd, pcx,
                                                  wd, pw, c_array_ptr(yd), py, hyd, phy, cyd, pcy,
                                                  pws, wsn, prs, rsn))
    else:
        with nogil:
            check_status(miopenRNNForwardInference(h, r, n, c_array_ptr(xd), px, hxd, phx, cxd,
                                                   pcx, wd, pw, c_array_ptr(yd), py, hyd, phy, cyd,
                                                   pcy, pws, wsn))


def RNNForwardTraining(Handle handle, RNNDescriptor rnnDesc, sequenceLen, xDesc, x,
                       TensorDescriptor hxDesc, hx, TensorDescriptor cxDesc, cx,
                       TensorDescriptor wDesc, w, yDesc, y, TensorDescriptor hyDesc, hy,
                       TensorDescriptor cyDesc, cy, workSpace, workSpaceNumBytes, reserveSpace,
                       reserveSpaceNumBytes):
    """Forward pass for training: y, hy, cy (hy / cy may be None), with what backward needs kept
    in reserveSpace. xDesc / yDesc: sequenceLen step descriptors (batch, vector), batches
    non-increasing; hx / cx None: zero initial state.  C: miopenRNNForwardTraining"""
    c_forward("miopenRNNForwardTraining", handle, rnnDesc, sequenceLen, xDesc, x, hxDesc, hx,
              cxDesc, cx, wDesc, w, yDesc, y, hyDesc, hy, cyDesc, cy, workSpace,
              workSpaceNumBytes, reserveSpace, reserveSpaceNumBytes, True)


def RNNForwardInference(Handle handle, RNNDescriptor rnnDesc, sequenceLen, xDesc, x,
                        TensorDescriptor hxDesc, hx, TensorDescriptor cxDesc, cx,
                        TensorDescriptor wDesc, w, yDesc, y, TensorDescriptor hyDesc, hy,
                        TensorDescriptor cyDesc, cy, workSpace, workSpaceNumBytes):
    """Forward pass for inference (no reserve space, no dropout).  C: miopenRNNForwardInference"""
    c_forward("miopenRNNForwardInference", handle, rnnDesc, sequenceLen, xDesc, x, hxDesc, hx,
              cxDesc, cx, wDesc, w, yDesc, y, hyDesc, hy, cyDesc, cy, workSpace,
              workSpaceNumBytes, None, 0, False)


def RNNBackwardData(Handle handle, RNNDescriptor rnnDesc, sequenceLen, yDesc, y, dyDesc, dy,
                    TensorDescriptor dhyDesc, dhy, TensorDescriptor dcyDesc, dcy,
                    TensorDescriptor wDesc, w, TensorDescriptor hxDesc, hx,
                    TensorDescriptor cxDesc, cx, dxDesc, dx, TensorDescriptor dhxDesc, dhx,
                    TensorDescriptor dcxDesc, dcx, workSpace, workSpaceNumBytes, reserveSpace,
                    reserveSpaceNumBytes):
    """Backward data: dx, dhx, dcx (dhx / dcx may be None) from dy, dhy, dcy (None: zero) and the
    forward's reserveSpace; leaves the gate gradients in workSpace for RNNBackwardWeights.
    C: miopenRNNBackwardData"""
    api = "miopenRNNBackwardData"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenRNNDescriptor_t r = c_rnn(rnnDesc, "rnnDesc")
    cdef int n = c_int(sequenceLen, "sequenceLen")
    cdef vector[miopenTensorDescriptor_t] yd = c_desc_array(yDesc, n, "yDesc", "sequenceLen")
    cdef vector[miopenTensorDescriptor_t] dyd = c_desc_array(dyDesc, n, "dyDesc", "sequenceLen")
    cdef vector[miopenTensorDescriptor_t] dxd = c_desc_array(dxDesc, n, "dxDesc", "sequenceLen")
    cdef miopenTensorDescriptor_t dhyd = c_tensor(dhyDesc, "dhyDesc")
    cdef miopenTensorDescriptor_t dcyd = c_tensor(dcyDesc, "dcyDesc")
    cdef miopenTensorDescriptor_t wd = c_tensor(wDesc, "wDesc")
    cdef miopenTensorDescriptor_t hxd = c_tensor(hxDesc, "hxDesc")
    cdef miopenTensorDescriptor_t cxd = c_tensor(cxDesc, "cxDesc")
    cdef miopenTensorDescriptor_t dhxd = c_tensor(dhxDesc, "dhxDesc")
    cdef miopenTensorDescriptor_t dcxd = c_tensor(dcxDesc, "dcxDesc")
    cdef size_t wsn = c_size(workSpaceNumBytes, "workSpaceNumBytes")
    cdef size_t rsn = c_size(reserveSpaceNumBytes, "reserveSpaceNumBytes")
    cdef const void* py = c_pointer(y, "y", api, handle, c_steps_bytes(rnnDesc, yDesc),
                                    c_steps_dtype(yDesc), False)
    cdef const void* pdy = c_pointer(dy, "dy", api, handle, c_steps_bytes(rnnDesc, dyDesc),
                                     c_steps_dtype(dyDesc), False)
    cdef const void* pdhy = c_data(dhy, "dhy", api, handle, dhyDesc, False)
    cdef const void* pdcy = c_data(dcy, "dcy", api, handle, dcyDesc, False)
    cdef const void* pw = c_data(w, "w", api, handle, wDesc, False)
    cdef const void* phx = c_data(hx, "hx", api, handle, hxDesc, False)
    cdef const void* pcx = c_data(cx, "cx", api, handle, cxDesc, False)
    cdef void* pdx = c_pointer(dx, "dx", api, handle, c_steps_bytes(rnnDesc, dxDesc),
                               c_steps_dtype(dxDesc), True)
    cdef void* pdhx = c_data(dhx, "dhx", api, handle, dhxDesc, True)
    cdef void* pdcx = c_data(dcx, "dcx", api, handle, dcxDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, wsn, True)
    cdef void* prs = c_workspace(reserveSpace, "reserveSpace", api, handle, rsn, True)
    with nogil:
        check_status(miopenRNNBackwardData(h, r, n, c_array_ptr(yd), py, c_array_ptr(dyd), pdy,
                                           dhyd, pdhy, dcyd, pdcy, wd, pw, hxd, phx, cxd, pcx,
                                           c_array_ptr(dxd), pdx, dhxd, pdhx, dcxd, pdcx, pws,
                                           wsn, prs, rsn))


def RNNBackwardWeights(Handle handle, RNNDescriptor rnnDesc, sequenceLen, xDesc, x,
                       TensorDescriptor hxDesc, hx, yDesc, y, TensorDescriptor dwDesc, dw,
                       workSpace, workSpaceNumBytes, reserveSpace, reserveSpaceNumBytes):
    """Backward weights: dw (overwritten) from x, hx, the reserve space and the gate gradients
    RNNBackwardData left in workSpace.  C: miopenRNNBackwardWeights"""
    api = "miopenRNNBackwardWeights"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenRNNDescriptor_t r = c_rnn(rnnDesc, "rnnDesc")
    cdef int n = c_int(sequenceLen, "sequenceLen")
    cdef vector[miopenTensorDescriptor_t] xd = c_desc_array(xDesc, n, "xDesc", "sequenceLen")
    cdef vector[miopenTensorDescriptor_t] yd = c_desc_array(yDesc, n, "yDesc", "sequenceLen")
    cdef miopenTensorDescriptor_t hxd = c_tensor(hxDesc, "hxDesc")
    cdef miopenTensorDescriptor_t dwd = c_tensor(dwDesc, "dwDesc")
    cdef size_t wsn = c_size(workSpaceNumBytes, "workSpaceNumBytes")
    cdef size_t rsn = c_size(reserveSpaceNumBytes, "reserveSpaceNumBytes")
    cdef const void* px = c_pointer(x, "x", api, handle, c_steps_bytes(rnnDesc, xDesc),
                                    c_steps_dtype(xDesc), False)
    cdef const void* phx = c_data(hx, "hx", api, handle, hxDesc, False)
    cdef const void* py = c_pointer(y, "y", api, handle, c_steps_bytes(rnnDesc, yDesc),
                                    c_steps_dtype(yDesc), False)
    cdef void* pdw = c_data(dw, "dw", api, handle, dwDesc, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, wsn, True)
    cdef const void* prs = c_workspace(reserveSpace, "reserveSpace", api, handle, rsn, False)
    with nogil:
        check_status(miopenRNNBackwardWeights(h, r, n, c_array_ptr(xd), px, hxd, phx,
                                              c_array_ptr(yd), py, dwd, pdw, pws, wsn, prs, rsn))


# ---- the sequence-tensor API ----------------------------------------------------------------

cdef size_t c_hidden_bytes(TensorDescriptor d):
    cdef size_t n = 0
    if d is None or d.c_desc is NULL:
        return 0
    if miopenGetTensorNumBytes(d.c_desc, &n) != miopenStatusSuccess:
        return 0
    return n


def RNNForward(Handle handle, RNNDescriptor rnnDesc, fwdMode, SeqTensorDescriptor xDesc, x,
               TensorDescriptor hDesc, hx, hy, TensorDescriptor cDesc, cx, cy,
               SeqTensorDescriptor yDesc, y, w, weightSpaceSize, workSpace, workSpaceNumBytes,
               reserveSpace, reserveSpaceNumBytes):
    """Forward pass (training or inference) on sequence tensors: y, hy, cy.
    C: miopenRNNForward"""
    api = "miopenRNNForward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenRNNDescriptor_t r = c_rnn(rnnDesc, "rnnDesc")
    cdef miopenRNNFWDMode_t mode = <miopenRNNFWDMode_t>c_int(fwdMode, "fwdMode")
    cdef miopenSeqTensorDescriptor_t xd = c_seq(xDesc, "xDesc")
    cdef miopenSeqTensorDescriptor_t yd = c_seq(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t hd = c_tensor(hDesc, "hDesc")
    cdef miopenTensorDescriptor_t cd = c_tensor(cDesc, "cDesc")
    cdef size_t wn = c_size(weightSpaceSize, "weightSpaceSize")
    cdef size_t wsn = c_size(workSpaceNumBytes, "workSpaceNumBytes")
    cdef size_t rsn = c_size(reserveSpaceNumBytes, "reserveSpaceNumBytes")
    cdef const void* px = c_pointer(x, "x", api, handle, c_seq_bytes(xDesc), c_seq_dtype(xDesc),
                                    False)
    cdef const void* phx = c_data(hx, "hx", api, handle, hDesc, False)
    cdef void* phy = c_data(hy, "hy", api, handle, hDesc, True)
    cdef const void* pcx = c_data(cx, "cx", api, handle, cDesc, False)
    cdef void* pcy = c_data(cy, "cy", api, handle, cDesc, True)
    cdef void* py = c_pointer(y, "y", api, handle, c_seq_bytes(yDesc), c_seq_dtype(yDesc), True)
    cdef const void* pw = c_workspace(w, "w", api, handle, wn, False)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, wsn, True)
    cdef void* prs = c_workspace(reserveSpace, "reserveSpace", api, handle, rsn, True)
    with nogil:
        check_status(miopenRNNForward(h, r, mode, xd, px, hd, phx, phy, cd, pcx, pcy, yd, py, pw,
                                      wn, pws, wsn, prs, rsn))


def RNNBackwardSeqData(Handle handle, RNNDescriptor rnnDesc, SeqTensorDescriptor yDesc, y, dy,
                       TensorDescriptor hDesc, hx, dhy, dhx, TensorDescriptor cDesc, cx, dcy, dcx,
                       SeqTensorDescriptor xDesc, dx, w, weightSpaceSize, workSpace,
                       workSpaceNumBytes, reserveSpace, reserveSpaceNumBytes):
    """Backward data on sequence tensors: dx, dhx, dcx.  C: miopenRNNBackwardSeqData"""
    api = "miopenRNNBackwardSeqData"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenRNNDescriptor_t r = c_rnn(rnnDesc, "rnnDesc")
    cdef miopenSeqTensorDescriptor_t yd = c_seq(yDesc, "yDesc")
    cdef miopenSeqTensorDescriptor_t xd = c_seq(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t hd = c_tensor(hDesc, "hDesc")
    cdef miopenTensorDescriptor_t cd = c_tensor(cDesc, "cDesc")
    cdef size_t wn = c_size(weightSpaceSize, "weightSpaceSize")
    cdef size_t wsn = c_size(workSpaceNumBytes, "workSpaceNumBytes")
    cdef size_t rsn = c_size(reserveSpaceNumBytes, "reserveSpaceNumBytes")
    cdef const void* py = c_pointer(y, "y", api, handle, c_seq_bytes(yDesc), c_seq_dtype(yDesc),
                                    False)
    cdef const void* pdy = c_pointer(dy, "dy", api, handle, c_seq_bytes(yDesc),
                                     c_seq_dtype(yDesc), False)
    cdef const void* phx = c_data(hx, "hx", api, handle, hDesc, False)
    cdef const void* pdhy = c_data(dhy, "dhy", api, handle, hDesc, False)
    cdef void* pdhx = c_data(dhx, "dhx", api, handle, hDesc, True)
    cdef const void* pcx = c_data(cx, "cx", api, handle, cDesc, False)
    cdef const void* pdcy = c_data(dcy, "dcy", api, handle, cDesc, False)
    cdef void* pdcx = c_data(dcx, "dcx", api, handle, cDesc, True)
    cdef void* pdx = c_pointer(dx, "dx", api, handle, c_seq_bytes(xDesc), c_seq_dtype(xDesc),
                               True)
    cdef const void* pw = c_workspace(w, "w", api, handle, wn, False)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, wsn, True)
    cdef void* prs = c_workspace(reserveSpace, "reserveSpace", api, handle, rsn, True)
    with nogil:
        check_status(miopenRNNBackwardSeqData(h, r, yd, py, pdy, hd, phx, pdhy, pdhx, cd, pcx,
                                              pdcy, pdcx, xd, pdx, pw, wn, pws, wsn, prs, rsn))


def RNNBackwardWeightsSeqTensor(Handle handle, RNNDescriptor rnnDesc, SeqTensorDescriptor xDesc,
                                x, TensorDescriptor hDesc, hx, SeqTensorDescriptor yDesc, y, dw,
                                weightSpaceSize, workSpace, workSpaceNumBytes, reserveSpace,
                                reserveSpaceNumBytes):
    """Backward weights on sequence tensors: dw (overwritten).
    C: miopenRNNBackwardWeightsSeqTensor"""
    api = "miopenRNNBackwardWeightsSeqTensor"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenRNNDescriptor_t r = c_rnn(rnnDesc, "rnnDesc")
    cdef miopenSeqTensorDescriptor_t xd = c_seq(xDesc, "xDesc")
    cdef miopenSeqTensorDescriptor_t yd = c_seq(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t hd = c_tensor(hDesc, "hDesc")
    cdef size_t wn = c_size(weightSpaceSize, "weightSpaceSize")
    cdef size_t wsn = c_size(workSpaceNumBytes, "workSpaceNumBytes")
    cdef size_t rsn = c_size(reserveSpaceNumBytes, "reserveSpaceNumBytes")
    cdef const void* px = c_pointer(x, "x", api, handle, c_seq_bytes(xDesc), c_seq_dtype(xDesc),
                                    False)
    cdef const void* phx = c_data(hx, "hx", api, handle, hDesc, False)
    cdef const void* py = c_pointer(y, "y", api, handle, c_seq_bytes(yDesc), c_seq_dtype(yDesc),
                                    False)
    cdef void* pdw = c_workspace(dw, "dw", api, handle, wn, True)
    cdef void* pws = c_workspace(workSpace, "workSpace", api, handle, wsn, True)
    cdef const void* prs = c_workspace(reserveSpace, "reserveSpace", api, handle, rsn, False)
    with nogil:
        check_status(miopenRNNBackwardWeightsSeqTensor(h, r, xd, px, hd, phx, yd, py, pdw, wn,
                                                       pws, wsn, prs, rsn))
