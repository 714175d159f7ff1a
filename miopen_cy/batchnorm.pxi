# The batch-normalization group of miopen.h. Batch norm has no descriptor object: the scale,
# bias, mean and variance tensors share one TensorDescriptor (see deriveBNTensorDescriptor), or
# have one each in the _V2 calls. Data are fp32, fp16 or bf16; the parameter tensors fp32
# (MIOpen's mixed mode) or the data's type.
# Every data argument may be None (a null pointer); the C library says which ones must be given.


def deriveBNTensorDescriptor(TensorDescriptor derivedBnDesc, TensorDescriptor xDesc, bn_mode):
    """Sets derivedBnDesc to the shape of the scale/bias/mean/variance tensors of x.

    Spatial: 1xCx1x1 (1xCx1x1x1 for 5-d x); per activation: 1xCxHxW (1xCxDxHxW). derivedBnDesc
    is a descriptor the caller created (an input, as in C); it is set to packed miopenFloat.
    C: miopenDeriveBNTensorDescriptor"""
    cdef miopenTensorDescriptor_t dd = c_tensor(derivedBnDesc, "derivedBnDesc")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenBatchNormMode_t mode = <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode")
    check_status(miopenDeriveBNTensorDescriptor(dd, xd, mode))


def batchNormalizationForwardTraining(Handle handle, bn_mode, alpha, beta, TensorDescriptor xDesc,
                                      x, TensorDescriptor yDesc, y,
                                      TensorDescriptor bnScaleBiasMeanVarDesc, bnScale, bnBias,
                                      expAvgFactor, resultRunningMean, resultRunningVariance,
                                      epsilon, resultSaveMean, resultSaveInvVariance):
    """Batch norm forward with the batch statistics: y = alpha * (bnScale * (x - mean) /
    sqrt(var + epsilon) + bnBias) + beta * y, mean and (biased) var over N,H,W per channel
    (spatial) or over N per element (per activation).

    resultRunningMean / resultRunningVariance (both or None) are updated in place:
    running = (1 - expAvgFactor) * running + expAvgFactor * batch statistic, the variance
    unbiased. resultSaveMean / resultSaveInvVariance (both or None) receive the mean and
    1 / sqrt(var + epsilon) for the backward pass. Returns None; outputs are written in place.
    C: miopenBatchNormalizationForwardTraining"""
    api = "miopenBatchNormalizationForwardTraining"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenBatchNormMode_t mode = <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode")
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(xDesc)
    cdef void* pa = <void*>c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef void* pb = <void*>c_scalar_ptr(&s2, beta, "beta", dt)
    cdef double f = c_double(expAvgFactor, "expAvgFactor")
    cdef double eps = c_double(epsilon, "epsilon")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t bd = c_tensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc")
    pd = bnScaleBiasMeanVarDesc
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pscale = c_data(bnScale, "bnScale", api, handle, pd, False)
    cdef void* pbias = c_data(bnBias, "bnBias", api, handle, pd, False)
    cdef void* prm = c_data(resultRunningMean, "resultRunningMean", api, handle, pd, True)
    cdef void* prv = c_data(resultRunningVariance, "resultRunningVariance", api, handle, pd, True)
    cdef void* psm = c_data(resultSaveMean, "resultSaveMean", api, handle, pd, True)
    cdef void* psv = c_data(resultSaveInvVariance, "resultSaveInvVariance", api, handle, pd, True)
    with nogil:
        check_status(miopenBatchNormalizationForwardTraining(
            h, mode, pa, pb, xd, px, yd, py, bd, pscale, pbias, f, prm, prv, eps, psm, psv))


