// The blocked direct convolution's host side (direct_blocked.hpp): the ISA choice, the tile
// table and default, the plans of forward and backward data, the packing of x and w into the
// blocked layouts, and the call into the kernels of one ISA.
#include "cpu/conv/direct_blocked.hpp"
#include "cpu/conv/direct_blocked_args.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace miopen::cpu::dblk {

Isa BestIsa()
{
    Isa best = Isa::None;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if(__builtin_cpu_supports("avx512f"))
        best = Isa::Avx512;
    else if(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        best = Isa::Avx2;
#endif
    if(const auto cap = env::Value("MIOPEN_CY_DEBUG_CPU_ISA"))
    {
        std::string v = *cap;
        std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return std::tolower(ch); });
        Isa want;
        if(v == "avx512")
            want = Isa::Avx512;
        else if(v == "avx2")
            want = Isa::Avx2;
        else if(v == "none")
            want = Isa::None;
        else
            ThrowBadParm("MIOPEN_CY_DEBUG_CPU_ISA='", *cap, "': expected avx512, avx2 or none");
        best = std::min(best, want);
    }
    return best;
}

const char* IsaName(Isa isa)
{
    switch(isa)
    {
    case Isa::Avx512: return "avx512";
    case Isa::Avx2: return "avx2";
    case Isa::None: break;
    }
    return "none";
}

int VectorWidth(Isa isa) { return isa == Isa::Avx512 ? 16 : 8; }

const std::vector<Tile>& Tiles(Isa isa)
{
#define DBLK_TILE(UR_, NKV_) Tile{UR_, NKV_},
    static const std::vector<Tile> avx512 = {DBLK_TILES_AVX512};
    static const std::vector<Tile> avx2 = {DBLK_TILES_AVX2};
    static const std::vector<Tile> none = {};
#undef DBLK_TILE
    return isa == Isa::Avx512 ? avx512 : isa == Isa::Avx2 ? avx2 : none;
}

Plan ForwardPlan(const ConvGeometry& g)
{
    Plan p{};
    p.n = g.n;
    p.groups = g.g;
    p.cin = g.cpg;
    p.kout = g.kpg;
    p.ih = g.in[1], p.iw = g.in[2], p.oh = g.out[1], p.ow = g.out[2];
    p.r = g.fil[1], p.s = g.fil[2];
    p.ph = g.pad[1], p.pw = g.pad[2], p.sh = g.str[1], p.sw = g.str[2], p.dh = g.dil[1], p.dw = g.dil[2];
    p.xs[0] = g.xs[0], p.xs[1] = g.xs[1], p.xs[2] = g.xs[3], p.xs[3] = g.xs[4];
    p.ys[0] = g.ys[0], p.ys[1] = g.ys[1], p.ys[2] = g.ys[3], p.ys[3] = g.ys[4];
    p.wg = g.kpg * g.ws[0], p.wk = g.ws[0], p.wc = g.ws[1], p.wr = g.ws[3], p.wsd = g.ws[4];
    p.flip = false;
    if(p.r == 1 && p.s == 1 && p.ph == 0 && p.pw == 0 && (p.sh > 1 || p.sw > 1))
    {
        // A strided 1x1 reads only every sh-th row and sw-th column: the same problem at stride 1
        // on that subsampled view of x (packing then copies only what is read).
        p.xs[2] *= p.sh, p.xs[3] *= p.sw;
        p.ih = p.oh, p.iw = p.ow, p.sh = 1, p.sw = 1;
    }
    return p;
}

Plan BackwardDataPlan(const ConvGeometry& g)
{
    // dx = conv(dy, w flipped and transposed): dy's K channels in, dx's C channels out, stride 1,
    // pad' = d * (f - 1) - pad.
    Plan p{};
    p.n = g.n;
    p.groups = g.g;
    p.cin = g.kpg;
    p.kout = g.cpg;
    p.ih = g.out[1], p.iw = g.out[2], p.oh = g.in[1], p.ow = g.in[2];
    p.r = g.fil[1], p.s = g.fil[2];
    p.ph = g.dil[1] * (g.fil[1] - 1) - g.pad[1];
    p.pw = g.dil[2] * (g.fil[2] - 1) - g.pad[2];
    p.sh = 1, p.sw = 1, p.dh = g.dil[1], p.dw = g.dil[2];
    p.xs[0] = g.ys[0], p.xs[1] = g.ys[1], p.xs[2] = g.ys[3], p.xs[3] = g.ys[4];
    p.ys[0] = g.xs[0], p.ys[1] = g.xs[1], p.ys[2] = g.xs[3], p.ys[3] = g.xs[4];
    // Forward-role k (dx channel c) steps w's C stride; forward-role c (dy channel k) steps K's.
    p.wg = g.kpg * g.ws[0], p.wk = g.ws[1], p.wc = g.ws[0], p.wr = g.ws[3], p.wsd = g.ws[4];
    p.flip = true;
    return p;
}

