// conv_fwd_3x3_gcn: direct forward convolution, 3x3 filter, stride 1, pad 1, dilation 1, fp32,
// packed NCHW (x_nchw, w_kcyx, y_nkhw; Ho = H, Wo = W). gfx906 / gfx908 / gfx90a, wave64.
// Solver: ConvAsm3x3U (hip/src/conv/solvers/conv_asm_3x3u.cpp).
//
// Kernel arguments (48 bytes; host mirror: hip/src/conv/solver_support/conv_asm_args.hpp, ConvAsm3x3Args)
//   offset  size  name
//        0     8  x_nchw    const float*, global
//        8     8  w_kcyx    const float*, global
//       16     8  y_nkhw    float*, global
//       24     4  in_n      u32, N
//       28     4  in_c      u32, C
//       32     4  in_h      u32, H
//       36     4  in_w      u32, W
//       40     4  out_k     u32, K
//       44     4  reserved  u32, 0
// (The metadata names avoid bare y/n: LLVM's YAML reader takes them for booleans.)
//
// Launch: workgroup 256 x 1 x 1 (4 waves); grid of workgroups ceil(W/64) x ceil(H/4) x K.
// Initial register state
//   s[0:1]  kernarg segment pointer
//   s2      workgroup id x: 64-column tile      -> ow = 64 * s2 + lane
//   s3      workgroup id y: 4-row tile          -> oh = 4 * s3 + wave
//   s4      workgroup id z: output channel k
//   v0      work-item id x (0..255): lane = v0 & 63, wave = v0 >> 6
//
// Each lane computes y[n, k, oh, ow] for every n. Input channels go in chunks of 8: the chunk's
// 8 x 9 weights of channel k are staged in LDS by the first 72 work-items, a barrier publishes
// them, then each lane reads its 9 input taps per channel under per-tap exec masks (padding:
// a masked lane keeps its 0) and accumulates 9 FMAs. A second barrier guards the LDS reuse.

.include "gcn_common.inc"

.set C_CHUNK, 8
.set LDS_BYTES, C_CHUNK * 9 * 4

.text
.globl conv_fwd_3x3_gcn
.p2align 8
.type conv_fwd_3x3_gcn,@function
conv_fwd_3x3_gcn:
  s_load_dwordx4 s[8:11], s[0:1], 0x0       // x, w
  s_load_dwordx2 s[12:13], s[0:1], 0x10     // y
  s_load_dwordx4 s[16:19], s[0:1], 0x18     // N, C, H, W
  s_load_dword s20, s[0:1], 0x28            // K
  s_mov_b64 s[56:57], exec                  // every lane of the wave
  v_and_b32 v1, 63, v0                      // lane
  v_lshrrev_b32 v2, 6, v0                   // wave
  v_readfirstlane_b32 s21, v2
  s_lshl_b32 s22, s3, GCN_TILE_H_LOG2
  s_add_u32 s22, s22, s21                   // oh
  s_lshl_b32 s23, s2, GCN_TILE_W_LOG2
  v_add_u32 v3, s23, v1                     // ow
  v_lshlrev_b32 v14, 2, v0                  // tid * 4 (LDS staging address)
  s_waitcnt lgkmcnt(0)
  s_mul_i32 s24, s18, s19
  s_lshl_b32 s24, s24, 2                    // H*W*4: bytes per channel plane
  // row masks (wave-uniform): 0 <= oh + r - 1 < H
  s_sub_u32 s25, s22, 1
  s_cmp_lt_u32 s25, s18
  s_cselect_b64 s[26:27], -1, 0
  s_cmp_lt_u32 s22, s18
  s_cselect_b64 s[28:29], -1, 0
  s_add_u32 s25, s22, 1
  s_cmp_lt_u32 s25, s18
  s_cselect_b64 s[30:31], -1, 0
  // column masks (per lane): 0 <= ow + s - 1 < W (unsigned compare folds both bounds)
  v_add_u32 v4, -1, v3
  v_cmp_gt_u32_e64 s[32:33], s19, v4
  v_cmp_gt_u32_e64 s[34:35], s19, v3
  v_add_u32 v4, 1, v3
  v_cmp_gt_u32_e64 s[36:37], s19, v4
  // tap masks t = 3r + s at s[38 + 2t : 39 + 2t]
  s_and_b64 s[38:39], s[26:27], s[32:33]
  s_and_b64 s[40:41], s[26:27], s[34:35]
  s_and_b64 s[42:43], s[26:27], s[36:37]
  s_and_b64 s[44:45], s[28:29], s[32:33]
  s_and_b64 s[46:47], s[28:29], s[34:35]
  s_and_b64 s[48:49], s[28:29], s[36:37]
  s_and_b64 s[50:51], s[30:31], s[32:33]
  s_and_b64 s[52:53], s[30:31], s[34:35]
  s_and_b64 s[54:55], s[30:31], s[36:37]
  s_mov_b64 s[58:59], s[46:47]              // store mask: oh < H and ow < W
  // row addresses of n = 0, c = 0: x + 4 * ((oh - 1) * W + ow - 1 + r * W), 64-bit, signed offset
  s_sub_u32 s25, s22, 1
  s_mul_i32 s25, s25, s19                   // (oh - 1) * W (wraps for oh = 0: masked lanes only)
  v_add_u32 v6, s25, v3
  v_add_u32 v6, -1, v6
  v_lshlrev_b32 v6, 2, v6
  v_ashrrev_i32 v7, 31, v6
  v_mov_b32 v9, s9
  v_add_co_u32 v8, vcc, s8, v6
  v_addc_co_u32 v9, vcc, v9, v7, vcc
  s_lshl_b32 s25, s19, 2                    // W * 4
  v_mov_b32 v10, v8
  v_mov_b32 v11, v9
  gcn_vaddr_add 10, 11, s25
  v_mov_b32 v12, v10
  v_mov_b32 v13, v11
  gcn_vaddr_add 12, 13, s25
  s_mov_b32 s60, 0                          // n
