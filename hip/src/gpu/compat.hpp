// The one compat header between HIP and CUDA. Kernels and the runtime wrapper are written with
// HIP's names; on AMD they are HIP itself, on NVIDIA this header maps the few that differ onto
// the CUDA runtime, so no HIP installation is needed there. Device helpers for what is spelled
// differently in device code (warp shuffles) live at the end; the warp size is never assumed:
// kernels use the built-in warpSize, and kMaxWarpSize only bounds shared-memory arrays.
#pragma once

#if defined(MIOPEN_CY_HAVE_HIP)

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#else
#include <hip/hip_runtime_api.h>
#endif
#define MIOPEN_CY_GPU_RUNTIME_NAME "HIP"
#define MIOPEN_CY_DLPACK_DEVICE_TYPE 10 // kDLROCM
/// Prefix of the runtime's function names, for error messages: "hip" "Malloc".
#define MIOPEN_CY_RT "hip"
/// Whether pointer attributes describe device (or managed) memory: ROCm 6 renamed memoryType to
/// type and added hipMemoryTypeManaged; ROCm 5 flags managed memory with isManaged.
/// MIOPEN_CY_POINTER_IS_MANAGED: managed memory; MIOPEN_CY_POINTER_IS_HOST: host memory known to
/// the runtime (pinned or registered), which the GPU reads through its device pointer.
#if defined(HIP_VERSION_MAJOR) && HIP_VERSION_MAJOR >= 6
#define MIOPEN_CY_POINTER_IS_DEVICE(attr) \
    ((attr).type == hipMemoryTypeDevice || (attr).type == hipMemoryTypeManaged)
#define MIOPEN_CY_POINTER_IS_MANAGED(attr) ((attr).type == hipMemoryTypeManaged)
#define MIOPEN_CY_POINTER_IS_HOST(attr) ((attr).type == hipMemoryTypeHost)
#else
#define MIOPEN_CY_POINTER_IS_DEVICE(attr) \
    ((attr).memoryType == hipMemoryTypeDevice || (attr).isManaged)
#define MIOPEN_CY_POINTER_IS_MANAGED(attr) ((attr).isManaged)
#define MIOPEN_CY_POINTER_IS_HOST(attr) ((attr).memoryType == hipMemoryTypeHost)
#endif

#elif defined(MIOPEN_CY_HAVE_CUDA)

#include <cuda_runtime.h>
#define MIOPEN_CY_GPU_RUNTIME_NAME "CUDA"
#define MIOPEN_CY_DLPACK_DEVICE_TYPE 2 // kDLCUDA
#define MIOPEN_CY_RT "cuda"

using hipError_t             = cudaError_t;
using hipStream_t            = cudaStream_t;
using hipEvent_t             = cudaEvent_t;
using hipDeviceProp_t        = cudaDeviceProp;
using hipPointerAttribute_t  = cudaPointerAttributes;
#define MIOPEN_CY_POINTER_IS_DEVICE(attr) \
    ((attr).type == cudaMemoryTypeDevice || (attr).type == cudaMemoryTypeManaged)
#define MIOPEN_CY_POINTER_IS_MANAGED(attr) ((attr).type == cudaMemoryTypeManaged)
#define MIOPEN_CY_POINTER_IS_HOST(attr) ((attr).type == cudaMemoryTypeHost)

#define hipSuccess                   cudaSuccess
#define hipErrorMemoryAllocation     cudaErrorMemoryAllocation
#define hipErrorNoDevice             cudaErrorNoDevice
#define hipMemcpyDefault             cudaMemcpyDefault
#define hipEventDisableTiming        cudaEventDisableTiming
#define hipEventDefault              cudaEventDefault

#define hipGetErrorString            cudaGetErrorString
#define hipGetErrorName              cudaGetErrorName
#define hipGetLastError              cudaGetLastError
#define hipPeekAtLastError           cudaPeekAtLastError
#define hipGetDeviceCount            cudaGetDeviceCount
#define hipGetDevice                 cudaGetDevice
#define hipSetDevice                 cudaSetDevice
#define hipGetDeviceProperties       cudaGetDeviceProperties
#define hipDeviceGetAttribute        cudaDeviceGetAttribute
#define hipDeviceAttributePageableMemoryAccess cudaDevAttrPageableMemoryAccess
#define hipDriverGetVersion          cudaDriverGetVersion
#define hipMalloc                    cudaMalloc
#define hipFree                      cudaFree
#define hipMemcpy                    cudaMemcpy
#define hipMemcpyAsync               cudaMemcpyAsync
#define hipMemsetAsync               cudaMemsetAsync
#define hipPointerGetAttributes      cudaPointerGetAttributes
#define hipStreamSynchronize         cudaStreamSynchronize
#define hipStreamWaitEvent           cudaStreamWaitEvent
#define hipEventCreateWithFlags      cudaEventCreateWithFlags
#define hipEventDestroy              cudaEventDestroy
#define hipEventRecord               cudaEventRecord
#define hipEventSynchronize          cudaEventSynchronize
#define hipEventElapsedTime          cudaEventElapsedTime

#else
#error "compat.hpp is for GPU builds: define MIOPEN_CY_HAVE_CUDA or MIOPEN_CY_HAVE_HIP"
#endif

namespace miopen::gpu {
/// The largest warp (wavefront) of any supported GPU: sizes shared-memory arrays of per-warp
/// values. The actual width is the built-in warpSize (32 on NVIDIA, 64 on AMD gfx9).
constexpr int kMaxWarpSize = 64;
/// Per-warp arrays of a block of up to 1024 threads on the narrowest warp.
constexpr int kMaxWarpsPerBlock = 1024 / 32;
} // namespace miopen::gpu

#if defined(__CUDACC__) || defined(__HIPCC__)
namespace miopen::gpu {

/// v from the lane `lane_mask` XOR this lane, across the whole warp (every lane must call it).
template <class T>
__device__ inline T WarpXor(T v, int lane_mask)
{
#if defined(MIOPEN_CY_HAVE_CUDA)
    return __shfl_xor_sync(0xffffffffu, v, lane_mask);
#else
    return __shfl_xor(v, lane_mask);
#endif
}

} // namespace miopen::gpu
#endif
