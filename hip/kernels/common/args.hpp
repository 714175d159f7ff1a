// Plain argument structs shared by the host launchers (*_launch.cpp, plain C++) and the kernels
// (*.hip): built on the host, passed to kernels by value. No device code and no vendor headers.
#pragma once

#include <cstdint>

namespace miopen::gpu {

/// Dims a strided space holds: a tensor's 8, collapsed.
constexpr int kMaxDims = 8;

/// N operands over one index space, dims outer to inner, lengths shared, strides (in elements)
/// per operand; a stride of 0 broadcasts. Built by Collapse (launch_common.hpp): dims of length 1
/// are gone and dims contiguous in every operand are merged, so a packed tensor is one dim.
template <int N>
struct StridedSpace
{
    int ndim      = 1;
    int64_t numel = 1;
    int64_t lens[kMaxDims]       = {};
    int64_t strides[N][kMaxDims] = {};
};

/// A grid or block shape without the vendor's dim3.
struct Dim3
{
    unsigned x = 1, y = 1, z = 1;
};

/// How a launcher runs a kernel: grid, block and the platform stream.
struct Launch
{
    Dim3 grid;
    Dim3 block;
    void* stream = nullptr;
};

} // namespace miopen::gpu

namespace miopen::gpu {

/// Threads of an element-wise block, float4s each thread keeps in flight, and the elements of a
/// row one block owns (elementwise.hpp).
constexpr int kMapThreads   = 256;
constexpr int kMapUnroll    = 4;
constexpr int64_t kMapChunk = 4096;

/// An element-wise op over NIn inputs and one output sharing an index space (elementwise.hpp):
/// operand k < NIn is in[k], operand NIn the output. The data operands (inputs k < NData and the
/// output) are of the storage type T (float, Half or BFloat16), the other inputs fp32 (batch
/// norm's per-group coefficients); arithmetic is fp32 and the output is rounded once. The rows
/// kernel gives each block `chunk` elements of one innermost row; the strided kernel one element
/// per thread.
template <int NIn, class T = float, int NData = NIn>
struct MapArgs
{
    static_assert(NData >= 0 && NData <= NIn, "MapArgs: NData of the NIn inputs are of type T");
    using type = T;
    static constexpr int kData = NData;
    StridedSpace<NIn + 1> s;
    const void* in[NIn > 0 ? NIn : 1] = {}; // const T* for k < NData, const float* beyond
    T* out = nullptr;
    float beta = 0.0f;             // out = f(in) + beta * out; out is not read when beta == 0
    int64_t chunk          = 0;    // rows kernel: elements of a row per block
    int64_t chunks_per_row = 0;
};

} // namespace miopen::gpu

namespace miopen::gpu {

/// Per-group reductions (batch norm statistics and gradients, the bias gradient): x's dims split
/// into group dims (C; or C, [D,] H, W per activation) and reduction dims (the rest). Groups are
/// numbered row-major over the group dims sorted outer to inner by x's stride; g has the group
/// dims for the K data operands and the parameter tensor (operand K), r the reduction dims for
/// the data operands. A block of gx x ry threads owns gx neighbouring groups and `chunk`
/// reduction elements of each (blockIdx.y picks the chunk); a thread walks its group's elements
/// ty, ty + ry, ... of the chunk. Row mode (gx = 1) when x's innermost dim is a reduction dim
/// (spatial NCHW), vec mode (gx > 1) when it is a group dim (per activation, NHWC).
template <int K>
struct GroupArgs
{
    StridedSpace<K + 1> g;
    StridedSpace<K> r;
    int64_t groups = 1;
    int64_t m      = 1;     // elements per group
    int64_t chunk  = 1;     // reduction elements per block
    int chunks     = 1;     // blocks along the reduction (grid.y)
    int gx = 1, ry = 256;   // block shape
};

/// Two double sums per (group, chunk), chunk-major within a group: partial[g * chunks + p].
struct Partial2
{
    double s1, s2;
};

/// Block shapes of the group reductions (gx * ry threads).
constexpr int kGroupThreads = 256;

} // namespace miopen::gpu