namespace {
// 1x1, stride 1, no padding, whole channel vectors, rows of x and y adjacent: the kernels read
// x where it is, an image's positions as one long row (the flat kernel).
bool IsFlat(const Plan& p, Isa isa)
{
    return p.r == 1 && p.s == 1 && p.sh == 1 && p.sw == 1 && p.ph == 0 && p.pw == 0 && p.cin % VectorWidth(isa) == 0 &&
           p.ys[3] == 1 && p.ys[2] == p.ow && p.ih == p.oh && p.iw == p.ow;
}
} // namespace

Tile DefaultTile(const Plan& p, Isa isa)
{
    // Work in padded MACs (columns rounded up to UR_W, channels to NKV vectors) times a cost per
    // MAC that grows when the tile spends many loads and broadcasts per FMA or has too few
    // accumulators to hide the FMA latency (2 pipes x 4 cycles).
    const int v = VectorWidth(isa);
    Tile best{0, 0};
    double best_cost = 0;
    for(const Tile& t : Tiles(isa))
    {
        const long kt = static_cast<long>(t.nkv) * v;
        // The flat kernel tiles an image's positions as one row (7x7: 49, not 7 by 7).
        const double ow = IsFlat(p, isa) ? static_cast<double>(p.oh) * p.ow : static_cast<double>(p.ow);
        const double cols = std::ceil(ow / t.ur_w) * t.ur_w;
        const double chans = std::ceil(static_cast<double>(p.kout) / kt) * kt;
        const double acc = static_cast<double>(t.ur_w) * t.nkv;
        double per = 1.0 + 0.5 * (t.ur_w + t.nkv) / acc;
        if(acc < 8)
            per *= 8.0 / acc;
        const double cost = cols * chans * per;
        if(best.ur_w == 0 || cost < best_cost - 1e-9)
            best = t, best_cost = cost;
    }
    return best;
}

const std::vector<WrwTile>& WrwTiles(Isa isa)
{
#define DBLK_WRW_TILE(UC_, NKV_) WrwTile{UC_, NKV_},
    static const std::vector<WrwTile> avx512 = {DBLK_WRW_TILES_AVX512};
    static const std::vector<WrwTile> avx2 = {DBLK_WRW_TILES_AVX2};
    static const std::vector<WrwTile> none = {};
#undef DBLK_WRW_TILE
    return isa == Isa::Avx512 ? avx512 : isa == Isa::Avx2 ? avx2 : none;
}

WrwTile DefaultWrwTile(const Plan& p, Isa isa)
{
    // 1x1 on images of 512 positions or more in whole vectors (28x28, 56x56): the kernel over
    // positions, which reads x and dy in place (measured 1.1-1.7x the blocked one's speed there,
    // whose transposes of x and dy cost as much as its sums); on smaller images its lane sums
    // at the end cost more than the transposes (7x7, 14x14: 0.5-0.75x).
    const long hw = p.oh * p.ow;
    if(WrwPosApplies(p) && !WrwPosTiles(isa).empty() && hw % VectorWidth(isa) == 0 && hw >= 512)
        return WrwPosTiles(isa).front();
    // Fewer input channels than a vector (the 7x7 stem's 3): the blocked kernel would pad them to
    // a whole vector; the row kernel has no such waste (measured 4.5x on the stem).
    if(!WrwPosTiles(isa).empty() && p.cin < VectorWidth(isa))
    {
        WrwTile t = WrwPosTiles(isa).front();
        t.pos = 2;
        return t;
    }
    // As DefaultTile, with output channels rounded up to NKV vectors (input channels are padded
    // to whole vectors whatever the tile).
    const int v = VectorWidth(isa);
    WrwTile best{0, 0};
    double best_cost = 0;
    for(const WrwTile& t : WrwTiles(isa))
    {
        const long kt = static_cast<long>(t.nkv) * v;
        const double chans = std::ceil(static_cast<double>(p.kout) / kt) * kt;
        // dy's vectors stream from L1/L2 once per tap and channel slice: they cost more than the
        // broadcasts of x (measured: 8x2 well ahead of 4x4 on AVX-512).
        const double acc = static_cast<double>(t.uc) * t.nkv;
        double per = 1.0 + 0.5 * (t.uc + 3.0 * t.nkv) / acc;
        if(acc < 8)
            per *= 8.0 / acc;
        const double cost = chans * per;
        if(best.uc == 0 || cost < best_cost - 1e-9)
            best = t, best_cost = cost;
    }
    return best;
}

