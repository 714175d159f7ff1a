// The GPU RNN's host code (kernels/rnn/rnn_launch.cpp) and kernels (rnn.hip) run on the host with
// the launches emulated (kernels/common/device.hpp here), the GEMMs (the CPU's step products
// too), copies and dropout replaced by
// plain loops, against the CPU kernel (cpu/rnn.cpp) on the same arguments: every mode, uni- and
// bidirectional, skip input, with and without bias, the three layouts with a sequence of length
// 0, dropout between layers, fp32 / fp16 / bf16; fp16 / bf16 both ways the GPU runs them: on
// tensor cores (the products read 16-bit operand copies: the emulated GPU is an sm_90) and staged
// through fp32 (an sm_75). Checks the launcher's bookkeeping (index arrays, slot ranges, buffers,
// which copies are written and read) and the kernels' arithmetic without a GPU. Prints one line a
// case and exits 1 on any mismatch or unwritten output.
#include "core/env.hpp"
#include "core/handle.hpp"
#include "gpu/runtime.hpp"
#include "gemm/sgemm_args.hpp"
#include "kernels/gemm/gemm_mma.hpp"
#include "cpu/blas.hpp"
#include "cpu/rnn_gemm.hpp"
#include "dropout/dropout_args.hpp"
#include "rnn/rnn_args.hpp"
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include <algorithm>
#include <numeric>
#include <cmath>
#include <type_traits>
#include "core/storage.hpp"

