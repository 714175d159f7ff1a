// The SGEMM's split-k entry (kernels/gemm/sgemm_launch.cpp: LaunchSgemmSplitK, SgemmChooseSplitK,
// SgemmSplitParts) on the host with the tile launcher replaced by a recorder
// (tests/ops/test_sgemm_split_host.py): the plans it makes for issue 22's RNN step products on an
// H200's 132 multiprocessors (a 64-row tile and a split for the batch-64 outputs, none for the
// big input product), the workspace cap, the test hook MIOPEN_CY_DEBUG_SGEMM_SPLIT, and that the
// parts it reports are the parts the tile launcher makes (sgemm.hip's plan restated). Prints one
// line a case and exits 1 on any failure.
#include "gpu/runtime.hpp"
#include "kernels/gemm/sgemm.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace miopen::gpu {
int g_sms = 132;
int MultiprocessorCount(int) { return g_sms; }
int CurrentDevice() noexcept { return 0; }
void CheckLaunch(const char*) {}

struct Call
{
    int tile = -1, splits = 0, zs = 0;
    bool fold = false, reduce = true;
    float* ws = nullptr;
};
std::vector<Call> g_calls;

// sgemm.hip's tile table
void SgemmTileShape(int tile, int& bm, int& bn)
{
    static const int shapes[kSgemmTiles][2] = {{128, 128}, {128, 64}, {64, 128}, {64, 64}};
    const int t = tile < 0 || tile >= kSgemmTiles ? 0 : tile;
    bm = shapes[t][0];
    bn = shapes[t][1];
}

// sgemm.hip's plan for a summed (batch 1) GEMM: the step, the parts, the blocks in z.
void LaunchSgemmTile(const SgemmArgs& g, int tile, int splits, bool fold, float* workspace, void*,
                     bool reduce)
{
    Call c;
    c.tile = tile; c.splits = splits; c.fold = fold; c.ws = workspace; c.reduce = reduce;
    const int bk        = g.trans_b || (splits > 1 && workspace != nullptr) ? 8 : 16;
    const int64_t total = int64_t(std::max(g.batch, 1)) * ((g.k + bk - 1) / bk);
    const int parts     = splits > 1 && total > 1 ? int(std::min<int64_t>(splits, total)) : 1;
    const int64_t per   = (total + parts - 1) / parts;
    c.zs                = total > 0 ? int((total + per - 1) / per) : 1;
    g_calls.push_back(c);
}
} // namespace miopen::gpu

using namespace miopen::gpu;

static int fails = 0;

static SgemmArgs Args(bool ta, bool tb, int m, int n, int k)
{
    SgemmArgs g;
    g.trans_a = ta; g.trans_b = tb; g.m = m; g.n = n; g.k = k;
    static std::vector<float> dummy(16);
    g.a = g.b = dummy.data();
    g.c = dummy.data();
    g.lda = ta ? m : k;
    g.ldb = tb ? k : n;
    g.ldc = n;
    return g;
}

/// Runs LaunchSgemmSplitK with `room` floats of workspace; checks the one launch it made against
/// the parts it returned. Returns the parts; `tile` the tile launched.
static int Run(const char* what, const SgemmArgs& g, size_t room, int& tile)
{
    static std::vector<float> ws(4);
    g_calls.clear();
    const int parts = LaunchSgemmSplitK(g, room > 0 ? ws.data() : nullptr, room, false, nullptr);
    bool ok = g_calls.size() == 1;
    tile    = ok ? g_calls[0].tile : -1;
    if(ok)
    {
        const Call& c = g_calls[0];
        ok = c.zs == parts && (parts == 1 || (c.ws != nullptr && !c.reduce)) &&
             size_t(parts) * g.m * g.n <= std::max<size_t>(room, size_t(g.m) * g.n);
    }
    int bm = 0, bn = 0;
    SgemmTileShape(tile, bm, bn);
    std::printf("%-34s m %5d n %5d k %5d: tile %dx%d, %2d parts %s\n", what, g.m, g.n, g.k, bm, bn,
                parts, ok ? "OK" : "FAIL");
    fails += !ok;
    return parts;
}

static void Expect(bool cond, const char* what)
{
    if(!cond)
    {
        std::printf("  FAIL: %s\n", what);
        ++fails;
    }
}