const std::vector<WrwTile>& WrwPosTiles(Isa isa)
{
#define DBLK_WRWPOS_TILE(KR_, CR_) WrwTile{KR_, CR_, 1},
    static const std::vector<WrwTile> avx512 = {DBLK_WRWPOS_TILES_AVX512};
    static const std::vector<WrwTile> avx2 = {DBLK_WRWPOS_TILES_AVX2};
    static const std::vector<WrwTile> none = {};
#undef DBLK_WRWPOS_TILE
    return isa == Isa::Avx512 ? avx512 : isa == Isa::Avx2 ? avx2 : none;
}

bool WrwPosApplies(const Plan& p)
{
    return p.r == 1 && p.s == 1 && p.ph == 0 && p.pw == 0 && p.sh == 1 && p.sw == 1 && p.ih == p.oh && p.iw == p.ow;
}

namespace {

// Scratch for the packed tensors, kept between calls (page-faulting a fresh buffer every call
// costs as much as a small convolution); a buffer above the cap is freed after its call.
constexpr size_t kKeepFloats = size_t(64) << 20;   // 256 MiB

struct Scratch
{
    std::vector<float> buf;
    float* Get(size_t count)
    {
        if(buf.size() < count)
        {
            buf.clear();
            buf.shrink_to_fit();
            buf.resize(count);
        }
        return buf.data();
    }
    void Trim()
    {
        if(buf.size() > kKeepFloats)
        {
            buf.clear();
            buf.shrink_to_fit();
        }
    }
};

void PackX(const Plan& p, Isa isa, const float* x, float* xp, long cb, long vc, long hp, long wpw)
{
    const long items = p.n * p.groups * cb * hp;
    // Columns [lo, hi) of a packed row hold input columns lo - pw .. hi - 1 - pw.
    const long lo = std::clamp<long>(p.pw, 0, wpw), hi = std::clamp<long>(p.pw + p.iw, lo, wpw);
    // Whole vectors of channels from rows of adjacent columns: vw x vw register transposes (the
    // scalar loop below costs about 1 ns an element: a tenth of a 3x3 stride-2 layer's time).
    const bool transpose = vc == VectorWidth(isa) && p.xs[3] == 1;
    std::vector<long> map(transpose ? hi - lo : 0);
    for(size_t j = 0; j < map.size(); ++j)
        map[j] = (lo + static_cast<long>(j)) * vc;
#pragma omp parallel for schedule(static)
    for(long item = 0; item < items; ++item)
    {
        long rest = item;
        const long h = rest % hp;
        rest /= hp;
        const long b = rest % cb;
        rest /= cb;
        const long grp = rest % p.groups;
        const long n = rest / p.groups;
        float* dst = xp + item * wpw * vc;
        const long ih = h - p.ph;
        const long nvalid = std::min(vc, p.cin - b * vc);
        if(ih < 0 || ih >= p.ih || nvalid <= 0)
        {
            std::fill_n(dst, wpw * vc, 0.0f);
            continue;
        }
        std::fill_n(dst, lo * vc, 0.0f);
        std::fill_n(dst + hi * vc, (wpw - hi) * vc, 0.0f);
        if(transpose && nvalid == vc && hi > lo)
        {
            const float* src = x + n * p.xs[0] + (grp * p.cin + b * vc) * p.xs[1] + ih * p.xs[2] + (lo - p.pw);
            (isa == Isa::Avx512 ? PackWTransposeAvx512 : PackWTransposeAvx2)(src, p.xs[1], hi - lo, map.data(), dst,
                                                                              vc);
            continue;
        }
        for(long c = 0; c < vc; ++c)
        {
            float* d = dst + c;
            if(c >= nvalid)
            {
                for(long w = lo; w < hi; ++w)
                    d[w * vc] = 0.0f;
                continue;
            }
            const float* src = x + n * p.xs[0] + (grp * p.cin + b * vc + c) * p.xs[1] + ih * p.xs[2] - p.pw * p.xs[3];
            for(long w = lo; w < hi; ++w)
                d[w * vc] = src[w * p.xs[3]];
        }
    }
}

// dy (the plan's output) into [n][group][kg][oh][ow][kt], channels past kout zero.
void PackDy(const Plan& p, const float* dy, float* dyp, long kg, long kt)
{
    const long items = p.n * p.groups * kg * p.oh;
#pragma omp parallel for schedule(static)
    for(long item = 0; item < items; ++item)
    {
        const long oh = item % p.oh;
        const long kgi = (item / p.oh) % kg;
        const long grp = (item / (p.oh * kg)) % p.groups;
        const long n = item / (p.oh * kg * p.groups);
        float* dst = dyp + item * p.ow * kt;
        for(long kk = 0; kk < kt; ++kk)
        {
            const long k = kgi * kt + kk;
            float* d = dst + kk;
            if(k >= p.kout)
            {
                for(long ow = 0; ow < p.ow; ++ow)
                    d[ow * kt] = 0.0f;
                continue;
            }
            const float* src = dy + n * p.ys[0] + (grp * p.kout + k) * p.ys[1] + oh * p.ys[2];
            for(long ow = 0; ow < p.ow; ++ow)
                d[ow * kt] = src[ow * p.ys[3]];
        }
    }
}

void PackW(const Plan& p, Isa isa, const float* w, float* wp, long cb, long vc, long kg, long kt)
{
    const long items = p.groups * kg * cb;
    w += p.woff;
#pragma omp parallel for schedule(static)
    for(long item = 0; item < items; ++item)
    {
        const long b = item % cb;
        const long kgi = (item / cb) % kg;
        const long grp = item / (cb * kg);
        float* dst = wp + item * p.r * p.s * vc * kt;
        const long cvalid = std::clamp<long>(p.cin - b * vc, 0, vc);
        const long kvalid = std::clamp<long>(p.kout - kgi * kt, 0, kt);
        // Output channel outermost, then input channel, then taps: w is read in its own order
        // (adjacent for packed filters); the writes stay inside this item's block (L1).
        const long taps = p.r * p.s;
        if(taps == 1 && p.wk == 1)
        {
            // 1x1 with the output channels adjacent (backward data's 1x1): row copies.
            const float* src = w + grp * p.wg + kgi * kt + b * vc * p.wc;
            for(long c = 0; c < vc; ++c)
            {
                float* d = dst + c * kt;
                const long kn = c < cvalid ? kvalid : 0;
                std::copy(src + c * p.wc, src + c * p.wc + kn, d);
                std::fill(d + kn, d + kt, 0.0f);
            }
            continue;
        }
        // Whole tiles of one vector width vw: register transposes (vw x vw) or gathers (vw output
        // channels a gather). The scalar loop at the end costs 1-4 ns an element (w's rows a few
        // KiB apart alias in L1), as much as the convolution itself for 7x7 and 14x14 images.
        const long vw = VectorWidth(isa);
        const auto transpose = isa == Isa::Avx512 ? PackWTransposeAvx512 : PackWTransposeAvx2;
        const auto gather = isa == Isa::Avx512 ? PackWGatherAvx512 : PackWGatherAvx2;
        if(cvalid == vc && vc == vw && kvalid == kt && kt % vw == 0 && !p.flip && p.wsd == 1 && p.wr == p.s &&
           p.wc == taps)
        {
            // A dense filter, whole tiles: each vw output channels' run of vc x taps adjacent
            // floats is transposed vw x vw at a time in registers (about 3x the gathers' speed).
            const float* src = w + grp * p.wg + kgi * kt * p.wk + b * vc * p.wc;
            long map[16 * 64];
            const long ncols = vc * taps;
            if(ncols <= 16 * 64)
            {
                for(long j = 0; j < ncols; ++j)   // column j = (c, tap) of the source run
                    map[j] = ((j % taps) * vc + j / taps) * kt;
                transpose(src, p.wk, ncols, map, dst, kt);
                continue;
            }
        }
        if(cvalid == vc && vc == vw && kvalid == kt && kt % vw == 0 && p.flip && p.woff == 0 && p.wsd == 1 &&
           p.wr == p.s && p.wk == taps && taps <= 64)
        {
            // Backward data, stride 1, a dense filter: per input channel c the tile's run of kt x
            // taps adjacent floats, transposed to taps x kt (the taps flipped).
            const float* src = w + grp * p.wg + kgi * kt * p.wk + b * vc * p.wc;
            long map[64];
            for(long c = 0; c < vc; ++c)
            {
                for(long j = 0; j < taps; ++j)
                    map[j] = ((taps - 1 - j) * vc + c) * kt;
                transpose(src + c * p.wc, p.wk, taps, map, dst, kt);
            }
            continue;
        }
        if(cvalid == vc && kvalid == kt && kt % vw == 0 && (kt - 1) * p.wk < (1L << 31))
        {
            // Whole tiles, any filter strides: vw output channels a gather.
            const float* src = w + grp * p.wg + kgi * kt * p.wk + b * vc * p.wc;
            for(long r = 0; r < p.r; ++r)
                for(long s = 0; s < p.s; ++s)
                {
                    const long rr = p.flip ? p.r - 1 - r : r, ss = p.flip ? p.s - 1 - s : s;
                    gather(src + rr * p.wr + ss * p.wsd, p.wk, p.wc, dst + (r * p.s + s) * vc * kt, vc, kt);
                }
            continue;
        }
        for(long kk = 0; kk < kt; ++kk)
        {
            if(kk >= kvalid)
            {
                for(long i = 0; i < taps * vc; ++i)
                    dst[i * kt + kk] = 0.0f;
                continue;
            }
            const float* src = w + grp * p.wg + (kgi * kt + kk) * p.wk + b * vc * p.wc;
            for(long c = 0; c < vc; ++c)
            {
                const float* sc = src + c * p.wc;
                for(long r = 0; r < p.r; ++r)
                    for(long s = 0; s < p.s; ++s)
                    {
                        const long rr = p.flip ? p.r - 1 - r : r, ss = p.flip ? p.s - 1 - s : s;
                        dst[((r * p.s + s) * vc + c) * kt + kk] = c < cvalid ? sc[rr * p.wr + ss * p.wsd] : 0.0f;
                    }
            }
        }
    }
}

} // namespace

