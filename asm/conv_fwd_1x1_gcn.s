// conv_fwd_1x1_gcn: direct forward convolution, 1x1 filter, stride 1 or 2 (the same in both
// dimensions), pad 0, dilation 1, fp32, packed NCHW (x_nchw, w_kc11, y_nkhw;
// Ho = (H - 1) / stride + 1, Wo = (W - 1) / stride + 1). gfx906 / gfx908 / gfx90a, wave64.
// Solver: ConvAsm1x1U (hip/src/conv/solvers/conv_asm_1x1u.cpp).
//
// Kernel arguments (56 bytes; host mirror: hip/src/conv/solver_support/conv_asm_args.hpp, ConvAsm1x1Args)
//   offset  size  name
//        0     8  x_nchw    const float*, global
//        8     8  w_kcyx    const float*, global (K x C x 1 x 1)
//       16     8  y_nkhw    float*, global
//       24     4  in_n      u32, N
//       28     4  in_c      u32, C
//       32     4  in_h      u32, H
//       36     4  in_w      u32, W
//       40     4  out_k     u32, K
//       44     4  out_h     u32, Ho
//       48     4  out_w     u32, Wo
//       52     4  stride    u32, 1 or 2
// (The metadata names avoid bare y/n: LLVM's YAML reader takes them for booleans.)
//
// Launch: workgroup 256 x 1 x 1 (4 waves); grid of workgroups ceil(Wo/64) x ceil(Ho/4) x ceil(K/4).
// Initial register state
//   s[0:1]  kernarg segment pointer
//   s2      workgroup id x: 64-column tile      -> ow = 64 * s2 + lane
//   s3      workgroup id y: 4-row tile          -> oh = 4 * s3 + wave
//   s4      workgroup id z: block of 4 output channels k0 = 4 * s4 .. k0 + 3
//   v0      work-item id x (0..255): lane = v0 & 63, wave = v0 >> 6
//
// Each lane computes y[n, k0 .. k0+3, oh, ow] for every n: per input channel one vector load of
// x[n, c, oh * stride, ow * stride] (lanes outside the output masked off) and four scalar loads
// of w[k0 + j, c] (the channel indices clamped to K - 1; the clamped rows are never stored), then
// four FMAs. Outputs k >= K of the last block are skipped by a scalar branch.

.include "gcn_common.inc"

.set K_PER_GROUP, 4

.text
.globl conv_fwd_1x1_gcn
.p2align 8
.type conv_fwd_1x1_gcn,@function
conv_fwd_1x1_gcn:
  s_load_dwordx4 s[8:11], s[0:1], 0x0       // x, w
  s_load_dwordx2 s[12:13], s[0:1], 0x10     // y
  s_load_dwordx8 s[16:23], s[0:1], 0x18     // N, C, H, W, K, Ho, Wo, stride
  s_mov_b64 s[30:31], exec
  v_and_b32 v1, 63, v0                      // lane
  v_lshrrev_b32 v2, 6, v0                   // wave
  v_readfirstlane_b32 s24, v2
  s_lshl_b32 s25, s3, GCN_TILE_H_LOG2
  s_add_u32 s25, s25, s24                   // oh
  s_lshl_b32 s26, s2, GCN_TILE_W_LOG2
  v_add_u32 v3, s26, v1                     // ow
  s_waitcnt lgkmcnt(0)
  s_mul_i32 s27, s18, s19
  s_lshl_b32 s27, s27, 2                    // H*W*4: bytes per input channel plane
  s_mul_i32 s28, s21, s22                   // Ho*Wo
  // lanes with an output: oh < Ho (wave-uniform) and ow < Wo
  s_cmp_lt_u32 s25, s21
  s_cselect_b64 s[32:33], -1, 0
  v_cmp_gt_u32_e64 s[56:57], s22, v3
  s_and_b64 s[32:33], s[32:33], s[56:57]
  // weight rows: w + 4 * C * min(k0 + j, K - 1)
  s_lshl_b32 s34, s4, 2                     // k0
  s_sub_u32 s55, s20, 1                     // K - 1
  s_lshl_b32 s56, s17, 2                    // C * 4
  s_min_u32 s35, s34, s55
  s_mul_i32 s35, s35, s56
  s_add_u32 s40, s10, s35
  s_addc_u32 s41, s11, 0
  s_add_u32 s35, s34, 1
  s_min_u32 s35, s35, s55
  s_mul_i32 s35, s35, s56
  s_add_u32 s42, s10, s35
  s_addc_u32 s43, s11, 0
  s_add_u32 s35, s34, 2
  s_min_u32 s35, s35, s55
  s_mul_i32 s35, s35, s56
  s_add_u32 s44, s10, s35
  s_addc_u32 s45, s11, 0
  s_add_u32 s35, s34, 3
  s_min_u32 s35, s35, s55
  s_mul_i32 s35, s35, s56
  s_add_u32 s46, s10, s35
  s_addc_u32 s47, s11, 0
  // x offset of n = 0, c = 0: 4 * (oh * stride * W + ow * stride)
  s_mul_i32 s35, s25, s23
  s_mul_i32 s35, s35, s19
  v_mul_lo_u32 v11, v3, s23
  v_add_u32 v4, s35, v11
  v_lshlrev_b32 v4, 2, v4
  s_mov_b32 s48, 0                          // n
