// epilogue_pass: the fused epilogue of the fusion plans in one pass over y (epilogue_pass.hpp),
//   y = act(scale[c] * (alpha * in + alpha2 * z) + shift[c]),
// computed in fp32 and rounded once to the storage type, the activation through the functors of
// kernels/activation/activation_functors.hpp (the 16-bit types through their fast forms, FastF,
// as activation.hip's forward, through epilogue.hpp's EpilogueAct, as the convolution kernels'
// in-store epilogue), so that fused and unfused activations are one code.
// Packed operands move 16-byte vectors (4 fp32, 8 fp16 / bf16), kEpiUnroll of in (and of z) in
// flight a thread as raw bytes before the first is widened; a block takes a balanced chunk of
// one plane (NC[D]HW: one (n, c), whose scale and shift are read once, or folded by the block
// itself where the plan left the fold to the pass) or of the pixel rows (N[D]HWC: a
// vector's W channels consecutive, read once a thread where C / W divides the block). The other
// packed shapes take an element a thread (coalesced, 32-bit channel arithmetic), any other
// strides the general path. And the fold: scale and shift from the chain's device parameters.
#include "kernels/activation/activation_functors.hpp"
#include "kernels/common/device.hpp"
#include "kernels/common/epilogue.hpp"
#include "kernels/common/storage_types.hpp"
#include "kernels/fusion/epilogue_pass.hpp"

#include <miopen/miopen.h>

