# The fusion group of miopen.h: fusion plans, their operators, operator arguments, compile,
# execute and miopenConvolutionBiasActivationForward. The setOpArgs* calls check the operator at
# once (the C setter runs with the scalars) and keep the Python buffers; executeFusionPlan turns
# them into pointers on its handle (NumPy arrays staged for a GPU as in every call) and sets them
# in C before the run, so the buffers need a handle only when the plan runs.


class FusionDirection(_enum.IntEnum):
    """C: miopenFusionDirection_t"""
    miopenVerticalFusion = 0
    miopenHorizontalFusion = 1


ENUMS = ENUMS + (FusionDirection,)


cdef class FusionPlanDescriptor:
    """A fusion plan: an ordered chain of operators over one input tensor (a copy of inputDesc).
    C: miopenCreateFusionPlan"""
    cdef miopenFusionPlanDescriptor_t c_plan      # NULL once destroyed
    cdef TensorDescriptor c_input
    cdef list c_ops

    def __cinit__(self, fuseDirection, TensorDescriptor inputDesc):
        self.c_plan = NULL
        self.c_ops = []
        cdef miopenFusionDirection_t d = <miopenFusionDirection_t>c_int(fuseDirection, "fuseDirection")
        check_status(miopenCreateFusionPlan(&self.c_plan, d, c_tensor(inputDesc, "inputDesc")))
        self.c_input = inputDesc

    def __dealloc__(self):                        # never raises: the status is deliberately ignored
        if self.c_plan is not NULL:
            miopenDestroyFusionPlan(self.c_plan)

    @property
    def ops(self):
        """The operators, in the order they were created (read-only)."""
        return tuple(self.c_ops)

    def __repr__(self):
        if self.c_plan is NULL:
            return "FusionPlanDescriptor(destroyed)"
        return f"FusionPlanDescriptor({[op.kind for op in self.c_ops]})"


cdef miopenFusionPlanDescriptor_t c_fusion_plan(FusionPlanDescriptor plan, str name) except NULL:
    if plan is None:
        raise TypeError(f"{name} must be a FusionPlanDescriptor, not None")
    if plan.c_plan is NULL:
        raise ValueError(f"{name} has been destroyed")
    return plan.c_plan


cdef class FusionOpDescriptor:
    """An operator of a fusion plan, made by a createOp* call; it lives as long as its plan.
    C: miopenFusionOpDescriptor_t"""
    cdef miopenFusionOpDescriptor_t c_op
    cdef FusionPlanDescriptor c_owner
    cdef object c_param                           # the descriptor its parameter buffers have
    cdef str c_kind

    def __cinit__(self):
        self.c_op = NULL

    @property
    def kind(self):
        """MIOpen's operator name ("miopenFusionOpConvForward", ...) (read-only)."""
        return self.c_kind

    def __repr__(self):
        return f"FusionOpDescriptor({self.c_kind})"


cdef miopenFusionOpDescriptor_t c_fusion_op(FusionOpDescriptor op, str name) except NULL:
    if op is None:
        raise TypeError(f"{name} must be a FusionOpDescriptor, not None")
    if op.c_owner is None or op.c_owner.c_plan is NULL or op.c_op is NULL:
        raise ValueError(f"{name}'s fusion plan has been destroyed")
    return op.c_op


cdef FusionOpDescriptor c_new_op(FusionPlanDescriptor plan, miopenFusionOpDescriptor_t c_op,
                                 str kind, object param):
    cdef FusionOpDescriptor op = FusionOpDescriptor()
    op.c_op = c_op
    op.c_owner = plan
    op.c_kind = kind
    op.c_param = param
    plan.c_ops.append(op)
    return op


cdef class OperatorArgs:
    """The run-time arguments of a plan's operators (scalars and buffers, kept alive here).
    C: miopenCreateOperatorArgs"""
    cdef miopenOperatorArgs_t c_args              # NULL once destroyed
    cdef dict c_keep                              # op -> (setter, values)

    def __cinit__(self):
        self.c_args = NULL
        self.c_keep = {}
        check_status(miopenCreateOperatorArgs(&self.c_args))

    def __dealloc__(self):
        if self.c_args is not NULL:
            miopenDestroyOperatorArgs(self.c_args)

    def __repr__(self):
        return "OperatorArgs(destroyed)" if self.c_args is NULL else f"OperatorArgs({len(self.c_keep)} ops)"