void Run(const Plan& p, Isa isa, Tile t, const float* x, const float* w, float* y, EpilogueFn epi,
         const void* epi_ctx)
{
    if(isa == Isa::None)
        ThrowBadParm("blocked direct convolution: no AVX2 or AVX-512 kernels on this CPU");
    const long v = VectorWidth(isa);
    const long vc = std::min(v, p.cin);
    const long cb = (p.cin + vc - 1) / vc;
    const long kt = t.nkv * v;
    const long kg = (p.kout + kt - 1) / kt;
    const long owt = (p.ow + t.ur_w - 1) / t.ur_w;
    const long hp = (p.oh - 1) * p.sh + (p.r - 1) * p.dh + 1;
    const long wpw = (owt * t.ur_w - 1) * p.sw + (p.s - 1) * p.dw + 1;
    // The flat kernel (IsFlat). Where x's rows are not adjacent (a strided 1x1's subsampled view),
    // a plain copy of the pixels read, [n][c][positions], instead of the blocked packing (a
    // transpose).
    const bool flat = IsFlat(p, isa);
    const bool x_adjacent = p.xs[3] == 1 && p.xs[2] == p.iw;
    const long hw = p.ih * p.iw, xch = p.groups * p.cin;
    const size_t xcount = flat ? (x_adjacent ? 0 : static_cast<size_t>(p.n * xch * hw))
                               : static_cast<size_t>(p.n * p.groups * cb * hp * wpw * vc);
    const size_t wcount = static_cast<size_t>(p.groups * kg * cb * p.r * p.s * vc * kt);

    static thread_local Scratch xs, wsc;
    float* xp = xcount == 0 ? nullptr : xs.Get(xcount);
    float* wp = wsc.Get(wcount);
    if(!flat)
        PackX(p, isa, x, xp, cb, vc, hp, wpw);
    else if(!x_adjacent)
    {
#pragma omp parallel for schedule(static)
        for(long item = 0; item < p.n * xch; ++item)
        {
            const float* src = x + (item / xch) * p.xs[0] + (item % xch) * p.xs[1];
            float* dst = xp + item * hw;
            for(long h = 0; h < p.ih; ++h)
                for(long w2 = 0; w2 < p.iw; ++w2)
                    dst[h * p.iw + w2] = src[h * p.xs[2] + w2 * p.xs[3]];
        }
    }
    PackW(p, isa, w, wp, cb, vc, kg, kt);

    KernelArgs a{};
    a.xp = xp, a.wp = wp, a.y = y;
    a.n = p.n, a.groups = p.groups, a.cb = cb, a.vc = vc, a.hp = hp, a.wpw = wpw;
    a.kg = kg, a.kout = p.kout;
    a.r = p.r, a.s = p.s, a.sh = p.sh, a.sw = p.sw, a.dh = p.dh, a.dw = p.dw, a.oh = p.oh, a.ow = p.ow, a.owt = owt;
    for(int i = 0; i < 4; ++i)
        a.ys[i] = p.ys[i];
    a.ur_w = t.ur_w, a.nkv = t.nkv;
    a.epi = epi, a.epi_ctx = epi_ctx;
    if(flat)
    {
        a.flat = 1;
        a.xp = x_adjacent ? x : xp;
        a.xn = x_adjacent ? p.xs[0] : xch * hw, a.xc = x_adjacent ? p.xs[1] : hw;
        a.oh = 1, a.ow = p.oh * p.ow;
        a.ys[2] = 0;
    }
    const bool ran = isa == Isa::Avx512 ? RunAvx512(a) : RunAvx2(a);
    xs.Trim();
    wsc.Trim();
    if(!ran)
        ThrowBadParm("blocked direct convolution: tile ", t.ur_w, "x", t.nkv, " has no ", IsaName(isa), " kernel");
}