namespace miopen::gpu {
namespace {

__device__ inline double ParamAt(const EpilogueFoldStep& s, const void* p, int64_t c)
{
    const int64_t i = c * s.stride;
    switch(s.type)
    {
    case miopenHalf: return DeviceToFloat(static_cast<const Half*>(p)[i]);
    case miopenBFloat16: return DeviceToFloat(static_cast<const BFloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
    }
}

/// Channel c's scale and shift from the fold's steps: the CPU fold's arithmetic (fusion.cpp),
/// fp32 running values, each step in double. The fold kernel and the planes pass's inline fold.
__device__ inline void FoldChannel(const EpilogueFoldK& p, int64_t c, float& scale_out,
                                   float& shift_out)
{
    float scale = 1.0f, shift = 0.0f;
    for(int i = 0; i < p.nsteps; ++i)
    {
        const EpilogueFoldStep& s = p.steps[i];
        if(!s.batch_norm)
        {
            shift += static_cast<float>(ParamAt(s, s.bias, c));
            continue;
        }
        const double inv = 1.0 / sqrt(static_cast<double>(static_cast<float>(ParamAt(s, s.var, c))) +
                                      s.epsilon);
        const double sc  = static_cast<float>(ParamAt(s, s.scale, c)) * inv;
        const double b   = static_cast<float>(ParamAt(s, s.bias, c)) -
                         static_cast<float>(ParamAt(s, s.mean, c)) * sc;
        scale = static_cast<float>(scale * sc);
        shift = static_cast<float>(shift * sc + b);
    }
    scale_out = scale;
    shift_out = shift;
}

/// A 16-byte unit of T as loaded (raw, 4 registers), widened to fp32 only where it is used, so
/// that the units in flight hold 4 registers each, not 8 (16-bit data: as bn_infer_packed).
template <class T>
__device__ inline void Widen16(const uint4& q, float (&v)[kVecOf<T>])
{
    if constexpr(sizeof(T) == 4)
        v[0] = __uint_as_float(q.x), v[1] = __uint_as_float(q.y), v[2] = __uint_as_float(q.z),
        v[3] = __uint_as_float(q.w);
    else
        Unpack8<T>(q, v);
}

/// The vector paths (kEpiPlanes, kEpiPixels): W elements a vector, kEpiUnroll vectors a thread.
template <class T, bool Pixels, bool HasZ, class Op>
__global__ void __launch_bounds__(kEpiThreads) EpiloguePacked(EpiloguePassK p, Op op)
{
    constexpr int W = kVecOf<T>;
    constexpr int U = kEpiUnroll;
    const int64_t plane = blockIdx.x / p.chunks;
    const int64_t chunk = blockIdx.x - plane * p.chunks;
    const int64_t begin = chunk * p.chunk_q; // a multiple of cq (kEpiPixels)
    const int64_t end   = begin + p.chunk_q < p.plane_q ? begin + p.chunk_q : p.plane_q;
    const int64_t base  = plane * p.plane_q * W;
    const T* in         = static_cast<const T*>(p.in) + base;
    const T* z          = HasZ ? static_cast<const T*>(p.z) + base : nullptr;
    T* out              = static_cast<T*>(p.out) + base;
    // a thread's units: q0, q0 + kEpiThreads, ... (U of them a step); the first step's loads are
    // issued before the parameters are read or folded, so they are in flight meanwhile
    uint4 v[U], zv[U];
    auto load = [&](int64_t q0) {
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            const int64_t q = q0 + u * kEpiThreads;
            if(q >= end)
                continue;
            v[u] = *reinterpret_cast<const uint4*>(in + q * W);
            if(HasZ)
                zv[u] = *reinterpret_cast<const uint4*>(z + q * W);
        }
    };
    int64_t q0 = begin + threadIdx.x;
    load(q0);
    float s[W], b[W];
    __shared__ float folded[2];
    if(!Pixels)
    {
        const int64_t c = plane % p.channels;
        float sc, sh;
        if(p.fold_inline)
        {
            if(threadIdx.x == 0)
                FoldChannel(p.fold, c, folded[0], folded[1]);
            __syncthreads();
            sc = folded[0], sh = folded[1];
        }
        else
            sc = p.scale[c], sh = p.shift[c];
#pragma unroll
        for(int j = 0; j < W; ++j)
            s[j] = sc, b[j] = sh;
    }
    else if(p.fixed)
    {
        // the thread's vectors are begin + threadIdx.x + multiples of kEpiThreads, and cq
        // divides both begin and kEpiThreads
        const int64_t k = static_cast<int64_t>(threadIdx.x % static_cast<unsigned>(p.cq)) * W;
#pragma unroll
        for(int j = 0; j < W; ++j)
            s[j] = p.scale[k + j], b[j] = p.shift[k + j];
    }
    while(q0 < end)
    {
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            const int64_t q = q0 + u * kEpiThreads;
            if(q >= end)
                continue;
            if(Pixels && !p.fixed)
            {
                const int64_t k =
                    static_cast<int64_t>(static_cast<uint32_t>(q - begin) %
                                         static_cast<uint32_t>(p.cq)) * W;
#pragma unroll
                for(int j = 0; j < W; ++j)
                    s[j] = p.scale[k + j], b[j] = p.shift[k + j];
            }
            float r[W], vf[W], zf[W];
            Widen16<T>(v[u], vf);
            if(HasZ)
                Widen16<T>(zv[u], zf);
#pragma unroll
            for(int j = 0; j < W; ++j)
            {
                float t = p.alpha * vf[j];
                if(HasZ)
                    t = fmaf(p.alpha2, zf[j], t);
                r[j] = EpilogueAct<T>(op, fmaf(s[j], t, b[j]));
            }
            StoreVec<T, W>(out + q * W, r);
        }
        q0 += int64_t{kEpiThreads} * U;
        if(q0 < end)
            load(q0);
    }
}

/// kEpiScalar: packed, numel < 2^31, an element a thread (grid-stride).
template <class T, bool HasZ, class Op>
__global__ void __launch_bounds__(kEpiThreads) EpilogueScalar(EpiloguePassK p, Op op)
{
    const T* in = static_cast<const T*>(p.in);
    const T* z  = static_cast<const T*>(p.z);
    T* out      = static_cast<T*>(p.out);
    const uint32_t n     = static_cast<uint32_t>(p.numel);
    const uint32_t ch    = static_cast<uint32_t>(p.channels);
    const uint32_t inner = static_cast<uint32_t>(p.inner);
    for(uint32_t i = blockIdx.x * kEpiThreads + threadIdx.x; i < n; i += gridDim.x * kEpiThreads)
    {
        const uint32_t c = p.channels_last ? i % ch : (i / inner) % ch;
        float t = p.alpha * LoadFloat(in + i);
        if(HasZ)
            t = fmaf(p.alpha2, LoadFloat(z + i), t);
        StoreFloat(out + i, EpilogueAct<T>(op, fmaf(p.scale[c], t, p.shift[c])));
    }
}

/// kEpiGeneral: any strides, an element a thread (grid-stride), y's index decomposed.
template <class T, bool HasZ, class Op>
__global__ void __launch_bounds__(kEpiThreads) EpilogueGeneral(EpiloguePassK p, Op op)
{
    const T* in = static_cast<const T*>(p.in);
    const T* z  = static_cast<const T*>(p.z);
    T* out      = static_cast<T*>(p.out);
    for(int64_t i = int64_t{blockIdx.x} * kEpiThreads + threadIdx.x; i < p.numel;
        i += int64_t{gridDim.x} * kEpiThreads)
    {
        int64_t rest = i, oi = 0, oz = 0, oo = 0, c = 0;
        for(int d = p.ndim - 1; d >= 0; --d)
        {
            const int64_t len = p.lens[d];
            const int64_t idx = rest % len;
            rest /= len;
            oi += idx * p.in_s[d];
            oz += idx * p.z_s[d];
            oo += idx * p.out_s[d];
            if(d == 1)
                c = idx;
        }
        float t = p.alpha * LoadFloat(in + oi);
        if(HasZ)
            t = fmaf(p.alpha2, LoadFloat(z + oz), t);
        StoreFloat(out + oo, EpilogueAct<T>(op, fmaf(p.scale[c], t, p.shift[c])));
    }
}

template <class T, bool HasZ, class Op>
void LaunchPath(const EpiloguePassK& p, const Launch& l, const Op& op)
{
    switch(p.path)
    {
    case kEpiPlanes: MIOPEN_CY_LAUNCH((EpiloguePacked<T, false, HasZ, Op>), l, 0, p, op); break;
    case kEpiPixels: MIOPEN_CY_LAUNCH((EpiloguePacked<T, true, HasZ, Op>), l, 0, p, op); break;
    case kEpiScalar: MIOPEN_CY_LAUNCH((EpilogueScalar<T, HasZ, Op>), l, 0, p, op); break;
    default: MIOPEN_CY_LAUNCH((EpilogueGeneral<T, HasZ, Op>), l, 0, p, op); break;
    }
}

__global__ void EpilogueFold(EpilogueFoldK p)
{
    const int64_t c = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if(c >= p.k)
        return;
    FoldChannel(p, c, p.scale[c], p.shift[c]);
}

} // namespace

template <class T>
void LaunchEpiloguePass(const EpiloguePassK& p, const Launch& l, const ActivationMode& act)
{
    WithMode(act, [&](auto op) {
        if(p.z != nullptr)
            LaunchPath<T, true>(p, l, op);
        else
            LaunchPath<T, false>(p, l, op);
    });
}

void LaunchEpilogueFold(const EpilogueFoldK& p, const Launch& l)
{
    MIOPEN_CY_LAUNCH(EpilogueFold, l, 0, p);
}

template void LaunchEpiloguePass<float>(const EpiloguePassK&, const Launch&, const ActivationMode&);
template void LaunchEpiloguePass<Half>(const EpiloguePassK&, const Launch&, const ActivationMode&);
template void LaunchEpiloguePass<BFloat16>(const EpiloguePassK&, const Launch&,
                                           const ActivationMode&);

} // namespace miopen::gpu