cdef miopenOperatorArgs_t c_operator_args(OperatorArgs args, str name) except NULL:
    if args is None:
        raise TypeError(f"{name} must be an OperatorArgs, not None")
    if args.c_args is NULL:
        raise ValueError(f"{name} has been destroyed")
    return args.c_args


# ---- plans ----

def createFusionPlan(fuseDirection, TensorDescriptor inputDesc):
    """A new fusion plan over inputDesc (vertical fusion; horizontal raises NotImplemented, as in
    MIOpen).  C: miopenCreateFusionPlan"""
    return FusionPlanDescriptor(fuseDirection, inputDesc)


def destroyFusionPlan(FusionPlanDescriptor fusePlanDesc not None):
    """Destroys the plan and its operators; using them afterwards raises.
    C: miopenDestroyFusionPlan"""
    cdef miopenFusionPlanDescriptor_t p = c_fusion_plan(fusePlanDesc, "fusePlanDesc")
    fusePlanDesc.c_plan = NULL
    check_status(miopenDestroyFusionPlan(p))


def compileFusionPlan(Handle handle, FusionPlanDescriptor fusePlanDesc):
    """Checks the chain and picks its fused solver; raises (miopenStatusUnsupportedOp) naming
    the operator and the reason for a chain it cannot fuse.  C: miopenCompileFusionPlan"""
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenFusionPlanDescriptor_t p = c_fusion_plan(fusePlanDesc, "fusePlanDesc")
    with nogil:
        check_status(miopenCompileFusionPlan(h, p))


def fusionPlanGetOp(FusionPlanDescriptor fusePlanDesc, op_idx):
    """The operator op_idx (in the order of creation).  C: miopenFusionPlanGetOp"""
    cdef miopenFusionOpDescriptor_t op = NULL
    cdef int idx = c_int(op_idx, "op_idx")
    check_status(miopenFusionPlanGetOp(c_fusion_plan(fusePlanDesc, "fusePlanDesc"), idx, &op))
    for known in fusePlanDesc.c_ops:
        if (<FusionOpDescriptor>known).c_op == op:
            return known
    raise RuntimeError("miopenFusionPlanGetOp returned an operator this plan did not create")


def fusionPlanGetWorkSpaceSize(Handle handle, FusionPlanDescriptor fusePlanDesc, algo):
    """The workspace the plan needs, in bytes (0: plans run solvers that need none).
    C: miopenFusionPlanGetWorkSpaceSize"""
    cdef size_t size = 0
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenConvFwdAlgorithm_t a = <miopenConvFwdAlgorithm_t>c_int(algo, "algo")
    check_status(miopenFusionPlanGetWorkSpaceSize(h, c_fusion_plan(fusePlanDesc, "fusePlanDesc"),
                                                  &size, a))
    return size


def fusionPlanConvolutionGetAlgo(FusionPlanDescriptor fusePlanDesc, requestAlgoCount):
    """The algorithms (ConvFwdAlgorithm) that can run the plan's convolution, best first, at most
    requestAlgoCount.  C: miopenFusionPlanConvolutionGetAlgo"""
    cdef int request = c_int(requestAlgoCount, "requestAlgoCount")
    cdef int returned = 0
    cdef miopenConvFwdAlgorithm_t algos[8]
    cdef int n = request if request <= 8 else 8
    check_status(miopenFusionPlanConvolutionGetAlgo(c_fusion_plan(fusePlanDesc, "fusePlanDesc"),
                                                    n, &returned, algos))
    return [ConvFwdAlgorithm(algos[i]) for i in range(returned)]


def fusionPlanConvolutionSetAlgo(FusionPlanDescriptor fusePlanDesc, algo):
    """Asks the plan to run its convolution with algo (a ConvFwdAlgorithm).
    C: miopenFusionPlanConvolutionSetAlgo"""
    check_status(miopenFusionPlanConvolutionSetAlgo(
        c_fusion_plan(fusePlanDesc, "fusePlanDesc"), <miopenConvFwdAlgorithm_t>c_int(algo, "algo")))


# ---- operators ----

