// CPU kernel of the bias gradient: per-channel sums of dy in double, any strides. The forward
// bias is cpu::OpTensor (tensor ops), as in MIOpen.
//
// Channels-first layouts (the smallest stride of dy is not C's) are cut into unit-stride rows, each
// inside one channel, summed in memory order (one long stream per thread) into per-row partial
// sums; channels-last layouts add whole rows of channels into per-channel accumulators, chunk by
// chunk. Partial sums are added in a fixed order, so the result does not depend on the thread
// count. fp16 and bf16 are widened to fp32 as they are read (unit-stride runs converted a block at a
// time) and added in the same order; db is rounded once.
#include "bias/bias_args.hpp"
#include "cpu/elementwise.hpp"

#include <algorithm>
#include <array>
#include <type_traits>
#include <vector>

namespace miopen::cpu {
namespace {

constexpr size_t kMinItems    = 16;       // split large tensors into at least this many items
constexpr size_t kSplitMin    = 1 << 18;  // ... when they have at least this many elements
constexpr size_t kVecChunk    = 1 << 16;  // channels-last: elements per chunk
constexpr size_t kParallelMin = 32768;
constexpr size_t kPiece       = 1 << 15;  // channels-first: elements per work item (at most)
constexpr size_t kMinRow      = 64;       // shorter rows: walk channel by channel instead

/// The reduction space (every dim but C), outer to inner by dy's stride.
Loop<1> ReductionLoop(const TensorDescriptor& dyDesc)
{
    std::vector<int> dims;
    for(int d = 0; d < dyDesc.NumDims(); ++d)
        if(d != 1)
            dims.push_back(d);
    std::stable_sort(dims.begin(), dims.end(), [&](int a, int b) {
        return dyDesc.Strides()[a] > dyDesc.Strides()[b];
    });
    std::array<size_t, kMaxTensorDims> lens{}, strides{};
    for(size_t i = 0; i < dims.size(); ++i)
    {
        lens[i]    = dyDesc.Lens()[dims[i]];
        strides[i] = dyDesc.Strides()[dims[i]];
    }
    return MakeLoop<1>(static_cast<int>(dims.size()), lens.data(), {strides.data()});
}

size_t RowOffset(const Loop<1>& r, size_t row, int ndims)
{
    size_t off = 0;
    for(int d = ndims - 1; d >= 0; --d)
    {
        off += (row % r.lens[d]) * r.strides[0][d];
        row /= r.lens[d];
    }
    return off;
}

/// Sum of p[0 .. n): kLanes float partial sums over blocks of kBlock elements (16 adds per
/// lane), each block folded into kLanes double sums, added up in a fixed order at the end.
/// Independent lanes keep the adders busy, float blocks keep the instruction count low, the
/// double sums keep long rows accurate, and the fixed order keeps the result reproducible.
template <class T>
double SumUnit(const T* p_in, size_t n)
{
    constexpr size_t kLanes = 64;
    constexpr size_t kBlock = 1024;
    double dacc[kLanes] = {};
    const size_t n0 = n / kLanes * kLanes;
    alignas(64) float tmp[std::is_same_v<T, float> ? 1 : kBlock];
    for(size_t b = 0; b < n0; b += kBlock)
    {
        float acc[kLanes] = {};
        const size_t e = std::min(n0, b + kBlock);
        const float* p = Load(p_in + b, tmp, e - b); // p[i - b] is element i
        for(size_t i = 0; i < e - b; i += kLanes)
        {
#pragma omp simd
            for(size_t j = 0; j < kLanes; ++j)
                acc[j] += p[i + j];
        }
#pragma omp simd
        for(size_t j = 0; j < kLanes; ++j)
            dacc[j] += acc[j];
    }
    double s = 0.0;
    for(size_t j = 0; j < kLanes; ++j)
        s += dacc[j];
    for(size_t i = n0; i < n; ++i)
        s += ToFloat(p_in[i]);
    return s;
}

/// Sum of dy over reduction elements [e0, e1) of the channel starting at `base`.
template <class T>
double RowSum(const Loop<1>& r, const T* base, size_t e0, size_t e1)
{
    const int ri     = r.ndim - 1;
    const size_t len = r.lens[ri];
    const size_t st  = r.strides[0][ri];
    double s         = 0.0;
    for(size_t e = e0; e < e1;)
    {
        const size_t i  = e % len;
        const size_t n  = std::min(len - i, e1 - e);
        const T* p      = base + RowOffset(r, e / len, ri) + i * st;
        if(st == 1)
            s += SumUnit(p, n);
        else
        {
            for(size_t j = 0; j < n; ++j)
                s += ToFloat(p[j * st]);
        }
        e += n;
    }
    return s;
}

} // namespace

template <class T>
void ConvolutionBackwardBias(float alpha, const TensorDescriptor& dyDesc, const T* dy,
                             float beta, const TensorDescriptor& dbDesc, T* db)
{
    const size_t channels  = dyDesc.Lens()[1];
    const size_t c_stride  = dyDesc.Strides()[1];
    const size_t db_stride = dbDesc.Strides()[1];
    const Loop<1> r        = ReductionLoop(dyDesc);
    size_t m               = 1;
    for(int d = 0; d < r.ndim; ++d)
        m *= r.lens[d];
    const size_t total    = m * channels;
    const bool parallel   = total >= kParallelMin;
    const int ri          = r.ndim - 1;
    const bool channels_last =
        channels > 1 && (m == 1 || c_stride < r.strides[0][ri]);

    // All dims outer to inner by dy's stride, with each row's channel as a second "operand".
    std::array<int, kMaxTensorDims> order{};
    for(int d = 0; d < dyDesc.NumDims(); ++d)
        order[d] = d;
    std::stable_sort(order.begin(), order.begin() + dyDesc.NumDims(), [&](int p, int q) {
        return dyDesc.Strides()[p] > dyDesc.Strides()[q];
    });
    std::array<size_t, kMaxTensorDims> lens{}, ds{}, cs{};
    for(int i = 0; i < dyDesc.NumDims(); ++i)
    {
        lens[i] = dyDesc.Lens()[order[i]];
        ds[i]   = dyDesc.Strides()[order[i]];
        cs[i]   = order[i] == 1 ? 1 : 0;
    }
    const Loop<2> all = MakeLoop<2>(dyDesc.NumDims(), lens.data(), {ds.data(), cs.data()});
    const int ai      = all.ndim - 1;
    const size_t len  = all.lens[ai];

    std::vector<double> sums(channels, 0.0);
    if(!channels_last && len >= kMinRow && all.strides[1][ai] == 0)
    {
        size_t rows = 1;
        for(int d = 0; d < ai; ++d)
            rows *= all.lens[d];
        const size_t pieces = (len + kPiece - 1) / kPiece;
        const size_t piece  = (len + pieces - 1) / pieces;
        const size_t items  = rows * pieces;
        const size_t st     = all.strides[0][ai];
        std::vector<double> part(items);
        std::vector<size_t> channel(rows);
#pragma omp parallel for schedule(static) if(parallel)
        for(long long item = 0; item < static_cast<long long>(items); ++item)
        {
            const size_t row = static_cast<size_t>(item) / pieces;
            const size_t i0  = static_cast<size_t>(item) % pieces * piece;
            const size_t n   = std::min(piece, len - i0);
            size_t off = 0, ch = 0, r = row;
            for(int d = ai - 1; d >= 0; --d)
            {
                const size_t i = r % all.lens[d];
                r /= all.lens[d];
                off += i * all.strides[0][d];
                ch += i * all.strides[1][d];
            }
            const T* p = dy + off + i0 * st;
            if(st == 1)
                part[item] = SumUnit(p, n);
            else
            {
                double s = 0.0;
                for(size_t j = 0; j < n; ++j)
                    s += ToFloat(p[j * st]);
                part[item] = s;
            }
            if(i0 == 0)
                channel[row] = ch;
        }
        for(size_t item = 0; item < items; ++item)
            sums[channel[item / pieces]] += part[item];
    }
    else if(!channels_last)
    {
        size_t chunks = 1;
        if(total >= kSplitMin && channels < kMinItems)
            chunks = std::min(m, (kMinItems + channels - 1) / channels);
        const size_t chunk = (m + chunks - 1) / chunks;
        chunks             = (m + chunk - 1) / chunk;
        std::vector<double> part(channels * chunks);
#pragma omp parallel for schedule(static) if(parallel)
        for(long long item = 0; item < static_cast<long long>(channels * chunks); ++item)
        {
            const size_t c = static_cast<size_t>(item) / chunks;
            const size_t k = static_cast<size_t>(item) % chunks;
            part[item]     = RowSum(r, dy + c * c_stride, k * chunk, std::min(m, (k + 1) * chunk));
        }
        for(size_t c = 0; c < channels; ++c)
            for(size_t k = 0; k < chunks; ++k)
                sums[c] += part[c * chunks + k];
    }
    else
    {
        // Each reduction point holds a run of `channels` values c_stride apart.
        const size_t points = std::max<size_t>(1, kVecChunk / channels);
        const size_t chunks = (m + points - 1) / points;
        std::vector<double> part(chunks * channels, 0.0);
#pragma omp parallel for schedule(static) if(parallel)
        for(long long k = 0; k < static_cast<long long>(chunks); ++k)
        {
            double* acc     = part.data() + static_cast<size_t>(k) * channels;
            const size_t p0 = static_cast<size_t>(k) * points;
            const size_t p1 = std::min(m, p0 + points);
            std::vector<float> tmp(std::is_same_v<T, float> ? 0 : channels);
            for(size_t p = p0; p < p1; ++p)
            {
                const T* row_in = dy + RowOffset(r, p, r.ndim);
                if(c_stride == 1)
                {
                    const float* row = Load(row_in, tmp.data(), channels);
#pragma omp simd
                    for(size_t c = 0; c < channels; ++c)
                        acc[c] += row[c];
                }
                else
                {
                    for(size_t c = 0; c < channels; ++c)
                        acc[c] += ToFloat(row_in[c * c_stride]);
                }
            }
        }
        for(size_t k = 0; k < chunks; ++k)
            for(size_t c = 0; c < channels; ++c)
                sums[c] += part[k * channels + c];
    }
    for(size_t c = 0; c < channels; ++c)
    {
        T& out        = db[c * db_stride];
        const float v = static_cast<float>(sums[c]);
        out = FloatTo<T>(beta == 0.0f ? alpha * v : alpha * v + beta * ToFloat(out));
    }
}

template void ConvolutionBackwardBias<float>(float, const TensorDescriptor&, const float*, float,
                                             const TensorDescriptor&, float*);
template void ConvolutionBackwardBias<Half>(float, const TensorDescriptor&, const Half*, float,
                                            const TensorDescriptor&, Half*);
template void ConvolutionBackwardBias<BFloat16>(float, const TensorDescriptor&, const BFloat16*,
                                                float, const TensorDescriptor&, BFloat16*);

} // namespace miopen::cpu