void RunBackwardData(const ConvGeometry& g, Isa isa, Tile t, const float* dy, const float* w, float* dx)
{
    const Plan base = BackwardDataPlan(g);
    const long sh = g.str[1], sw = g.str[2];
    if(sh == 1 && sw == 1)
    {
        Run(base, isa, t, dy, w, dx);
        return;
    }
    for(long a = 0; a < sh; ++a)
        for(long b = 0; b < sw; ++b)
        {
            const long hi = (g.in[1] - a + sh - 1) / sh, wi = (g.in[2] - b + sw - 1) / sw;
            if(hi <= 0 || wi <= 0)
                continue;
            // dx[a + sh*i] = sum_t dy[i + q - t] * w[r0 + sh*t]: a stride-1 forward over the
            // phase's taps, flipped, with pad' = taps - 1 - q (negative: dy starts later).
            const long r0 = (a + g.pad[1]) % sh, s0 = (b + g.pad[2]) % sw;
            const long rt = r0 < g.fil[1] ? (g.fil[1] - r0 + sh - 1) / sh : 0;
            const long st = s0 < g.fil[2] ? (g.fil[2] - s0 + sw - 1) / sw : 0;
            float* out = dx + a * g.xs[3] + b * g.xs[4];
            if(rt == 0 || st == 0)
            {
                const long planes = g.n * g.c;
#pragma omp parallel for schedule(static)
                for(long pl = 0; pl < planes; ++pl)
                {
                    float* o = out + (pl / g.c) * g.xs[0] + (pl % g.c) * g.xs[1];
                    for(long i = 0; i < hi; ++i)
                        for(long j = 0; j < wi; ++j)
                            o[i * sh * g.xs[3] + j * sw * g.xs[4]] = 0.0f;
                }
                continue;
            }
            Plan p = base;
            p.oh = hi, p.ow = wi, p.r = rt, p.s = st;
            p.ph = (rt - 1) - (a + g.pad[1] - r0) / sh;
            p.pw = (st - 1) - (b + g.pad[2] - s0) / sw;
            p.sh = p.sw = p.dh = p.dw = 1;
            p.ys[2] = g.xs[3] * sh, p.ys[3] = g.xs[4] * sw;
            p.woff = r0 * g.ws[3] + s0 * g.ws[4];
            p.wr = sh * g.ws[3], p.wsd = sw * g.ws[4];
            Run(p, isa, t, dy, w, out);
        }
}