def batchNormalizationForwardInference(Handle handle, bn_mode, alpha, beta,
                                       TensorDescriptor xDesc, x, TensorDescriptor yDesc, y,
                                       TensorDescriptor bnScaleBiasMeanVarDesc, bnScale, bnBias,
                                       estimatedMean, estimatedVariance, epsilon):
    """Batch norm forward with given statistics: y = alpha * (bnScale * (x - estimatedMean) /
    sqrt(estimatedVariance + epsilon) + bnBias) + beta * y.

    When estimatedMean or estimatedVariance is None the batch statistics are used instead (as
    MIOpen does). Returns None; y is written in place.
    C: miopenBatchNormalizationForwardInference"""
    api = "miopenBatchNormalizationForwardInference"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenBatchNormMode_t mode = <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode")
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(xDesc)
    cdef void* pa = <void*>c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef void* pb = <void*>c_scalar_ptr(&s2, beta, "beta", dt)
    cdef double eps = c_double(epsilon, "epsilon")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t bd = c_tensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVarDesc")
    pd = bnScaleBiasMeanVarDesc
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pscale = c_data(bnScale, "bnScale", api, handle, pd, False)
    cdef void* pbias = c_data(bnBias, "bnBias", api, handle, pd, False)
    cdef void* pm = c_data(estimatedMean, "estimatedMean", api, handle, pd, False)
    cdef void* pv = c_data(estimatedVariance, "estimatedVariance", api, handle, pd, False)
    with nogil:
        check_status(miopenBatchNormalizationForwardInference(
            h, mode, pa, pb, xd, px, yd, py, bd, pscale, pbias, pm, pv, eps))


def batchNormalizationBackward(Handle handle, bn_mode, alphaDataDiff, betaDataDiff,
                               alphaParamDiff, betaParamDiff, TensorDescriptor xDesc, x,
                               TensorDescriptor dyDesc, dy, TensorDescriptor dxDesc, dx,
                               TensorDescriptor bnScaleBiasDiffDesc, bnScale, resultBnScaleDiff,
                               resultBnBiasDiff, epsilon, savedMean, savedInvVariance):
    """Batch norm backward: dx = alphaDataDiff * dL/dx + betaDataDiff * dx, and
    resultBnScaleDiff / resultBnBiasDiff likewise with alphaParamDiff / betaParamDiff.

    Uses savedMean and savedInvVariance (1 / sqrt(var + epsilon)) from the forward pass when
    both are given, else recomputes them from x. Returns None; outputs are written in place.
    C: miopenBatchNormalizationBackward"""
    api = "miopenBatchNormalizationBackward"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenBatchNormMode_t mode = <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode")
    cdef c_scalar s1, s2, s3, s4
    cdef miopenDataType_t dt = c_dtype(xDesc)
    cdef const void* pad = c_scalar_ptr(&s1, alphaDataDiff, "alphaDataDiff", dt)
    cdef const void* pbd = c_scalar_ptr(&s2, betaDataDiff, "betaDataDiff", dt)
    cdef const void* pap = c_scalar_ptr(&s3, alphaParamDiff, "alphaParamDiff", dt)
    cdef const void* pbp = c_scalar_ptr(&s4, betaParamDiff, "betaParamDiff", dt)
    cdef double eps = c_double(epsilon, "epsilon")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef miopenTensorDescriptor_t bd = c_tensor(bnScaleBiasDiffDesc, "bnScaleBiasDiffDesc")
    pd = bnScaleBiasDiffDesc
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    cdef const void* pscale = c_data(bnScale, "bnScale", api, handle, pd, False)
    cdef void* pds = c_data(resultBnScaleDiff, "resultBnScaleDiff", api, handle, pd, True)
    cdef void* pdb = c_data(resultBnBiasDiff, "resultBnBiasDiff", api, handle, pd, True)
    cdef const void* psm = c_data(savedMean, "savedMean", api, handle, pd, False)
    cdef const void* psv = c_data(savedInvVariance, "savedInvVariance", api, handle, pd, False)
    with nogil:
        check_status(miopenBatchNormalizationBackward(
            h, mode, pad, pbd, pap, pbp, xd, px, dyd, pdy, dxd, pdx, bd, pscale, pds, pdb, eps,
            psm, psv))


