// Bias front doors. Forward is MIOpen's own definition, OpTensor Add with y as A and C:
// y = alpha * y + alpha * b + beta * y, so y is always read (it is an input as well as the output).
// MIOpen accepts only alpha = 1, beta = 0 for the backward pass; we blend for any values.
#include "bias/bias.hpp"
#include "core/api.hpp"
#include "gpu/runtime.hpp"
#include "tensor/tensor_ops.hpp"

#include <sstream>
#include <vector>

namespace miopen {
namespace {

/// The bias tensor of y: 1xCx1x1 (1xCx1x1x1), same type as y.
void CheckBiasDesc(const TensorDescriptor& bDesc, const char* b_name,
                   const TensorDescriptor& yDesc, const char* y_name)
{
    CheckNumDims(yDesc, y_name, 4, 5);
    std::vector<size_t> expect(yDesc.NumDims(), 1);
    expect[1] = yDesc.Lens()[1];
    if(bDesc.Lens() != expect)
    {
        std::ostringstream want;
        for(size_t i = 0; i < expect.size(); ++i)
            want << (i ? ", " : "(") << expect[i];
        want << ")";
        ThrowBadParm(b_name, " is ", bDesc.ToString(), "; expected lengths ", want.str(),
                     " for ", y_name, " ", yDesc.ToString());
    }
    CheckSameType(bDesc, b_name, yDesc, y_name);
    CheckComputeType(yDesc, y_name);
}

} // namespace

void ConvolutionForwardBias(Handle& handle,
                            const void* alpha,
                            const TensorDescriptor& bDesc,
                            const void* b,
                            const void* beta,
                            const TensorDescriptor& yDesc,
                            void* y)
{
    CheckBiasDesc(bDesc, "bDesc", yDesc, "yDesc");
    CheckData(b, "b");
    CheckData(y, "y");
    const float a  = static_cast<float>(ReadScalar(alpha, yDesc.Type(), "alpha"));
    const float bt = static_cast<float>(ReadScalar(beta, yDesc.Type(), "beta"));
    std::vector<size_t> b_strides(yDesc.NumDims(), 0);
    b_strides[1] = bDesc.Strides()[1];
    KernelTimer timer(handle);
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
        return gpu::ConvolutionForwardBias(handle, a, bDesc, static_cast<const float*>(b), bt,
                                           yDesc, static_cast<float*>(y));
#endif
    cpu::OpTensor(miopenTensorOpAdd, a, yDesc, static_cast<const float*>(y), a, b_strides.data(),
                  static_cast<const float*>(b), bt, yDesc, static_cast<float*>(y));
}

void ConvolutionBackwardBias(Handle& handle,
                             const void* alpha,
                             const TensorDescriptor& dyDesc,
                             const void* dy,
                             const void* beta,
                             const TensorDescriptor& dbDesc,
                             void* db)
{
    CheckBiasDesc(dbDesc, "dbDesc", dyDesc, "dyDesc");
    CheckData(dy, "dy");
    CheckData(db, "db");
    const float a  = static_cast<float>(ReadScalar(alpha, dyDesc.Type(), "alpha"));
    const float bt = static_cast<float>(ReadScalar(beta, dyDesc.Type(), "beta"));
    KernelTimer timer(handle);
#if MIOPEN_CY_HAVE_GPU
    if(handle.IsGpu())
        return gpu::ConvolutionBackwardBias(handle, a, dyDesc, static_cast<const float*>(dy), bt,
                                            dbDesc, static_cast<float*>(db));
#endif
    cpu::ConvolutionBackwardBias(a, dyDesc, static_cast<const float*>(dy), bt, dbDesc,
                                 static_cast<float*>(db));
}

} // namespace miopen