.L_batch:
  v_mov_b32 v5, 0                           // accumulator
  s_mov_b32 s61, 0                          // c0
.L_chunk:
  s_sub_u32 s62, s17, s61
  s_min_u32 s62, s62, C_CHUNK               // cc = min(8, C - c0)
  s_mul_i32 s63, s62, 9
  // stage w[k, c0 .. c0+cc-1, :, :] into LDS
  s_mul_i32 s69, s4, s17
  s_add_u32 s69, s69, s61
  s_mul_i32 s69, s69, 36
  s_add_u32 s66, s10, s69
  s_addc_u32 s67, s11, 0
  v_cmp_gt_u32_e64 s[64:65], s63, v0
  s_and_saveexec_b64 s[64:65], s[64:65]
  global_load_dword v15, v14, s[66:67]
  s_waitcnt vmcnt(0)
  ds_write_b32 v14, v15
  s_mov_b64 exec, s[64:65]
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_mov_b32 v16, 0                          // LDS address of the channel's 9 weights
  s_mov_b32 s68, 0                          // c within the chunk
.L_channel:
  v_mov_b32 v17, 0
  v_mov_b32 v18, 0
  v_mov_b32 v19, 0
  v_mov_b32 v20, 0
  v_mov_b32 v21, 0
  v_mov_b32 v22, 0
  v_mov_b32 v23, 0
  v_mov_b32 v24, 0
  v_mov_b32 v25, 0
  s_mov_b64 exec, s[38:39]
  global_load_dword v17, v[8:9], off
  s_mov_b64 exec, s[40:41]
  global_load_dword v18, v[8:9], off offset:4
  s_mov_b64 exec, s[42:43]
  global_load_dword v19, v[8:9], off offset:8
  s_mov_b64 exec, s[44:45]
  global_load_dword v20, v[10:11], off
  s_mov_b64 exec, s[46:47]
  global_load_dword v21, v[10:11], off offset:4
  s_mov_b64 exec, s[48:49]
  global_load_dword v22, v[10:11], off offset:8
  s_mov_b64 exec, s[50:51]
  global_load_dword v23, v[12:13], off
  s_mov_b64 exec, s[52:53]
  global_load_dword v24, v[12:13], off offset:4
  s_mov_b64 exec, s[54:55]
  global_load_dword v25, v[12:13], off offset:8
  s_mov_b64 exec, s[56:57]
  ds_read_b32 v26, v16
  ds_read_b32 v27, v16 offset:4
  ds_read_b32 v28, v16 offset:8
  ds_read_b32 v29, v16 offset:12
  ds_read_b32 v30, v16 offset:16
  ds_read_b32 v31, v16 offset:20
  ds_read_b32 v32, v16 offset:24
  ds_read_b32 v33, v16 offset:28
  ds_read_b32 v34, v16 offset:32
  gcn_vaddr_add 8, 9, s24                   // next channel plane
  gcn_vaddr_add 10, 11, s24
  gcn_vaddr_add 12, 13, s24
  v_add_u32 v16, 36, v16
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_fmac_f32 v5, v17, v26
  v_fmac_f32 v5, v18, v27
  v_fmac_f32 v5, v19, v28
  v_fmac_f32 v5, v20, v29
  v_fmac_f32 v5, v21, v30
  v_fmac_f32 v5, v22, v31
  v_fmac_f32 v5, v23, v32
  v_fmac_f32 v5, v24, v33
  v_fmac_f32 v5, v25, v34
  s_add_u32 s68, s68, 1
  s_cmp_lt_u32 s68, s62
  s_cbranch_scc1 .L_channel
  s_barrier                                 // every wave is done with this chunk's weights
  s_add_u32 s61, s61, s62
  s_cmp_lt_u32 s61, s17
  s_cbranch_scc1 .L_chunk
  // y[n, k, oh, ow]: offset 4 * ((n * K + k) * H * W + oh * W + ow)
  s_mul_i32 s69, s60, s20
  s_add_u32 s69, s69, s4
  s_mul_i32 s69, s69, s18
  s_mul_i32 s69, s69, s19
  s_mul_i32 s70, s22, s19
  s_add_u32 s69, s69, s70
  v_add_u32 v35, s69, v3
  v_lshlrev_b32 v35, 2, v35
  s_mov_b64 exec, s[58:59]
  global_store_dword v35, v5, s[12:13]
  s_mov_b64 exec, s[56:57]
  s_add_u32 s60, s60, 1
  s_cmp_lt_u32 s60, s16
  s_cbranch_scc1 .L_batch
  s_endpgm
.size conv_fwd_3x3_gcn, . - conv_fwd_3x3_gcn

.rodata
.p2align 6
gcn_kernel_descriptor conv_fwd_3x3_gcn, 36, 71, LDS_BYTES, 48

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: conv_fwd_3x3_gcn
    .symbol: conv_fwd_3x3_gcn.kd
    .language: "Assembler"
    .kernarg_segment_size: 48
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 288
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 73
    .vgpr_count: 36
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
      - { .name: "reserved", .size: 4, .offset: 44, .value_kind: by_value }
...
.end_amdgpu_metadata