namespace {

// Rows (n, c) of an [n][ch][h][w] tensor (strides s) copied to dst + n*dn + c*dc, h*w floats each,
// then `tail` zeros after the last image's row (dn = h*w: every image in one row per channel).
void PackRows(const float* src, const long s[4], long n, long ch, long h, long w, float* dst, long dn, long dc,
              long tail)
{
#pragma omp parallel for schedule(static)
    for(long c = 0; c < ch; ++c)
    {
        for(long i = 0; i < n; ++i)
        {
            float* d = dst + i * dn + c * dc;
            const float* sc = src + i * s[0] + c * s[1];
            if(s[3] == 1 && s[2] == w)
                std::copy(sc, sc + h * w, d);
            else
                for(long y = 0; y < h; ++y)
                    for(long x = 0; x < w; ++x)
                        d[y * w + x] = sc[y * s[2] + x * s[3]];
        }
        std::fill_n(dst + (n - 1) * dn + c * dc + h * w, tail, 0.0f);
    }
}

long Up(long n, long m) { return (n + m - 1) / m * m; }

// Blocks of about 64 output channels x 64 columns (the partial sums, 64 x 64 vectors, stay in
// L2), smaller while there are fewer blocks than threads, and a multiple of the threads where
// there are few.
void ChooseBlocks(WrwPosArgs& a)
{
    const long kr = a.kr, cr = a.cr;
    long kb = std::min(Up(64, kr), Up(a.kout, kr)), cbs = std::min(Up(64, cr), Up(a.ncols, cr));
    long threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    const auto blocks = [&](long kb_, long cbs_) {
        return a.groups * ((a.kout + kb_ - 1) / kb_) * ((a.ncols + cbs_ - 1) / cbs_);
    };
    while(blocks(kb, cbs) < threads && (kb > kr || cbs > cr))
    {
        if(cbs >= kb && cbs > cr)
            cbs = Up(cbs / 2, cr);
        else
            kb = Up(kb / 2, kr);
    }
    if(blocks(kb, cbs) % threads != 0 && blocks(kb, cbs) < 8 * threads)
        for(long m = (a.ncols + cbs - 1) / cbs + 1; m <= (a.ncols + cbs - 1) / cbs + threads; ++m)
        {
            const long c2 = Up((a.ncols + m - 1) / m, cr);
            if(blocks(kb, c2) % threads == 0)
            {
                cbs = c2;
                break;
            }
        }
    a.kb = kb, a.cbs = cbs, a.pc = 1024;
}

void RunPos(WrwPosArgs& a, Isa isa, WrwTile t)
{
    a.kr = t.uc, a.cr = t.nkv;
    ChooseBlocks(a);
    if(!(isa == Isa::Avx512 ? RunWrwPosAvx512(a) : RunWrwPosAvx2(a)))
        ThrowBadParm("blocked direct convolution: backward-weights tile ", t.uc, "x", t.nkv, " over positions has no ",
                     IsaName(isa), " kernel");
}

// The 1x1 kernel: a column per input channel, x and dy as they are where rows are whole vectors.
void RunWrw1x1(const Plan& p, Isa isa, WrwTile t, const float* x, const float* dy, float* dw)
{
    if(!WrwPosApplies(p))
        ThrowBadParm("blocked direct convolution: the 1x1 backward-weights kernel needs a 1x1 filter without padding");
    const long v = VectorWidth(isa);
    const long hw = p.oh * p.ow;
    const long xch = p.groups * p.cin, dch = p.groups * p.kout;
    WrwPosArgs a{};
    static thread_local Scratch xs, ds;
    long xc = 0, dk = 0;
    if(hw % v == 0)
    {
        // One row per image and channel: read in place when its positions are adjacent.
        a.nimg = p.n, a.rowlen = hw;
        if(p.xs[3] == 1 && p.xs[2] == p.iw)
            a.x = x, a.xn = p.xs[0], xc = p.xs[1];
        else
        {
            float* xp = xs.Get(static_cast<size_t>(p.n * xch * hw));
            PackRows(x, p.xs, p.n, xch, p.oh, p.ow, xp, xch * hw, hw, 0);
            a.x = xp, a.xn = xch * hw, xc = hw;
        }
        if(p.ys[3] == 1 && p.ys[2] == p.ow)
            a.dy = dy, a.dn = p.ys[0], dk = p.ys[1];
        else
        {
            float* dp = ds.Get(static_cast<size_t>(p.n * dch * hw));
            PackRows(dy, p.ys, p.n, dch, p.oh, p.ow, dp, dch * hw, hw, 0);
            a.dy = dp, a.dn = dch * hw, dk = hw;
        }
    }
    else
    {
        // Rows of a few positions (7x7, 14x14): every image's positions in one row per channel,
        // zero-padded to whole vectors.
        const long plen = Up(p.n * hw, v);
        a.nimg = 1, a.rowlen = plen;
        float* xp = xs.Get(static_cast<size_t>(xch * plen));
        float* dp = ds.Get(static_cast<size_t>(dch * plen));
        PackRows(x, p.xs, p.n, xch, p.oh, p.ow, xp, hw, plen, plen - p.n * hw);
        PackRows(dy, p.ys, p.n, dch, p.oh, p.ow, dp, hw, plen, plen - p.n * hw);
        a.x = xp, a.dy = dp, a.xn = a.dn = 0, xc = dk = plen;
    }
    std::vector<long> xcol(p.cin), wcol(p.cin);
    for(long c = 0; c < p.cin; ++c)
        xcol[c] = c * xc, wcol[c] = c * p.wc;
    a.xcol = xcol.data(), a.wcol = wcol.data();
    a.dw = dw;
    a.groups = p.groups, a.kout = p.kout, a.ncols = p.cin;
    a.nrows = 1, a.xg = p.cin * xc, a.dg = p.kout * dk, a.dk = dk, a.ws0 = p.wk;
    RunPos(a, isa, t);
    xs.Trim();
    ds.Trim();
}

// The row kernel, any filter: x copied once per stride phase with its padding, so that tap (r, s)
// of output row oh is a contiguous run: column (c, r, s) at phase (s*dw) mod sw, row oh*sh + r*dh,
// from (s*dw) / sw; dy's rows padded to whole vectors (in place when they are).
void RunWrwRows(const Plan& p, Isa isa, WrwTile t, const float* x, const float* dy, float* dw)
{
    const long v = VectorWidth(isa);
    const long owp = Up(p.ow, v), sw = p.sw;
    const long hp = (p.oh - 1) * p.sh + (p.r - 1) * p.dh + 1;
    const long wq = ((owp - 1) * sw + (p.s - 1) * p.dw) / sw + 1;
    const long xch = p.groups * p.cin, dch = p.groups * p.kout;
    const long cstride = sw * hp * wq;
    static thread_local Scratch xs, ds;
    float* xp = xs.Get(static_cast<size_t>(p.n * xch * cstride));
#pragma omp parallel for schedule(static)
    for(long item = 0; item < p.n * xch; ++item)
    {
        const float* src = x + (item / xch) * p.xs[0] + (item % xch) * p.xs[1];
        float* dst = xp + item * cstride;
        for(long q = 0; q < sw; ++q)
            for(long h = 0; h < hp; ++h)
            {
                float* d = dst + (q * hp + h) * wq;
                const long ih = h - p.ph;
                if(ih < 0 || ih >= p.ih)
                {
                    std::fill_n(d, wq, 0.0f);
                    continue;
                }
                const float* sr = src + ih * p.xs[2];
                for(long m = 0; m < wq; ++m)
                {
                    const long iw = m * sw + q - p.pw;
                    d[m] = iw >= 0 && iw < p.iw ? sr[iw * p.xs[3]] : 0.0f;
                }
            }
    }
    WrwPosArgs a{};
    if(owp == p.ow && p.ys[3] == 1)
        a.dy = dy, a.dn = p.ys[0], a.dk = p.ys[1], a.drs = p.ys[2];
    else
    {
        float* dp = ds.Get(static_cast<size_t>(p.n * dch * p.oh * owp));
#pragma omp parallel for schedule(static)
        for(long item = 0; item < p.n * dch; ++item)
        {
            const float* src = dy + (item / dch) * p.ys[0] + (item % dch) * p.ys[1];
            float* dst = dp + item * p.oh * owp;
            for(long h = 0; h < p.oh; ++h)
                for(long w = 0; w < owp; ++w)
                    dst[h * owp + w] = w < p.ow ? src[h * p.ys[2] + w * p.ys[3]] : 0.0f;
        }
        a.dy = dp, a.dn = dch * p.oh * owp, a.dk = p.oh * owp, a.drs = owp;
    }
    const long ncols = p.cin * p.r * p.s;
    std::vector<long> xcol(ncols), wcol(ncols);
    for(long c = 0; c < p.cin; ++c)
        for(long r = 0; r < p.r; ++r)
            for(long s = 0; s < p.s; ++s)
            {
                const long j = (c * p.r + r) * p.s + s;
                xcol[j] = c * cstride + ((s * p.dw) % sw) * hp * wq + r * p.dh * wq + (s * p.dw) / sw;
                wcol[j] = c * p.wc + r * p.wr + s * p.wsd;
            }
    a.x = xp, a.xcol = xcol.data(), a.wcol = wcol.data();
    a.dw = dw;
    a.groups = p.groups, a.kout = p.kout, a.ncols = ncols;
    a.nimg = p.n, a.nrows = p.oh, a.rowlen = owp;
    a.xn = xch * cstride, a.xg = p.cin * cstride, a.xrs = p.sh * wq;
    a.dg = p.kout * a.dk, a.ws0 = p.wk;
    RunPos(a, isa, t);
    xs.Trim();
    ds.Trim();
}

} // namespace