namespace miopen {
Handle::~Handle() {}
namespace env {
bool IsSet(const char*) { return false; }
} // namespace env
namespace gpu {
bool g_mma = true; // whether the emulated GPU has the matrix instructions
std::string ArchName(int) { return g_mma ? "sm_90" : "sm_75"; }
std::string MmaArchWhyNot(const std::string& arch) { return arch == "sm_90" ? "" : "no mma.sync"; }
DeviceScope::DeviceScope(int) {}
DeviceScope::~DeviceScope() {}
int MultiprocessorCount(int) { return 1; }
void CheckLaunch(const char*) {}
void Copy(void* d, const void* s, size_t n, Stream) { std::memmove(d, s, n); }
void LaunchSgemm(const SgemmArgs& g, void*)
{
    if(g.m <= 0 || g.n <= 0) return;
    for(int i = 0; i < g.m; ++i)
        for(int j = 0; j < g.n; ++j)
        {
            double acc = 0;
            for(int k = 0; k < g.k; ++k)
            {
                const float av = g.trans_a ? g.a[k * g.lda + i] : g.a[i * g.lda + k];
                const float bv = g.trans_b ? g.b[j * g.ldb + k] : g.b[k * g.ldb + j];
                acc += double(av) * bv;
            }
            g.c[i * g.ldc + j] = float(acc);
        }
}
// The split-k as the device runs it: k in 8-wide steps cut into up to 3 parts (as many as the
// room holds), each part's product in the room (part z at room + z * m * n), added in part order
// into C when reduce (else left for the gate kernels), so the fused reductions are exercised.
int LaunchSgemmSplitK(const SgemmArgs& g, float* room, size_t room_floats, bool reduce, void* s)
{
    if(g.m <= 0 || g.n <= 0) return 1;
    const size_t out = size_t(g.m) * g.n;
    const int steps = (g.k + 7) / 8;
    int parts = int(std::min<size_t>({size_t(3), room == nullptr ? 0 : room_floats / out, size_t(steps)}));
    if(parts > 1)
    {
        const int per = (steps + parts - 1) / parts;
        parts = (steps + per - 1) / per;
    }
    if(parts <= 1)
    {
        LaunchSgemm(g, s);
        return 1;
    }
    const int per = (steps + parts - 1) / parts;
    for(int z = 0; z < parts; ++z)
    {
        SgemmArgs q = g;
        const int k0 = z * per * 8, k1 = std::min(g.k, (z + 1) * per * 8);
        q.k = k1 - k0;
        q.a = g.trans_a ? g.a + int64_t(k0) * g.lda : g.a + k0;
        q.b = g.trans_b ? g.b + k0 : g.b + int64_t(k0) * g.ldb;
        q.c = room + z * out;
        q.ldc = g.n;
        LaunchSgemm(q, s);
    }
    if(reduce)
        for(int i = 0; i < g.m; ++i)
            for(int j = 0; j < g.n; ++j)
            {
                float acc = 0.0f;
                for(int z = 0; z < parts; ++z)
                    acc += room[z * out + size_t(i) * g.n + j];
                g.c[i * g.ldc + j] = acc;
            }
    return parts;
}
// The tensor-core GEMM as the device runs it: 16-bit operands, sums in double here, k in 32-wide
// steps cut into up to 3 parts as the room allows, each part's product in the room, added in part
// order into C when reduce.
static float Elem16(const void* p, int64_t i, bool bf16)
{
    uint16_t u;
    std::memcpy(&u, static_cast<const char*>(p) + 2 * i, 2);
    return bf16 ? ToFloat(BFloat16{u}) : ToFloat(Half{u});
}
static void Mma(const GemmMmaArgs& g, int k0, int k1, float* c, int64_t ldc)
{
    for(int i = 0; i < g.m; ++i)
        for(int j = 0; j < g.n; ++j)
        {
            double acc = 0;
            for(int k = k0; k < k1; ++k)
                acc += double(Elem16(g.a, g.trans_a ? k * g.lda + i : i * g.lda + k, g.bf16)) *
                       Elem16(g.b, g.trans_b ? j * g.ldb + k : k * g.ldb + j, g.bf16);
            c[i * ldc + j] = float(acc);
        }
}
int LaunchGemmMma(const GemmMmaArgs& g, float* room, size_t room_floats, bool reduce, void*)
{
    if(g.m <= 0 || g.n <= 0) return 1;
    const size_t out = size_t(g.m) * g.n;
    const int steps = (g.k + 31) / 32;
    int parts = int(std::min<size_t>({size_t(3), room == nullptr ? 0 : room_floats / out, size_t(steps)}));
    if(parts <= 1)
    {
        Mma(g, 0, g.k, g.c, g.ldc);
        return 1;
    }
    const int per = (steps + parts - 1) / parts;
    parts = (steps + per - 1) / per;
    for(int z = 0; z < parts; ++z)
        Mma(g, z * per * 32, std::min(g.k, (z + 1) * per * 32), room + z * out, g.n);
    if(reduce)
        for(size_t i = 0; i < out; ++i)
        {
            float acc = 0.0f;
            for(int z = 0; z < parts; ++z)
                acc += room[z * out + i];
            g.c[(i / g.n) * g.ldc + i % g.n] = acc;
        }
    return parts;
}
template <class T>
void Dropout(Handle&, const DropoutArgs& a, const T* in, T* out, uint8_t* mask, DropoutState* st,
             bool, bool)
{
    for(int64_t i = 0; i < a.numel; ++i)
    {
        const Philox4 b = DropoutBits(st->seed, st->offset, uint64_t(i / 4));
        const bool keep = DropoutKeep(b.v[i % 4], a.rate);
        out[i] = keep ? in[i] * a.scale : 0.0f;
        if(mask) mask[i] = keep;
    }
}
template void Dropout<float>(Handle&, const DropoutArgs&, const float*, float*, uint8_t*, DropoutState*, bool, bool);
} // namespace gpu
namespace cpu {
void Sgemm(bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc)
{
    for(int i = 0; i < m; ++i)
        for(int j = 0; j < n; ++j)
        {
            double acc = 0;
            for(int q = 0; q < k; ++q)
                acc += double(ta ? a[q * lda + i] : a[i * lda + q]) * (tb ? b[j * ldb + q] : b[q * ldb + j]);
            c[i * ldc + j] = float(alpha * acc + (beta == 0.0f ? 0.0 : double(beta) * c[i * ldc + j]));
        }
}
void SgemmParallel(bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda,
                   const float* b, int ldb, float beta, float* c, int ldc)
{
    Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void StepBPrepare(int n, int k, const float* B, int ldb, StepB& out)
{
    out.b = B; out.ldb = ldb; out.n = n; out.k = k; out.nr = 0; out.panels.clear();
}
void StepGemm(int m, const StepB& B, const float* A, int lda, bool accumulate, float* C, int ldc)
{
    Sgemm(false, false, m, B.n, B.k, 1.0f, A, lda, B.b, B.ldb, accumulate ? 1.0f : 0.0f, C, ldc);
}
template <class T>
void Dropout(const DropoutArgs& a, const T* in, T* out, uint8_t* mask, uint64_t seed, uint64_t offset)
{
    for(int64_t i = 0; i < a.numel; ++i)
    {
        const Philox4 b = DropoutBits(seed, offset, uint64_t(i / 4));
        const bool keep = DropoutKeep(b.v[i % 4], a.rate);
        out[i] = keep ? in[i] * a.scale : 0.0f;
        if(mask) mask[i] = keep;
    }
}
template void Dropout<float>(const DropoutArgs&, const float*, float*, uint8_t*, uint64_t, uint64_t);
} // namespace cpu
} // namespace miopen

using namespace miopen;

/// The largest difference, relative to the CPU result's largest magnitude (at least 1).
template <class T>
static double maxdiff(const std::vector<T>& a0, const std::vector<T>& b0)
{
    double m = 0, scale = 1;
    for(size_t i = 0; i < a0.size(); ++i)
    {
        const float a = ToFloat(a0[i]), b = ToFloat(b0[i]);
        if(std::isnan(a) != std::isnan(b)) return 1e30;
        if(!std::isnan(a))
        {
            m     = std::max(m, double(std::fabs(a - b)));
            scale = std::max(scale, double(std::fabs(a)));
        }
    }
    return m / scale;
}

template <class T>
int run_case(int mode, int bi, int layers, bool skip, bool bias, std::vector<int> lens, int io,
             float drop, int h = 5)
{
    const int in = skip ? h : 3;
    RnnArgs a;
    a.s.mode = mode; a.s.n_gate = mode == 2 ? 4 : mode == 3 ? 3 : 1; a.s.h = h; a.s.layers = layers;
    a.s.bi = bi; a.s.in = in; a.s.skip = skip; a.s.bias = bias;
    auto& b = a.b;
    b.user_batch = int(lens.size());
    b.perm.resize(b.user_batch);
    std::iota(b.perm.begin(), b.perm.end(), 0);
    std::stable_sort(b.perm.begin(), b.perm.end(), [&](int p, int q) { return lens[p] > lens[q]; });
    for(int j = 0; j < b.user_batch; ++j) b.len.push_back(lens[b.perm[j]]);
    b.steps = b.len[0];
    size_t off = 0;
    for(int t = 0; t < b.steps; ++t)
    {
        int n = 0;
        while(n < b.user_batch && b.len[n] > t) ++n;
        b.bt.push_back(n); b.off.push_back(off); off += n;
    }
    b.rows = off;
    a.io = io == 0 ? RnnIoLayout::Packed : io == 1 ? RnnIoLayout::SeqMajorPadded : RnnIoLayout::BatchMajorPadded;
    a.io_seq = b.steps + 1;
    a.sp.rows = b.rows; a.sp.b0 = b.user_batch; a.sp.s = a.s; a.sp.dropout = drop > 0; a.sp.wf = std::is_same_v<T, float> ? 0 : a.s.ParamCount();
    a.sp.ops16 = !std::is_same_v<T, float>;
    a.dropout = drop; a.seed = 99; a.offset = 3; a.training = true;
    const size_t Hb = size_t(bi) * h;
    std::mt19937 rng(1234 + mode * 7 + bi + layers * 3 + io);
    std::uniform_real_distribution<float> U(-1, 1);
    auto rnd = [&](size_t n) { std::vector<T> v(n); for(auto& x : v) x = FloatTo<T>(U(rng)); return v; };
    const size_t hs = size_t(layers) * bi * b.user_batch * h;
    auto x = rnd(a.IoRows() * in), w = rnd(a.s.ParamCount()), hx = rnd(hs), cx = rnd(hs);
    auto dy = rnd(a.IoRows() * Hb), dhy = rnd(hs), dcy = rnd(hs);
    for(auto& v : w) v = FloatTo<T>(ToFloat(v) * 0.5f);
    struct Out { std::vector<T> y, hy, cy, dx, dhx, dcx, dw; };
    Out res[2];
    Handle hnd;
    for(int dev = 0; dev < 2; ++dev)
    {
        Out& o = res[dev];
        std::vector<float> ws(a.sp.WorkspaceFloats() + 16, NAN), rs(a.sp.ReserveBytes() / 4 + 16, NAN);
        const T nanv = FloatTo<T>(NAN);
        o.y.assign(a.IoRows() * Hb, nanv); o.hy.assign(hs, nanv); o.cy.assign(hs, nanv);
        o.dx.assign(a.IoRows() * in, nanv); o.dhx.assign(hs, nanv); o.dcx.assign(hs, nanv);
        o.dw.assign(a.s.ParamCount(), nanv);
        T* cyp = mode == 2 ? o.cy.data() : nullptr;
        const T* cxp = mode == 2 ? cx.data() : nullptr;
        const T* dcyp = mode == 2 ? dcy.data() : nullptr;
        T* dcxp = mode == 2 ? o.dcx.data() : nullptr;
        if(dev == 0)
        {
            cpu::RnnForward<T>(a, x.data(), hx.data(), cxp, w.data(), o.y.data(), o.hy.data(), cyp, ws.data(), rs.data());
            cpu::RnnBackwardData<T>(a, dy.data(), dhy.data(), dcyp, hx.data(), cxp, w.data(), o.dx.data(), o.dhx.data(), dcxp, ws.data(), rs.data());
            cpu::RnnBackwardWeights<T>(a, x.data(), hx.data(), o.dw.data(), ws.data(), rs.data());
        }
        else
        {
            gpu::RnnForward<T>(hnd, a, x.data(), hx.data(), cxp, w.data(), o.y.data(), o.hy.data(), cyp, ws.data(), rs.data());
            gpu::RnnBackwardData<T>(hnd, a, dy.data(), dhy.data(), dcyp, hx.data(), cxp, w.data(), o.dx.data(), o.dhx.data(), dcxp, ws.data(), rs.data());
            gpu::RnnBackwardWeights<T>(hnd, a, x.data(), hx.data(), o.dw.data(), ws.data(), rs.data());
        }
    }
    double e[7] = {maxdiff(res[0].y, res[1].y), maxdiff(res[0].hy, res[1].hy), maxdiff(res[0].cy, res[1].cy),
                   maxdiff(res[0].dx, res[1].dx), maxdiff(res[0].dhx, res[1].dhx), maxdiff(res[0].dcx, res[1].dcx),
                   maxdiff(res[0].dw, res[1].dw)};
    double mx = *std::max_element(e, e + 7);
    // relative to the largest value; bf16 keeps 3 bits fewer than fp16 (its operand copies on the
    // tensor-core path round 8 times coarser)
    const double tol = std::is_same_v<T, float> ? 1e-4 : std::is_same_v<T, Half> ? 2e-2 : 5e-2;
    // every output written (no NaN left) on the emulated GPU
    int nan = 0;
    for(auto* v : {&res[1].y, &res[1].hy, &res[1].dx, &res[1].dhx, &res[1].dw})
        for(T f : *v) nan += std::isnan(ToFloat(f));
    std::printf("%s h %d mode %d bi %d L %d skip %d bias %d io %d drop %.1f lens %zu: y %.2g hy %.2g cy %.2g dx %.2g dhx %.2g dcx %.2g dw %.2g nan %d %s\n",
                std::is_same_v<T, float> ? "fp32" : gpu::g_mma ? "mma " : "sgemm", h, mode, bi, layers, int(skip), int(bias), io, drop, lens.size(), e[0], e[1], e[2], e[3], e[4], e[5], e[6], nan,
                (mx < tol && nan == 0) ? "OK" : "FAIL");
    return (mx < tol && nan == 0) ? 0 : 1;
}

int main()
{
    int fails = 0;
    for(int mode = 0; mode < 4; ++mode)
        for(int bi = 1; bi <= 2; ++bi)
            for(int skip = 0; skip < 2; ++skip)
                fails += run_case<float>(mode, bi, 2, skip, true, {3, 3, 2, 1}, 0, 0.0f);
    for(int mode = 0; mode < 4; ++mode)
    {
        fails += run_case<float>(mode, 2, 3, false, false, {2, 0, 3, 1}, 1, 0.0f);
        fails += run_case<float>(mode, 2, 2, false, true, {2, 0, 3, 1}, 2, 0.0f);
        fails += run_case<float>(mode, 2, 3, false, true, {4, 4, 2}, 0, 0.5f);
        fails += run_case<float>(mode, 1, 1, false, true, {1}, 0, 0.0f);
    }
    // 16-bit storage on tensor cores, then staged through fp32 (a GPU without them)
    for(const bool mma : {true, false})
    {
        gpu::g_mma = mma;
        for(int mode = 0; mode < 4; ++mode)
        {
            fails += run_case<Half>(mode, 2, 2, false, true, {2, 0, 3, 1}, 2, 0.0f);
            fails += run_case<BFloat16>(mode, 2, 2, mode == 1, true, {3, 3, 1}, 0, 0.5f);
            fails += run_case<BFloat16>(mode, 2, 3, mode == 2, false, {4, 4, 2}, 1, 0.5f, 8);
        }
    }
    gpu::g_mma = true;
    // h 24: the forward's step products split too (k = 24: 3 steps of 8), every slot pattern;
    // h 40 on tensor cores (k = 40 or more: 2 steps of 32 and more), reverse steps where
    // sequences start
    for(int mode = 0; mode < 4; ++mode)
    {
        fails += run_case<float>(mode, 2, 2, false, true, {4, 3, 3, 1, 1}, 0, 0.0f, 24);
        fails += run_case<float>(mode, 2, 2, false, true, {2, 0, 3, 1}, 1, 0.0f, 24);
        fails += run_case<Half>(mode, 1, 2, false, true, {3, 3, 3}, 2, 0.0f, 24);
        fails += run_case<Half>(mode, 2, 2, false, true, {4, 3, 3, 1, 1}, 0, 0.0f, 40);
    }
    std::printf("%d failures\n", fails);
    return fails != 0;
}