def createOpConvForward(FusionPlanDescriptor fusePlanDesc, ConvolutionDescriptor convDesc,
                        TensorDescriptor wDesc):
    """Appends a forward convolution (copies of convDesc and wDesc).  C: miopenCreateOpConvForward"""
    cdef miopenFusionOpDescriptor_t op = NULL
    check_status(miopenCreateOpConvForward(c_fusion_plan(fusePlanDesc, "fusePlanDesc"), &op,
                                           c_conv(convDesc, "convDesc"), c_tensor(wDesc, "wDesc")))
    return c_new_op(fusePlanDesc, op, "miopenFusionOpConvForward", wDesc)


def createOpActivationForward(FusionPlanDescriptor fusePlanDesc, mode):
    """Appends a forward activation of mode (an ActivationMode).
    C: miopenCreateOpActivationForward"""
    cdef miopenFusionOpDescriptor_t op = NULL
    check_status(miopenCreateOpActivationForward(c_fusion_plan(fusePlanDesc, "fusePlanDesc"), &op,
                                                 <miopenActivationMode_t>c_int(mode, "mode")))
    return c_new_op(fusePlanDesc, op, "miopenFusionOpActivForward", None)


def createOpActivationBackward(FusionPlanDescriptor fusePlanDesc, mode):
    """Appends a backward activation of mode (after a batch-norm backward).
    C: miopenCreateOpActivationBackward"""
    cdef miopenFusionOpDescriptor_t op = NULL
    check_status(miopenCreateOpActivationBackward(c_fusion_plan(fusePlanDesc, "fusePlanDesc"), &op,
                                                  <miopenActivationMode_t>c_int(mode, "mode")))
    return c_new_op(fusePlanDesc, op, "miopenFusionOpActivBackward", fusePlanDesc.c_input)


def createOpBiasForward(FusionPlanDescriptor fusePlanDesc, TensorDescriptor bDesc):
    """Appends a bias (bDesc 1xKx1x1 of the data's type).  C: miopenCreateOpBiasForward"""
    cdef miopenFusionOpDescriptor_t op = NULL
    check_status(miopenCreateOpBiasForward(c_fusion_plan(fusePlanDesc, "fusePlanDesc"), &op,
                                           c_tensor(bDesc, "bDesc")))
    return c_new_op(fusePlanDesc, op, "miopenFusionOpBiasForward", bDesc)