def batchNormalizationForwardTraining_V2(Handle handle, bn_mode, alpha, beta,
                                         TensorDescriptor xDesc, x, TensorDescriptor yDesc, y,
                                         TensorDescriptor scaleDesc, TensorDescriptor biasVarDesc,
                                         TensorDescriptor savedMeanDesc,
                                         TensorDescriptor savedVarDesc, bnScale, bnBias,
                                         expAvgFactor, resultRunningMean, resultRunningVariance,
                                         epsilon, resultSaveMean, resultSaveInvVariance):
    """batchNormalizationForwardTraining with a descriptor per parameter tensor: scaleDesc for
    bnScale, biasVarDesc for bnBias, savedMeanDesc for the running and saved means, savedVarDesc
    for the running variance and the saved inverse variance (each fp32 or x's type).
    C: miopenBatchNormalizationForwardTraining_V2"""
    api = "miopenBatchNormalizationForwardTraining_V2"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenBatchNormMode_t mode = <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode")
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(xDesc)
    cdef void* pa = <void*>c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef void* pb = <void*>c_scalar_ptr(&s2, beta, "beta", dt)
    cdef double f = c_double(expAvgFactor, "expAvgFactor")
    cdef double eps = c_double(epsilon, "epsilon")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t sd = c_tensor(scaleDesc, "scaleDesc")
    cdef miopenTensorDescriptor_t bd = c_tensor(biasVarDesc, "biasVarDesc")
    cdef miopenTensorDescriptor_t md = c_tensor(savedMeanDesc, "savedMeanDesc")
    cdef miopenTensorDescriptor_t vd = c_tensor(savedVarDesc, "savedVarDesc")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pscale = c_data(bnScale, "bnScale", api, handle, scaleDesc, False)
    cdef void* pbias = c_data(bnBias, "bnBias", api, handle, biasVarDesc, False)
    cdef void* prm = c_data(resultRunningMean, "resultRunningMean", api, handle, savedMeanDesc,
                            True)
    cdef void* prv = c_data(resultRunningVariance, "resultRunningVariance", api, handle,
                            savedVarDesc, True)
    cdef void* psm = c_data(resultSaveMean, "resultSaveMean", api, handle, savedMeanDesc, True)
    cdef void* psv = c_data(resultSaveInvVariance, "resultSaveInvVariance", api, handle,
                            savedVarDesc, True)
    with nogil:
        check_status(miopenBatchNormalizationForwardTraining_V2(
            h, mode, pa, pb, xd, px, yd, py, sd, bd, md, vd, pscale, pbias, f, prm, prv, eps,
            psm, psv))


def batchNormalizationForwardInference_V2(Handle handle, bn_mode, alpha, beta,
                                          TensorDescriptor xDesc, x, TensorDescriptor yDesc, y,
                                          TensorDescriptor scaleDesc, TensorDescriptor biasDesc,
                                          TensorDescriptor estMeanDesc,
                                          TensorDescriptor estVarianceDesc, bnScale, bnBias,
                                          estimatedMean, estimatedVariance, epsilon):
    """batchNormalizationForwardInference with a descriptor per parameter tensor (each fp32 or
    x's type).  C: miopenBatchNormalizationForwardInference_V2"""
    api = "miopenBatchNormalizationForwardInference_V2"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenBatchNormMode_t mode = <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode")
    cdef c_scalar s1, s2
    cdef miopenDataType_t dt = c_dtype(xDesc)
    cdef void* pa = <void*>c_scalar_ptr(&s1, alpha, "alpha", dt)
    cdef void* pb = <void*>c_scalar_ptr(&s2, beta, "beta", dt)
    cdef double eps = c_double(epsilon, "epsilon")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t yd = c_tensor(yDesc, "yDesc")
    cdef miopenTensorDescriptor_t sd = c_tensor(scaleDesc, "scaleDesc")
    cdef miopenTensorDescriptor_t bd = c_tensor(biasDesc, "biasDesc")
    cdef miopenTensorDescriptor_t md = c_tensor(estMeanDesc, "estMeanDesc")
    cdef miopenTensorDescriptor_t vd = c_tensor(estVarianceDesc, "estVarianceDesc")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef void* py = c_data(y, "y", api, handle, yDesc, True)
    cdef void* pscale = c_data(bnScale, "bnScale", api, handle, scaleDesc, False)
    cdef void* pbias = c_data(bnBias, "bnBias", api, handle, biasDesc, False)
    cdef void* pm = c_data(estimatedMean, "estimatedMean", api, handle, estMeanDesc, False)
    cdef void* pv = c_data(estimatedVariance, "estimatedVariance", api, handle, estVarianceDesc,
                           False)
    with nogil:
        check_status(miopenBatchNormalizationForwardInference_V2(
            h, mode, pa, pb, xd, px, yd, py, sd, bd, md, vd, pscale, pbias, pm, pv, eps))


