#include "conv/convolution.hpp"
#include "conv/conv_device.hpp"
#include "conv/find_db.hpp"
#include "conv/perf_db.hpp"
#include "conv/tuning.hpp"
#include "conv/registry.hpp"
#include "conv/timing.hpp"
#include "core/api.hpp"
#include "core/env.hpp"
#include "core/logging.hpp"
#include "tensor/tensor_ops.hpp"

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <memory>
#include <sstream>

namespace miopen {
namespace {

enum class FindMode
{
    Normal = 1,
    Fast = 2,
    Hybrid = 3,
    DynamicHybrid = 5,
};

enum class FindEnforce
{
    None = 1,
    DbUpdate = 2,
    Search = 3,
    SearchDbUpdate = 4,
    DbClean = 5,
};

/// An enum-valued MIOpen variable: one of `names` (any case) or its number; `fallback` when unset;
/// BadParm listing the names otherwise.
template <class E>
E EnumVariable(const char* var, std::initializer_list<std::pair<const char*, E>> names, E fallback)
{
    const auto v = env::Value(var);
    if(!v)
        return fallback;
    std::string s = *v;
    std::transform(s.begin(), s.end(), s.begin(), ::toupper);
    std::string expected;
    size_t i = 0;
    for(const auto& [name, value] : names)
    {
        if(s == name || s == std::to_string(static_cast<int>(value)))
            return value;
        expected += Concat(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ", name, " (",
                           static_cast<int>(value), ")");
        ++i;
    }
    ThrowBadParm(var, "='", *v, "': expected ", expected);
}

FindMode GetFindMode()
{
    return EnumVariable("MIOPEN_FIND_MODE",
                        {{"NORMAL", FindMode::Normal}, {"FAST", FindMode::Fast}, {"HYBRID", FindMode::Hybrid},
                         {"DYNAMIC_HYBRID", FindMode::DynamicHybrid}},
                        FindMode::DynamicHybrid);
}

FindEnforce GetFindEnforce()
{
    return EnumVariable("MIOPEN_FIND_ENFORCE",
                        {{"NONE", FindEnforce::None}, {"DB_UPDATE", FindEnforce::DbUpdate},
                         {"SEARCH", FindEnforce::Search}, {"SEARCH_DB_UPDATE", FindEnforce::SearchDbUpdate},
                         {"DB_CLEAN", FindEnforce::DbClean}},
                        FindEnforce::None);
}

ConvProblem ProblemOf(const ConvolutionDescriptor& conv, const ConvCall& call)
{
    return MakeConvProblem(call.direction, conv, call.a, call.a_name, call.w, call.w_name, call.b,
                           call.b_name);
}

/// The canonical argument pointers of a call (transpose swaps the x and y sides).
ConvArgs ArgsOf(const ConvolutionDescriptor& conv, const ConvCall& call, void* ws, size_t ws_size)
{
    ConvArgs a;
    void* user_x = const_cast<void*>(call.a_data);
    void* user_y = const_cast<void*>(call.b_data);
    a.x = conv.IsTranspose() ? user_y : user_x;
    a.y = conv.IsTranspose() ? user_x : user_y;
    a.w = const_cast<void*>(call.w_data);
    a.workspace = ws;
    a.workspace_size = ws_size;
    return a;
}

/// The tensor a problem writes, and its pointer in `args`.
const TensorDescriptor& Written(const ConvProblem& p) { return p.IsForward() ? p.y : p.IsBackwardData() ? p.x : p.w; }
void*& WrittenPtr(const ConvProblem& p, ConvArgs& a) { return p.IsForward() ? a.y : p.IsBackwardData() ? a.x : a.w; }

/// The call's data pointers must be given and, on a GPU handle, be memory that GPU can read (the
/// workspace too, when given): every way in (legacy, immediate, Find 2.0) comes through here.
void CheckCallData(const Handle& handle, const ConvCall& call, const void* workspace)
{
    // The data parameter is the descriptor's name without "Desc": xDesc -> x.
    for(const auto& [data, desc_name] : {std::pair{call.a_data, call.a_name},
                                         std::pair{call.w_data, call.w_name},
                                         std::pair{call.b_data, call.b_name}})
    {
        std::string name(desc_name);
        if(name.size() > 4 && name.compare(name.size() - 4, 4, "Desc") == 0)
            name.resize(name.size() - 4);
        CheckData(data, name.c_str());
        CheckDevicePointer(handle, data, name.c_str());
    }
    CheckDevicePointer(handle, workspace, "workSpace");
}

void LogCommand(const ConvolutionDescriptor& conv, const ConvCall& call)
{
    bool on = false;
    try
    {
        on = env::IsSet("MIOPEN_ENABLE_LOGGING_CMD");
    }
    catch(...)
    {
        on = false;
    }
    // MIOpen's shape, "MIOpen(HIP): Command [LogCmdConvolution] <command>": everything after "] "
    // is the command line, runnable unchanged.
    if(on)
    {
        const std::string line = "MIOpen(CY): Command [LogCmdConvolution] " + DriverCommand(conv, call) + "\n";
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
    }
}

} // namespace

std::string DeviceArch(const Handle& handle) { return conv_device::ArchName(handle); }

std::string FindDbName(const Handle& handle)
{
    // The device architecture plus a fingerprint of the solver set (FNV-1a over names and ids):
    // when a release adds or changes solvers, records measured without them are not reused.
    static const std::string tag = [] {
        uint32_t h = 2166136261u;
        for(const ConvSolver* s : ConvSolvers())
        {
            const std::string item = std::string(s->Name()) + "#" + std::to_string(s->Id()) + ";";
            for(unsigned char ch : item)
                h = (h ^ ch) * 16777619u;
        }
        char hex[9];
        std::snprintf(hex, sizeof(hex), "%08x", h);
        return std::string(hex);
    }();
    return DeviceArch(handle) + "-" + tag;
}

size_t ConvWorkspaceSize(const Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call)
{
    const ConvProblem p = ProblemOf(conv, call);
    const ConvContext ctx{handle};
    size_t best = 0;
    for(const auto& st : SurveySolvers(ctx, p, SIZE_MAX))
        if(st.usable)
            best = std::max(best, st.workspace);
    return best;
}

std::vector<FindDbEntry> ConvMeasure(Handle& handle, const ConvolutionDescriptor& conv,
                                     const ConvCall& call, void* workspace, size_t workspace_size,
                                     bool exhaustive)
{
    const ConvProblem p = ProblemOf(conv, call);
    ConvPrepareRun(handle, conv, call, workspace, workspace_size);
    const conv_device::Scope device_scope(handle);
    const ConvContext ctx{handle};
    const auto survey = SurveySolvers(ctx, p, workspace == nullptr ? 0 : workspace_size);
    std::vector<const SolverStatus*> usable;
    for(const auto& st : survey)
        if(st.usable)
            usable.push_back(&st);
    if(usable.empty())
        ThrowBadParm(ExplainNoSolver(p, survey));

    const FindMode mode = GetFindMode();
    const FindEnforce enforce = GetFindEnforce();
    const std::string arch = FindDbName(handle);
    const std::string key = p.Key();
    if(enforce == FindEnforce::DbClean)
    {
        find_db::Remove(arch, key);
        perf_db::Remove(arch, key);
    }
    // Tunable solvers search their variants when asked (conv/tuning.hpp); a search makes the
    // find-db record stale, so the solvers are measured again below.
    bool tuned = false;
    if(mode != FindMode::Fast || enforce == FindEnforce::Search || enforce == FindEnforce::SearchDbUpdate)
    {
        std::vector<const ConvSolver*> solvers;
        for(const auto* st : usable)
            solvers.push_back(st->solver);
        tuned = tuning::TuneForFind(ctx, p, solvers, ArgsOf(conv, call, workspace, workspace_size),
                                    tuning::PolicyFor(exhaustive, static_cast<int>(enforce)));
    }

    // A record from an earlier Find answers without benchmarking unless the mode or
    // MIOPEN_FIND_ENFORCE says otherwise.
    std::vector<FindDbEntry> measured;
    const bool force = mode == FindMode::Normal || enforce == FindEnforce::DbUpdate ||
                       enforce == FindEnforce::Search || enforce == FindEnforce::SearchDbUpdate || tuned;
    if(!force)
    {
        for(const auto& e : find_db::Load(arch, key))
            for(const auto* st : usable)
                if(st->solver->Name() == e.solver)
                    measured.push_back(e);
    }
    bool benchmarked = false;
    if(measured.empty() && mode == FindMode::Fast)
    {
        for(const auto* st : usable)
            measured.push_back({std::string(st->solver->Name()),
                                static_cast<float>(st->solver->EstimateMs(ctx, p)), st->workspace,
                                static_cast<int>(st->solver->Algorithm())});
    }
    else if(measured.empty())
    {
        // Benchmark on the caller's buffers, most promising first; a solver whose estimate is
        // far behind the best time measured so far is skipped (it cannot win).
        std::vector<const SolverStatus*> order = usable;
        std::stable_sort(order.begin(), order.end(), [&](auto* l, auto* r) {
            return l->solver->EstimateMs(ctx, p) < r->solver->EstimateMs(ctx, p);
        });
        ConvArgs args = ArgsOf(conv, call, workspace, workspace_size);
        double best = 1e30;
        for(const auto* st : order)
        {
            const double estimate = st->solver->EstimateMs(ctx, p);
            if(estimate > 20.0 * best && estimate > 50.0)
                continue;
            if(handle.IsGpu() && estimate > 8.0 * best)
                continue;
            const ConvInvoker run = st->solver->MakeInvoker(ctx, p);
            // On a GPU, a candidate 4x behind the best after one timed run is not timed again.
            const double ms = timing::MeasureMs(handle, run, args, 4.0 * best);
            best = std::min(best, ms);
            measured.push_back({std::string(st->solver->Name()), static_cast<float>(ms), st->workspace,
                                static_cast<int>(st->solver->Algorithm())});
        }
        benchmarked = true;
    }
    std::stable_sort(measured.begin(), measured.end(),
                     [](const auto& l, const auto& r) { return l.time_ms < r.time_ms; });
    // As in MIOpen: results measured without a solver that only lacked workspace are not stored
    // (a later Find with enough workspace would take the record and never time that solver),
    // unless MIOPEN_FIND_CONV_INSUFFICIENT_WORKSPACE_ALLOW_FINDDB_UPDATE is set.
    const size_t limit = workspace == nullptr ? 0 : workspace_size;
    const bool short_of_workspace = std::any_of(survey.begin(), survey.end(), [&](const SolverStatus& st) {
        return !st.usable && st.workspace > limit;
    });
    if(benchmarked && short_of_workspace &&
       !env::IsSet("MIOPEN_FIND_CONV_INSUFFICIENT_WORKSPACE_ALLOW_FINDDB_UPDATE"))
        log::Write(log::Level::Info, "find-db",
                   Concat("not stored: problem ", key, " was measured with ", limit,
                          " bytes of workspace, less than some solvers need"));
    else if(benchmarked)
        find_db::Store(arch, key, measured);
    return measured;
}

std::vector<FindPerf> ConvFind(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                               int request, void* workspace, size_t workspace_size, bool exhaustive)
{
    if(request < 1)
        ThrowBadParm("requestAlgoCount = ", request, "; must be >= 1");
    const std::vector<FindDbEntry> measured =
        ConvMeasure(handle, conv, call, workspace, workspace_size, exhaustive);

    // The best solver of each algorithm, fastest first.
    std::vector<FindPerf> out;
    for(const auto& e : measured)
    {
        const bool seen = std::any_of(out.begin(), out.end(), [&](const FindPerf& f) { return f.algorithm == e.algorithm; });
        if(!seen)
            out.push_back({e.algorithm, e.time_ms, e.workspace, FindSolverByName(e.solver)});
    }
    if(out.size() > static_cast<size_t>(request))
        out.resize(static_cast<size_t>(request));
    return out;
}

void ConvRun(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call, int algo,
             const void* alpha, const void* beta, void* workspace, size_t workspace_size,
             const cpu::ConvBlockEpilogue* cpu_epilogue)
{
    if(algo != 0 && algo != 1 && algo != 2 && algo != 3 && algo != 5)
        ThrowBadParm("algo = ", algo, " is not an algorithm of this direction (GEMM 0, Direct 1, "
                     "FFT 2, Winograd 3, ImplicitGEMM 5)");
    const ConvProblem p = ProblemOf(conv, call);
    CheckCallData(handle, call, workspace);
    if(workspace == nullptr && workspace_size != 0)
        ThrowBadParm("workSpace is null but workSpaceSize = ", workspace_size);
    const double a = ReadScalar(alpha, p.w.Type(), "alpha");
    const double b = ReadScalar(beta, p.w.Type(), "beta");
    LogCommand(conv, call);

    const ConvContext ctx{handle};
    const size_t limit = workspace == nullptr ? 0 : workspace_size;
    // The fastest recorded solver of this algorithm that can run the call: only the recorded
    // solvers are surveyed (the whole survey costs microseconds of host time per call, which a
    // short kernel on a GPU waits for).
    const std::vector<FindDbEntry> recorded = find_db::Load(FindDbName(handle), p.Key());
    for(const auto& e : recorded)
    {
        const ConvSolver* s = FindSolverByName(e.solver);
        if(s == nullptr || static_cast<int>(s->Algorithm()) != algo)
            continue;
        if(SurveySolver(ctx, p, *s, limit).usable)
        {
            ConvRunSolver(handle, conv, call, p, *s, a, b, workspace, workspace_size, cpu_epilogue);
            return;
        }
    }
    const auto survey = SurveySolvers(ctx, p, limit);
    std::vector<const SolverStatus*> usable;
    for(const auto& st : survey)
        if(st.usable && static_cast<int>(st.solver->Algorithm()) == algo)
            usable.push_back(&st);
    if(usable.empty())
    {
        std::ostringstream o;
        o << "no solver of algorithm " << AlgoName(static_cast<ConvAlgo>(algo)) << " can run problem "
          << p.Key() << ":";
        bool first = true;
        for(const auto& st : survey)
        {
            if(st.other_domain || static_cast<int>(st.solver->Algorithm()) != algo)
                continue;
            o << (first ? " " : "; ") << st.solver->Name() << " " << (st.usable ? "usable" : st.why_not);
            first = false;
        }
        if(first)
            o << " this algorithm has no solver for this direction and device";
        ThrowBadParm(o.str());
    }
    // No recorded solver of this algorithm can run it: the best estimate.
    const SolverStatus* chosen = *std::min_element(usable.begin(), usable.end(), [&](auto* l, auto* r) {
            return l->solver->EstimateMs(ctx, p) < r->solver->EstimateMs(ctx, p);
        });
    ConvRunSolver(handle, conv, call, p, *chosen->solver, a, b, workspace, workspace_size,
                  cpu_epilogue);
}

void ConvRunSolver(Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                   const ConvProblem& p, const ConvSolver& solver, double a, double b,
                   void* workspace, size_t workspace_size, const cpu::ConvBlockEpilogue* cpu_epilogue)
{
    const ConvContext ctx{handle};
    ConvArgs args = ArgsOf(conv, call, workspace, workspace_size);
    const ConvInvoker run = solver.MakeInvoker(ctx, p);
    KernelTimer timer(handle);
    if(a == 1.0 && b == 0.0)
    {
        if(handle.IsCpu() && solver.CarriesCpuEpilogue())
            args.cpu_epilogue = cpu_epilogue;
        run(args);
        return;
    }
    // Other alpha/beta: solve into a scratch tensor of the same layout and type, then blend (in
    // fp32, rounded once to the type).
    const TensorDescriptor& out = Written(p);
    conv_device::Buffer scratch(handle, out.NumBytes(), "convolution alpha/beta scratch");
    void*& target = WrittenPtr(p, args);
    void* user_out = target;
    target = scratch.Get();
    run(args);
    conv_device::Blend(handle, static_cast<float>(a), out, scratch.Get(), static_cast<float>(b), user_out);
}

void ConvPrepareRun(const Handle& handle, const ConvolutionDescriptor& conv, const ConvCall& call,
                    const void* workspace, size_t workspace_size)
{
    CheckCallData(handle, call, workspace);
    if(workspace == nullptr && workspace_size != 0)
        ThrowBadParm("workSpace is null but workSpaceSize = ", workspace_size);
    LogCommand(conv, call);
}

ConvProblem ConvProblemOf(const ConvolutionDescriptor& conv, const ConvCall& call)
{
    return ProblemOf(conv, call);
}

std::string DriverCommand(const ConvolutionDescriptor& conv, const ConvCall& call)
{
    // The user's view: x-side is the input of the user's forward, as MIOpenDriver describes it.
    // MIOpenDriver has 2-d and 3-d (--spatial_dim 3) convolutions; a 1-d one is miopen_cy's
    // --spatial_dim 1, which takes the length, filter, pad, stride, dilation and output padding
    // from the width flags (-W -x -q -v -j -X).
    const auto& x = call.a;
    const auto& w = call.w;
    const int dims = conv.SpatialDims();
    const auto& pd = conv.Pads();
    const auto& st = conv.Strides();
    const auto& dl = conv.Dilations();
    const size_t k = conv.IsTranspose() ? w.Lens()[1] * conv.GroupCount() : w.Lens()[0];
    std::ostringstream o;
    // The data type's sub-command (MIOpenDriver's conv, convfp16, convbfp16).
    o << "miopen-driver conv"
      << (w.Type() == miopenHalf ? "fp16" : w.Type() == miopenBFloat16 ? "bfp16" : "");
    if(dims != 2)
        o << " --spatial_dim " << dims;
    o << " -n " << x.Lens()[0] << " -c " << x.Lens()[1];
    if(dims == 1)
    {
        o << " -W " << x.Lens()[2] << " -k " << k << " -x " << w.Lens()[2] << " -q " << pd[0] << " -v "
          << st[0] << " -j " << dl[0];
    }
    else
    {
        const int hi = dims == 3 ? 1 : 0;   // index of the h dim among the spatial dims
        const int wi = hi + 1;
        if(dims == 3)
            o << " -! " << x.Lens()[2];
        o << " -H " << x.Lens()[2 + hi] << " -W " << x.Lens()[2 + wi] << " -k " << k;
        if(dims == 3)
            o << " -@ " << w.Lens()[2];
        o << " -y " << w.Lens()[2 + hi] << " -x " << w.Lens()[2 + wi];
        if(dims == 3)
            o << " -$ " << pd[0] << " -# " << st[0] << " -^ " << dl[0];
        o << " -p " << pd[hi] << " -q " << pd[wi] << " -u " << st[hi] << " -v " << st[wi] << " -l "
          << dl[hi] << " -j " << dl[wi];
    }
    o << " -m " << (conv.IsTranspose() ? "trans" : "conv") << " -g " << conv.GroupCount();
    if(conv.IsTranspose())
    {
        const auto& adj = conv.TransposeOutputPadding();
        if(dims == 3)
            o << " -% " << adj[0];
        if(dims >= 2)
            o << " -Y " << adj[dims == 3 ? 1 : 0];
        o << " -X " << adj[dims - 1];
    }
    const int f = call.direction == UserDirection::Forward ? 1
                  : call.direction == UserDirection::BackwardData ? 2 : 4;
    o << " -F " << f << " -t 1";
    // Channels-last tensors: MIOpenDriver's layout flags (NCHW is its default).
    if(ProblemOf(conv, call).IsPackedNHWC())
    {
        const char* lay = dims == 3 ? "NDHWC" : dims == 2 ? "NHWC" : "NWC";
        o << " --in_layout " << lay << " --fil_layout " << lay << " --out_layout " << lay;
    }
    return o.str();
}

} // namespace miopen