void RunWrw(const Plan& p, Isa isa, WrwTile t, const float* x, const float* dy, float* dw)
{
    if(isa == Isa::None)
        ThrowBadParm("blocked direct convolution: no AVX2 or AVX-512 kernels on this CPU");
    if(t.pos != 0)
    {
        (t.pos == 1 ? RunWrw1x1 : RunWrwRows)(p, isa, t, x, dy, dw);
        return;
    }
    const long vc = VectorWidth(isa);   // whole vectors of input channels: UC divides them
    const long cb = (p.cin + vc - 1) / vc;
    const long kt = t.nkv * vc;
    const long kg = (p.kout + kt - 1) / kt;
    const long hp = (p.oh - 1) * p.sh + (p.r - 1) * p.dh + 1;
    const long wpw = (p.ow - 1) * p.sw + (p.s - 1) * p.dw + 1;
    const size_t xcount = static_cast<size_t>(p.n * p.groups * cb * hp * wpw * vc);
    const size_t dcount = static_cast<size_t>(p.n * p.groups * kg * p.oh * p.ow * kt);

    static thread_local Scratch xs, ds;
    float* xp = xs.Get(xcount);
    float* dyp = ds.Get(dcount);
    PackX(p, isa, x, xp, cb, vc, hp, wpw);
    PackDy(p, dy, dyp, kg, kt);

    WrwArgs a{};
    a.xp = xp, a.dyp = dyp, a.dw = dw;
    a.n = p.n, a.groups = p.groups, a.cb = cb, a.vc = vc, a.hp = hp, a.wpw = wpw;
    a.kg = kg, a.kout = p.kout, a.cin = p.cin;
    a.r = p.r, a.s = p.s, a.sh = p.sh, a.sw = p.sw, a.dh = p.dh, a.dw_ = p.dw, a.oh = p.oh, a.ow = p.ow;
    // Rows per pass: about 16 KiB of dy, which every tap and channel slice reads again.
    a.rows = std::max<long>(1, 16384 / (kt * 4) / std::max<long>(p.ow, 1));
    a.ws[0] = p.wk, a.ws[1] = p.wc, a.ws[2] = p.wr, a.ws[3] = p.wsd;
    a.uc = t.uc, a.nkv = t.nkv;
    const bool ran = isa == Isa::Avx512 ? RunWrwAvx512(a) : RunWrwAvx2(a);
    xs.Trim();
    ds.Trim();
    if(!ran)
        ThrowBadParm("blocked direct convolution: backward-weights tile ", t.uc, "x", t.nkv, " has no ",
                     IsaName(isa), " kernel");
}

} // namespace miopen::cpu::dblk
