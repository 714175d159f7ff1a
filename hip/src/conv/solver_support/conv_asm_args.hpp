// Host mirrors of the kernel arguments of the GCN assembly kernels (asm/conv_fwd_3x3_gcn.s,
// asm/conv_fwd_1x1_gcn.s). The byte layout is the one each .s file documents at its top and
// declares in its .amdgpu_metadata (.kernarg_segment_size, .args offsets): every offset and the
// size are asserted here, and tests/gcn/test_gcn_code_objects.py checks these asserts against the
// assembled code objects' metadata.
#pragma once

#include <cstddef>
#include <cstdint>

namespace miopen::solvers {

struct ConvAsm3x3Args
{
    const void* x_nchw;   // 0
    const void* w_kcyx;   // 8
    void* y_nkhw;         // 16
    uint32_t in_n;        // 24
    uint32_t in_c;        // 28
    uint32_t in_h;        // 32
    uint32_t in_w;        // 36
    uint32_t out_k;       // 40
    uint32_t reserved;    // 44
};
static_assert(offsetof(ConvAsm3x3Args, x_nchw) == 0);
static_assert(offsetof(ConvAsm3x3Args, w_kcyx) == 8);
static_assert(offsetof(ConvAsm3x3Args, y_nkhw) == 16);
static_assert(offsetof(ConvAsm3x3Args, in_n) == 24);
static_assert(offsetof(ConvAsm3x3Args, in_c) == 28);
static_assert(offsetof(ConvAsm3x3Args, in_h) == 32);
static_assert(offsetof(ConvAsm3x3Args, in_w) == 36);
static_assert(offsetof(ConvAsm3x3Args, out_k) == 40);
static_assert(offsetof(ConvAsm3x3Args, reserved) == 44);
static_assert(sizeof(ConvAsm3x3Args) == 48);

struct ConvAsm1x1Args
{
    const void* x_nchw;   // 0
    const void* w_kcyx;   // 8
    void* y_nkhw;         // 16
    uint32_t in_n;        // 24
    uint32_t in_c;        // 28
    uint32_t in_h;        // 32
    uint32_t in_w;        // 36
    uint32_t out_k;       // 40
    uint32_t out_h;       // 44
    uint32_t out_w;       // 48
    uint32_t stride;      // 52
};
static_assert(offsetof(ConvAsm1x1Args, x_nchw) == 0);
static_assert(offsetof(ConvAsm1x1Args, w_kcyx) == 8);
static_assert(offsetof(ConvAsm1x1Args, y_nkhw) == 16);
static_assert(offsetof(ConvAsm1x1Args, in_n) == 24);
static_assert(offsetof(ConvAsm1x1Args, in_c) == 28);
static_assert(offsetof(ConvAsm1x1Args, in_h) == 32);
static_assert(offsetof(ConvAsm1x1Args, in_w) == 36);
static_assert(offsetof(ConvAsm1x1Args, out_k) == 40);
static_assert(offsetof(ConvAsm1x1Args, out_h) == 44);
static_assert(offsetof(ConvAsm1x1Args, out_w) == 48);
static_assert(offsetof(ConvAsm1x1Args, stride) == 52);
static_assert(sizeof(ConvAsm1x1Args) == 56);

/// Launch shape shared by both kernels (asm/include/gcn_common.inc): 4 waves of 64 lanes; a
/// workgroup covers 4 output rows x 64 output columns.
inline constexpr unsigned kGcnGroupSize = 256;
inline constexpr unsigned kGcnTileW     = 64;
inline constexpr unsigned kGcnTileH     = 4;
/// conv_fwd_1x1_gcn: output channels per workgroup; conv_fwd_3x3_gcn: input channels per LDS chunk.
inline constexpr unsigned kGcn1x1KPerGroup = 4;
inline constexpr unsigned kGcn3x3CChunk    = 8;

} // namespace miopen::solvers