.L_batch:
  v_mov_b32 v6, 0                           // accumulators of k0 .. k0+3
  v_mov_b32 v7, 0
  v_mov_b32 v8, 0
  v_mov_b32 v9, 0
  s_mov_b32 s49, 0                          // c
  s_mov_b32 s50, 0                          // c * 4
.L_channel:
  s_load_dword s51, s[40:41], s50
  s_load_dword s52, s[42:43], s50
  s_load_dword s53, s[44:45], s50
  s_load_dword s54, s[46:47], s50
  v_mov_b32 v5, 0
  s_mov_b64 exec, s[32:33]
  global_load_dword v5, v4, s[8:9]
  s_mov_b64 exec, s[30:31]
  v_add_u32 v4, s27, v4                     // next channel plane
  s_add_u32 s49, s49, 1
  s_add_u32 s50, s50, 4
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_fmac_f32 v6, s51, v5
  v_fmac_f32 v7, s52, v5
  v_fmac_f32 v8, s53, v5
  v_fmac_f32 v9, s54, v5
  s_cmp_lt_u32 s49, s17
  s_cbranch_scc1 .L_channel
  // y[n, k0 + j, oh, ow]: 4 * ((n * K + k0 + j) * Ho * Wo + oh * Wo + ow), for k0 + j < K
  s_mul_i32 s55, s48, s20
  s_add_u32 s55, s55, s34
  s_mul_i32 s55, s55, s28
  s_mul_i32 s56, s25, s22
  s_add_u32 s55, s55, s56                   // element offset of (n, k0, oh, 0)
  s_mov_b32 s57, s34                        // k0 + j
  s_mov_b64 exec, s[32:33]
  v_add_u32 v10, s55, v3
  v_lshlrev_b32 v10, 2, v10
  global_store_dword v10, v6, s[12:13]
  s_add_u32 s57, s57, 1
  s_cmp_lt_u32 s57, s20
  s_cbranch_scc0 .L_stored
  s_add_u32 s55, s55, s28
  v_add_u32 v10, s55, v3
  v_lshlrev_b32 v10, 2, v10
  global_store_dword v10, v7, s[12:13]
  s_add_u32 s57, s57, 1
  s_cmp_lt_u32 s57, s20
  s_cbranch_scc0 .L_stored
  s_add_u32 s55, s55, s28
  v_add_u32 v10, s55, v3
  v_lshlrev_b32 v10, 2, v10
  global_store_dword v10, v8, s[12:13]
  s_add_u32 s57, s57, 1
  s_cmp_lt_u32 s57, s20
  s_cbranch_scc0 .L_stored
  s_add_u32 s55, s55, s28
  v_add_u32 v10, s55, v3
  v_lshlrev_b32 v10, 2, v10
  global_store_dword v10, v9, s[12:13]
.L_stored:
  s_mov_b64 exec, s[30:31]
  s_add_u32 s48, s48, 1
  s_cmp_lt_u32 s48, s16
  s_cbranch_scc1 .L_batch
  s_endpgm
.size conv_fwd_1x1_gcn, . - conv_fwd_1x1_gcn

.rodata
.p2align 6
gcn_kernel_descriptor conv_fwd_1x1_gcn, 12, 58, 0, 56

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: conv_fwd_1x1_gcn
    .symbol: conv_fwd_1x1_gcn.kd
    .language: "Assembler"
    .kernarg_segment_size: 56
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 60
    .vgpr_count: 12
    .max_flat_workgroup_size: 256
    .reqd_workgroup_size: [ 256, 1, 1 ]
    .args:
      - { .name: "x_nchw", .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: "w_kcyx", .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: "y_nkhw", .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global, .actual_access: write_only }
      - { .name: "in_n", .size: 4, .offset: 24, .value_kind: by_value }
      - { .name: "in_c", .size: 4, .offset: 28, .value_kind: by_value }
      - { .name: "in_h", .size: 4, .offset: 32, .value_kind: by_value }
      - { .name: "in_w", .size: 4, .offset: 36, .value_kind: by_value }
      - { .name: "out_k", .size: 4, .offset: 40, .value_kind: by_value }
      - { .name: "out_h", .size: 4, .offset: 44, .value_kind: by_value }
      - { .name: "out_w", .size: 4, .offset: 48, .value_kind: by_value }
      - { .name: "stride", .size: 4, .offset: 52, .value_kind: by_value }
...
.end_amdgpu_metadata