def batchNormalizationBackward_V2(Handle handle, bn_mode, alphaDataDiff, betaDataDiff,
                                  alphaParamDiff, betaParamDiff, TensorDescriptor xDesc, x,
                                  TensorDescriptor dyDesc, dy, TensorDescriptor dxDesc, dx,
                                  TensorDescriptor scaleDesc, TensorDescriptor biasDesc,
                                  TensorDescriptor savedMeanDesc, TensorDescriptor savedVarDesc,
                                  bnScale, resultBnScaleDiff, resultBnBiasDiff, epsilon,
                                  savedMean, savedInvVariance):
    """batchNormalizationBackward with a descriptor per parameter tensor: scaleDesc for bnScale
    and resultBnScaleDiff, biasDesc for resultBnBiasDiff, savedMeanDesc / savedVarDesc for the
    saved statistics (each fp32 or x's type).  C: miopenBatchNormalizationBackward_V2"""
    api = "miopenBatchNormalizationBackward_V2"
    cdef miopenHandle_t h = c_handle(handle)
    cdef miopenBatchNormMode_t mode = <miopenBatchNormMode_t>c_int(bn_mode, "bn_mode")
    cdef c_scalar s1, s2, s3, s4
    cdef miopenDataType_t dt = c_dtype(xDesc)
    cdef const void* pad = c_scalar_ptr(&s1, alphaDataDiff, "alphaDataDiff", dt)
    cdef const void* pbd = c_scalar_ptr(&s2, betaDataDiff, "betaDataDiff", dt)
    cdef const void* pap = c_scalar_ptr(&s3, alphaParamDiff, "alphaParamDiff", dt)
    cdef const void* pbp = c_scalar_ptr(&s4, betaParamDiff, "betaParamDiff", dt)
    cdef double eps = c_double(epsilon, "epsilon")
    cdef miopenTensorDescriptor_t xd = c_tensor(xDesc, "xDesc")
    cdef miopenTensorDescriptor_t dyd = c_tensor(dyDesc, "dyDesc")
    cdef miopenTensorDescriptor_t dxd = c_tensor(dxDesc, "dxDesc")
    cdef miopenTensorDescriptor_t sd = c_tensor(scaleDesc, "scaleDesc")
    cdef miopenTensorDescriptor_t bd = c_tensor(biasDesc, "biasDesc")
    cdef miopenTensorDescriptor_t md = c_tensor(savedMeanDesc, "savedMeanDesc")
    cdef miopenTensorDescriptor_t vd = c_tensor(savedVarDesc, "savedVarDesc")
    cdef const void* px = c_data(x, "x", api, handle, xDesc, False)
    cdef const void* pdy = c_data(dy, "dy", api, handle, dyDesc, False)
    cdef void* pdx = c_data(dx, "dx", api, handle, dxDesc, True)
    cdef const void* pscale = c_data(bnScale, "bnScale", api, handle, scaleDesc, False)
    cdef void* pds = c_data(resultBnScaleDiff, "resultBnScaleDiff", api, handle, scaleDesc, True)
    cdef void* pdb = c_data(resultBnBiasDiff, "resultBnBiasDiff", api, handle, biasDesc, True)
    cdef const void* psm = c_data(savedMean, "savedMean", api, handle, savedMeanDesc, False)
    cdef const void* psv = c_data(savedInvVariance, "savedInvVariance", api, handle,
                                  savedVarDesc, False)
    with nogil:
        check_status(miopenBatchNormalizationBackward_V2(
            h, mode, pad, pbd, pap, pbp, xd, px, dyd, pdy, dxd, pdx, sd, bd, md, vd, pscale,
            pds, pdb, eps, psm, psv))