def createOpBatchNormInference(FusionPlanDescriptor fusePlanDesc, bn_mode,
                               TensorDescriptor bnScaleBiasMeanVarDesc):
    """Appends a batch-norm inference.  C: miopenCreateOpBatchNormInference"""
    cdef miopenFusionOpDescriptor_t op = NULL
    check_status(miopenCreateOpBatchNormInference(
        c_fusion_plan(fusePlanDesc, "fusePlanDesc"), &op,
        <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode"),
        c_tensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc")))
    return c_new_op(fusePlanDesc, op, "miopenFusionOpBatchNormInference", bnScaleBiasMeanVarDesc)


cdef TensorDescriptor c_derived_bn(FusionPlanDescriptor plan, object bn_mode):
    d = TensorDescriptor()
    deriveBNTensorDescriptor(d, plan.c_input, bn_mode)
    return d


def createOpBatchNormForward(FusionPlanDescriptor fusePlanDesc, bn_mode, runningMeanVariance):
    """Appends a batch-norm training forward (parameters: the derived fp32 1xCx1x1 / 1xCxHxW
    tensors); runningMeanVariance: whether the running statistics are updated.
    C: miopenCreateOpBatchNormForward"""
    cdef miopenFusionOpDescriptor_t op = NULL
    cdef bint running = bool(runningMeanVariance)
    check_status(miopenCreateOpBatchNormForward(c_fusion_plan(fusePlanDesc, "fusePlanDesc"), &op,
                                                <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode"),
                                                running))
    return c_new_op(fusePlanDesc, op, "miopenFusionOpBatchNormFwdTrain",
                    c_derived_bn(fusePlanDesc, bn_mode))


def createOpBatchNormBackward(FusionPlanDescriptor fusePlanDesc, bn_mode):
    """Appends a batch-norm backward (the plan's input is dy, its output dx).
    C: miopenCreateOpBatchNormBackward"""
    cdef miopenFusionOpDescriptor_t op = NULL
    check_status(miopenCreateOpBatchNormBackward(c_fusion_plan(fusePlanDesc, "fusePlanDesc"), &op,
                                                 <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode")))
    return c_new_op(fusePlanDesc, op, "miopenFusionOpBatchNormBwdTrain",
                    c_derived_bn(fusePlanDesc, bn_mode))


# ---- operator arguments ----

def createOperatorArgs():
    """A new, empty operator-arguments object.  C: miopenCreateOperatorArgs"""
    return OperatorArgs()


def destroyOperatorArgs(OperatorArgs args not None):
    """Destroys the object; using it afterwards raises.  C: miopenDestroyOperatorArgs"""
    cdef miopenOperatorArgs_t a = c_operator_args(args, "args")
    args.c_args = NULL
    args.c_keep.clear()
    check_status(miopenDestroyOperatorArgs(a))


cdef enum:
    C_SET_CONV = 0
    C_SET_ACTIV_FWD = 1
    C_SET_ACTIV_BWD = 2
    C_SET_BN_INFER = 3
    C_SET_BN_FWD = 4
    C_SET_BN_BWD = 5
    C_SET_BIAS = 6


cdef miopenStatus_t c_set(int which, miopenOperatorArgs_t a, miopenFusionOpDescriptor_t op,
                          tuple v, void** p) except *:
    """One C setter with the scalars of v and the pointers p (NULL where not yet converted)."""
    cdef c_scalar s1, s2
    cdef const void* pa = c_scalar_ptr(&s1, v[0], "alpha", miopenFloat)
    cdef const void* pb = c_scalar_ptr(&s2, v[1], "beta", miopenFloat)
    if which == C_SET_CONV:
        return miopenSetOpArgsConvForward(a, op, pa, pb, p[0])
    if which == C_SET_ACTIV_FWD:
        return miopenSetOpArgsActivForward(a, op, pa, pb, c_double(v[2], "activAlpha"),
                                           c_double(v[3], "activBeta"), c_double(v[4], "activGamma"))
    if which == C_SET_ACTIV_BWD:
        return miopenSetOpArgsActivBackward(a, op, pa, pb, p[0], p[1], c_double(v[2], "activAlpha"),
                                            c_double(v[3], "activBeta"), c_double(v[4], "activGamma"))
    if which == C_SET_BN_INFER:
        return miopenSetOpArgsBatchNormInference(a, op, pa, pb, p[0], p[1], p[2], p[3],
                                                 c_double(v[2], "epsilon"))
    if which == C_SET_BN_FWD:
        return miopenSetOpArgsBatchNormForward(a, op, pa, pb, p[0], p[1], p[2], p[3], p[4], p[5],
                                               c_double(v[2], "expAvgFactor"),
                                               c_double(v[3], "epsilon"))
    if which == C_SET_BN_BWD:
        return miopenSetOpArgsBatchNormBackward(a, op, pa, pb, p[0], p[1], p[2], p[3], p[4], p[5],
                                                p[6])
    return miopenSetOpArgsBiasForward(a, op, pa, pb, p[0])


# The buffers of each setter: (name, writable, which descriptor sizes it: "param", "input" or None).
_SETTER_BUFFERS = {
    C_SET_CONV: (("w", False, "param"),),
    C_SET_ACTIV_FWD: (),
    C_SET_ACTIV_BWD: (("y", False, "input"), ("reserved", False, None)),
    C_SET_BN_INFER: (("bnScale", False, "param"), ("bnBias", False, "param"),
                     ("estimatedMean", False, "param"), ("estimatedVariance", False, "param")),
    C_SET_BN_FWD: (("bnScale", False, "param"), ("bnBias", False, "param"),
                   ("savedMean", True, "param"), ("savedInvVariance", True, "param"),
                   ("runningMean", True, "param"), ("runningVariance", True, "param")),
    C_SET_BN_BWD: (("x", False, "input"), ("bnScale", False, "param"), ("bnBias", False, "param"),
                   ("resultBnScaleDiff", True, "param"), ("resultBnBiasDiff", True, "param"),
                   ("savedMean", False, "param"), ("savedInvVariance", False, "param")),
    C_SET_BIAS: (("bias", False, "param"),),
}


cdef int c_set_op_args(OperatorArgs args, FusionOpDescriptor op, str op_name, int which,
                       tuple scalars, tuple buffers) except -1:
    """Checks the operator and scalars now (the C setter, buffers not yet given) and keeps the
    buffers for executeFusionPlan."""
    cdef void* p[8]
    cdef int i
    for i in range(8):
        p[i] = NULL
    cdef miopenOperatorArgs_t a = c_operator_args(args, "args")
    cdef miopenFusionOpDescriptor_t o = c_fusion_op(op, op_name)
    check_status(c_set(which, a, o, scalars, p))
    args.c_keep[op] = (which, scalars, buffers)
    return 0


cdef int c_apply_op_args(OperatorArgs args, FusionPlanDescriptor plan, Handle handle,
                         str api) except -1:
    """Sets the buffers of plan's operators kept in args as pointers on handle's device (staged
    when NumPy on a GPU); a failure drops the staged copies."""
    cdef void* p[8]
    cdef int i
    cdef FusionOpDescriptor op
    cdef miopenStatus_t status
    cdef miopenOperatorArgs_t a = c_operator_args(args, "args")
    for key, (which, scalars, buffers) in args.c_keep.items():
        op = <FusionOpDescriptor>key
        if op.c_owner is not plan:
            continue                          # another plan's operator: not this call's buffers
        specs = _SETTER_BUFFERS[which]
        for i in range(8):
            p[i] = NULL
        for i, (name, writable, sized) in enumerate(specs):
            desc = op.c_param if sized == "param" else (op.c_owner.c_input if sized == "input" else None)
            p[i] = c_data(buffers[i], name, api, handle, desc, writable)
        status = c_set(which, a, op.c_op, scalars, p)
        if status != miopenStatusSuccess:
            c_raise_staged(status)
    return 0


def setOpArgsConvForward(OperatorArgs args, FusionOpDescriptor convOp, alpha, beta, w):
    """The convolution's arguments: alpha scales it, beta must be 0, w the weights.
    C: miopenSetOpArgsConvForward"""
    c_set_op_args(args, convOp, "convOp", C_SET_CONV, (alpha, beta), (w,))


def setOpArgsActivForward(OperatorArgs args, FusionOpDescriptor activFwdOp, alpha, beta,
                          activAlpha, activBeta, activGamma):
    """The activation's parameters (alpha 1, beta 0).  C: miopenSetOpArgsActivForward"""
    c_set_op_args(args, activFwdOp, "activFwdOp", C_SET_ACTIV_FWD,
                  (alpha, beta, activAlpha, activBeta, activGamma), ())


def setOpArgsActivBackward(OperatorArgs args, FusionOpDescriptor activBwdOp, alpha, beta, y,
                           reserved, activAlpha, activBeta, activGamma):
    """The backward activation's parameters; y (the forward activation's output) may be None:
    the derivative is taken at the batch norm's output, recomputed; reserved must be None.
    C: miopenSetOpArgsActivBackward"""
    c_set_op_args(args, activBwdOp, "activBwdOp", C_SET_ACTIV_BWD,
                  (alpha, beta, activAlpha, activBeta, activGamma), (y, reserved))


def setOpArgsBatchNormInference(OperatorArgs args, FusionOpDescriptor bnOp, alpha, beta, bnScale,
                                bnBias, estimatedMean, estimatedVariance, epsilon):
    """The batch-norm inference's parameters.  C: miopenSetOpArgsBatchNormInference"""
    c_set_op_args(args, bnOp, "bnOp", C_SET_BN_INFER, (alpha, beta, epsilon),
                  (bnScale, bnBias, estimatedMean, estimatedVariance))


def setOpArgsBatchNormForward(OperatorArgs args, FusionOpDescriptor bnOp, alpha, beta, bnScale,
                              bnBias, savedMean, savedInvVariance, runningMean, runningVariance,
                              expAvgFactor, epsilon):
    """The batch-norm training forward's parameters and outputs (savedMean, savedInvVariance
    may be None; the running statistics are needed when the op updates them).
    C: miopenSetOpArgsBatchNormForward"""
    c_set_op_args(args, bnOp, "bnOp", C_SET_BN_FWD, (alpha, beta, expAvgFactor, epsilon),
                  (bnScale, bnBias, savedMean, savedInvVariance, runningMean, runningVariance))


def setOpArgsBatchNormBackward(OperatorArgs args, FusionOpDescriptor bnOp, alpha, beta, x, bnScale,
                               bnBias, resultBnScaleDiff, resultBnBiasDiff, savedMean,
                               savedInvVariance):
    """The batch-norm backward's inputs (x, parameters, saved statistics) and parameter
    gradients.  C: miopenSetOpArgsBatchNormBackward"""
    c_set_op_args(args, bnOp, "bnOp", C_SET_BN_BWD, (alpha, beta),
                  (x, bnScale, bnBias, resultBnScaleDiff, resultBnBiasDiff, savedMean,
                   savedInvVariance))


def setOpArgsBiasForward(OperatorArgs args, FusionOpDescriptor biasOp, alpha, beta, bias):
    """The bias (alpha 1, beta 0).  C: miopenSetOpArgsBiasForward"""
    c_set_op_args(args, biasOp, "biasOp", C_SET_BIAS, (alpha, beta), (bias,))


# ---- execution ----

def executeFusionPlan(Handle handle, FusionPlanDescriptor fusePlanDesc, TensorDescriptor inputDesc,
                      input, TensorDescriptor outputDesc, output, OperatorArgs args):
    """Runs a compiled plan: output = the chain applied to input. Raises for a plan not compiled
    (or compiled with an error) and for missing arguments, before anything is written.
    C: miopenExecuteFusionPlan"""
    api = "miopenExecuteFusionPlan"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenFusionPlanDescriptor_t p = c_fusion_plan(fusePlanDesc, "fusePlanDesc")
    cdef miopenOperatorArgs_t a = c_operator_args(args, "args")
    cdef miopenTensorDescriptor_t ind = c_tensor(inputDesc, "inputDesc")
    cdef miopenTensorDescriptor_t outd = c_tensor(outputDesc, "outputDesc")
    c_apply_op_args(args, fusePlanDesc, handle, api)
    cdef const void* pin = c_data(input, "input", api, handle, inputDesc, False)
    cdef void* pout = c_data(output, "output", api, handle, outputDesc, True)
    with nogil:
        check_status(miopenExecuteFusionPlan(h, p, ind, pin, outd, pout, a))


def convolutionBiasActivationForward(Handle handle, alpha1, TensorDescriptor xDesc, x,
                                     TensorDescriptor wDesc, w, ConvolutionDescriptor convDesc,
                                     algo, workspace, workspaceSizeInBytes, alpha2,
                                     TensorDescriptor zDesc, z, TensorDescriptor biasDesc, bias,
                                     ActivationDescriptor activationDesc, TensorDescriptor yDesc, y):
    """y = activation(alpha1 * conv(x, w) + alpha2 * z + bias), every activation mode; z and
    zDesc None for no residual.  C: miopenConvolutionBiasActivationForward"""
    api = "miopenConvolutionBiasActivationForward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(yDesc)
    cdef const void* pa1 = c_scalar_ptr(&s1, alpha1, "alpha1", dt)
    cdef const void* pa2 = c_scalar_ptr(&s2, alpha2, "alpha2", dt)
    cdef miopenConvFwdAlgorithm_t al = <miopenConvFwdAlgorithm_t>c_int(algo, "algo")
    cdef size_t ws_size = c_size(workspaceSizeInBytes, "workspaceSizeInBytes")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc"), wd = c_tensor(wDesc, "wDesc")
    cdef miopenTensorDescriptor_t zd = NULL
    if zDesc is not None:
        zd = c_tensor(zDesc, "zDesc")
    cdef miopenTensorDescriptor_t bd = c_tensor(biasDesc, "biasDesc"), yd = c_tensor(yDesc, "yDesc")
    cdef miopenConvolutionDescriptor_t cd = c_conv(convDesc, "convDesc")
    cdef miopenActivationDescriptor_t ad = c_activation(activationDesc, "activationDesc")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef const void* pw = c_data(w, "w", api, handle, wDesc, False)
    cdef const void* pz = c_data(z, "z", api, handle, zDesc, False)
    cdef const void* pbias = c_data(bias, "bias", api, handle, biasDesc, False)
    cdef void* pws = c_workspace(workspace, "workspace", api, handle, ws_size, True)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    with nogil:
        check_status(miopenConvolutionBiasActivationForward(
            h, pa1, xd, px, wd, pw, cd, al, pws, ws_size, pa2, zd, pz, bd, pbias, ad, yd, py))