int main()
{
    unsetenv("MIOPEN_CY_DEBUG_SGEMM_SPLIT");
    const size_t big = size_t(16) * 64 * 4096;   // the RNN's room for batch 64, LSTM h 1024
    int tile = 0;
    // issue 22's large shape: the 64-row outputs split over k on a 64-row tile
    int p = Run("lstm step forward (NT)", Args(false, true, 64, 4096, 1024), big, tile);
    Expect(p > 1 && (tile == 2 || tile == 3), "the forward step splits on a 64-row tile");
    p = Run("lstm step backward (NN)", Args(false, false, 64, 1024, 4096), big, tile);
    Expect(p > 1 && (tile == 2 || tile == 3), "the backward step splits on a 64-row tile");
    p = Run("gru step forward (NT)", Args(false, true, 64, 3072, 1024), size_t(16) * 64 * 3072, tile);
    Expect(p > 1 && (tile == 2 || tile == 3), "the GRU step splits on a 64-row tile");
    p = Run("gru step backward (NN)", Args(false, false, 64, 1024, 3072), size_t(16) * 64 * 3072, tile);
    Expect(p > 1 && (tile == 2 || tile == 3), "the GRU backward step splits on a 64-row tile");
    // the small shape (batch 16, hidden 256)
    p = Run("small lstm step forward (NT)", Args(false, true, 16, 1024, 256), size_t(16) * 16 * 1024, tile);
    Expect(p > 1 && (tile == 2 || tile == 3), "the small forward step splits");
    p = Run("small lstm step backward (NN)", Args(false, false, 16, 256, 1024), size_t(16) * 16 * 1024, tile);
    Expect(p > 1 && (tile == 2 || tile == 3), "the small backward step splits");
    // a product that fills the GPU is not split
    p = Run("input product (NT)", Args(false, true, 8192, 4096, 1024), size_t(1) << 28, tile);
    Expect(p == 1, "the input product does not split");
    // no workspace, or room for less than two parts: no split
    p = Run("no workspace", Args(false, true, 64, 4096, 1024), 0, tile);
    Expect(p == 1, "no workspace: no split");
    p = Run("room for one part", Args(false, true, 64, 4096, 1024), size_t(64) * 4096 + 7, tile);
    Expect(p == 1, "room for one part: no split");
    p = Run("room for three parts", Args(false, true, 64, 4096, 1024), size_t(3) * 64 * 4096, tile);
    Expect(p >= 1 && p <= 3, "the room caps the parts");
    // the test hook: forced parts, capped by k's 8-wide steps and the room
    setenv("MIOPEN_CY_DEBUG_SGEMM_SPLIT", "5", 1);
    p = Run("forced 5, k 40", Args(false, true, 4, 8, 40), 1024, tile);
    Expect(p == 5, "forced 5 parts on k = 40");
    p = Run("forced 5, k 24", Args(false, false, 4, 8, 24), 1024, tile);
    Expect(p == 3, "forced 5 parts capped by k's 3 steps");
    p = Run("forced 5, room for 2", Args(true, false, 4, 8, 80), 2 * 32, tile);
    Expect(p == 2, "forced 5 parts capped by the room");
    p = Run("forced 5, k 8", Args(true, true, 4, 8, 8), 1024, tile);
    Expect(p == 1, "one step: no split");
    setenv("MIOPEN_CY_DEBUG_SGEMM_SPLIT", "3", 1);
    p = Run("forced 3, k 40", Args(false, true, 4, 8, 40), 1024, tile);
    Expect(p == 3, "forced 3 parts on k = 40 (steps 2, 2, 1)");
    unsetenv("MIOPEN_CY_DEBUG_SGEMM_SPLIT");
    // a sweep: the reported parts are the launcher's, on several GPU sizes
    for(int sms : {1, 8, 80, 132})
    {
        g_sms = sms;
        for(int m : {1, 16, 64, 200})
            for(int n : {4, 256, 1024, 4096})
                for(int k : {1, 8, 100, 1024, 4096})
                    for(int t = 0; t < 4; ++t)
                    {
                        g_calls.clear();
                        const SgemmArgs g = Args(t & 1, t & 2, m, n, k);
                        static std::vector<float> ws(4);
                        const size_t room = size_t(16) * m * n;
                        const int parts = LaunchSgemmSplitK(g, ws.data(), room, t == 3, nullptr);
                        const bool ok = g_calls.size() == 1 && g_calls[0].zs == parts &&
                                        size_t(parts) * m * n <= std::max(room, size_t(m) * n) &&
                                        (parts == 1 || g_calls[0].reduce == (t == 3));
                        if(!ok)
                        {
                            std::printf("sweep sms %d m %d n %d k %d t %d: parts %d FAIL\n", sms, m, n, k, t,
                                        parts);
                            ++fails;
                        }
                    }
    }
    std::printf("%d failures\n", fails);
    return fails != 0;
}
