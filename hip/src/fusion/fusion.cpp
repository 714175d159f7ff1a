// The fusion plan: operators, their arguments, compile (the chain checked against the fused
// solvers' rules, MIOpen's switches honoured) and execute. The convolution and batch-norm inference
// chains fold their epilogue into a per-channel scale and shift applied in one pass (the CPU's
// cpu::ConvEpilogue, per block of y inside a solver that writes y in blocks
// (ConvArgs::cpu_epilogue), else one pass; the GPU's epilogue pass, or the convolution kernel's
// store where its solver carries the epilogue), rounded once; the batch-norm training and
// backward chains pass the activation to the batch norm's own kernels (applied as y is stored;
// the backward's dy' = act'(bn(x)) * dy on the fly); what does not fold runs through the ops' own
// front doors (convolution, OpTensor, bias, batch norm, activation), in place on the plan's
// output after its first operator, equal to the same ops run one by one. Every argument of every
// operator is checked before the first one writes.
#include "fusion/fusion.hpp"
#include "fusion/fusion_args.hpp"

#include "activation/activation.hpp"
#include "batchnorm/batchnorm.hpp"
#include "bias/bias.hpp"
#include "conv/conv_device.hpp"
#include "conv/convolution.hpp"
#include "conv/find_db.hpp"
#include "conv/registry.hpp"
#include "core/env.hpp"
#include "core/logging.hpp"
#include "core/object.hpp"
#include "core/op_call.hpp"
#include "gpu/runtime.hpp"
#include "tensor/tensor_ops.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cmath>
#include <map>

namespace miopen {

const char* FusionOpName(FusionOpKind kind)
{
    switch(kind)
    {
    case FusionOpKind::ConvForward: return "miopenFusionOpConvForward";
    case FusionOpKind::ActivForward: return "miopenFusionOpActivForward";
    case FusionOpKind::BatchNormInference: return "miopenFusionOpBatchNormInference";
    case FusionOpKind::BiasForward: return "miopenFusionOpBiasForward";
    case FusionOpKind::BatchNormFwdTrain: return "miopenFusionOpBatchNormFwdTrain";
    case FusionOpKind::BatchNormBwdTrain: return "miopenFusionOpBatchNormBwdTrain";
    case FusionOpKind::ActivBackward: return "miopenFusionOpActivBackward";
    case FusionOpKind::TensorScaleAdd: return "miopenFusionOpTensorScaleAdd";
    }
    return "unknown";
}

std::string FusionOp::Name() const { return Concat(FusionOpName(kind), " (op ", index, ")"); }

namespace {

const char* SetterOf(FusionOpKind kind)
{
    switch(kind)
    {
    case FusionOpKind::ConvForward: return "miopenSetOpArgsConvForward";
    case FusionOpKind::ActivForward: return "miopenSetOpArgsActivForward";
    case FusionOpKind::BatchNormInference: return "miopenSetOpArgsBatchNormInference";
    case FusionOpKind::BiasForward: return "miopenSetOpArgsBiasForward";
    case FusionOpKind::BatchNormFwdTrain: return "miopenSetOpArgsBatchNormForward";
    case FusionOpKind::BatchNormBwdTrain: return "miopenSetOpArgsBatchNormBackward";
    case FusionOpKind::ActivBackward: return "miopenSetOpArgsActivBackward";
    case FusionOpKind::TensorScaleAdd: return "miopenConvolutionBiasActivationForward";
    }
    return "unknown";
}

const char* AlgoName(int algo)
{
    switch(algo)
    {
    case miopenConvolutionFwdAlgoGEMM: return "miopenConvolutionFwdAlgoGEMM";
    case miopenConvolutionFwdAlgoDirect: return "miopenConvolutionFwdAlgoDirect";
    case miopenConvolutionFwdAlgoFFT: return "miopenConvolutionFwdAlgoFFT";
    case miopenConvolutionFwdAlgoWinograd: return "miopenConvolutionFwdAlgoWinograd";
    case miopenConvolutionFwdAlgoImplicitGEMM: return "miopenConvolutionFwdAlgoImplicitGEMM";
    default: return "unknown";
    }
}

/// The fused solvers: MIOpen's names and switches for the batch-norm chains; the convolution
/// chains' solver is ours (its switch by README's rule).
struct FusedSolver
{
    const char* name;
    const char* env;
};
constexpr FusedSolver kConvEpilogue{"ConvEpilogueFused", "MIOPEN_DEBUG_CONV_EPILOGUE_FUSED"};
constexpr FusedSolver kBnInferActiv{"BnFwdInferActivationFused", "MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED"};
constexpr FusedSolver kBnFwdTrgActiv{"BnFwdTrgActivationFused", "MIOPEN_DEBUG_BN_FWDTRG_ACTIV_FUSED"};
constexpr FusedSolver kBnBwdTrgActiv{"BnBwdTrgActivationFused", "MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED"};

/// MIOPEN_FIND_MODE_FUSION: validated with MIOpen's vocabulary (default FAST, as in MIOpen).
/// Plans pick their convolution's solver without benchmarking in every mode (the find-db record
/// of the problem first, else the best estimate), so the value changes nothing else.
void CheckFindModeFusion()
{
    const auto v = env::Value("MIOPEN_FIND_MODE_FUSION");
    if(!v)
        return;
    std::string s = *v;
    std::transform(s.begin(), s.end(), s.begin(), ::toupper);
    for(const char* ok : {"NORMAL", "1", "FAST", "2", "HYBRID", "3", "DYNAMIC_HYBRID", "5"})
        if(s == ok)
            return;
    ThrowBadParm("MIOPEN_FIND_MODE_FUSION='", *v,
                 "': expected NORMAL (1), FAST (2), HYBRID (3) or DYNAMIC_HYBRID (5)");
}

/// Packed strides for `lens` in the layout of `like`: channels-last when like's C stride is 1
/// and it is not packed channels-first, else row-major.
std::vector<size_t> StridesLike(const TensorDescriptor& like, const std::vector<size_t>& lens)
{
    const auto& ls = like.Strides();
    const bool channels_last = lens.size() >= 3 && ls.size() == lens.size() && ls[1] == 1 &&
                               !like.IsPacked() && like.Lens()[1] > 1;
    if(!channels_last)
        return PackedStrides(lens);
    return ChannelsLastStrides(lens);
}

ConvCall PlanConvCall(const FusionOp& c, const TensorDescriptor& in, const void* x,
                      const TensorDescriptor& out, const void* y, const void* w)
{
    return ConvCall{UserDirection::Forward, in, "inputDesc", x, c.w, "wDesc", w,
                    out, "outputDesc", y};
}

/// Per algorithm, the best estimate among the solvers that can run the problem without workspace.
std::vector<std::pair<int, double>> UsableAlgos(const Handle& handle, const ConvProblem& p,
                                                std::vector<SolverStatus>* survey_out)
{
    const ConvContext ctx{handle};
    auto survey = SurveySolvers(ctx, p, 0);
    std::map<int, double> best;
    for(const auto& st : survey)
    {
        if(!st.usable)
            continue;
        const int algo  = static_cast<int>(st.solver->Algorithm());
        const double ms = st.solver->EstimateMs(ctx, p);
        auto it         = best.find(algo);
        if(it == best.end() || ms < it->second)
            best[algo] = ms;
    }
    std::vector<std::pair<int, double>> out(best.begin(), best.end());
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.second < b.second; });
    if(survey_out != nullptr)
        *survey_out = std::move(survey);
    return out;
}

bool IsIdentityBlend(const FusionOpArgs& a) { return a.alpha == 1.0 && a.beta == 0.0; }

/// Element i (along C) of a host parameter tensor of type t.
float ParamAt(const void* p, const TensorDescriptor& d, size_t c)
{
    const size_t i = c * d.Strides()[1];
    switch(d.Type())
    {
    case miopenHalf: return ToFloat(static_cast<const Half*>(p)[i]);
    case miopenBFloat16: return ToFloat(static_cast<const BFloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
    }
}

/// The activation operator's parameters as its arguments give them.
ActivationParams ActOf(const FusionOp& op, const FusionOpArgs& v)
{
    return {op.activ_mode, static_cast<float>(v.activ_alpha), static_cast<float>(v.activ_beta),
            static_cast<float>(v.activ_gamma)};
}

/// The operators of a chain from `first` on as the fold sees them, whatever the device: the
/// residual (TensorScaleAdd), the per-channel affine steps in order (a bias; a spatial batch-norm
/// inference), the activation. The CPU's fold (BuildCpuEpilogue) and the GPU's (GpuFold) both
/// consume it.
struct EpilogueChain
{
    const void* z                = nullptr;
    const TensorDescriptor* zDesc = nullptr;
    float alpha2                 = 0.0f;
    std::vector<EpilogueFoldParam> steps;
    bool has_act = false;
    ActivationParams act{};
};

/// Whether the operators from `first` on fold: no per-activation batch norm (compile has checked
/// the order and the kinds).
bool Foldable(const std::vector<std::unique_ptr<FusionOp>>& ops, size_t first)
{
    for(size_t i = first; i < ops.size(); ++i)
        if(ops[i]->kind == FusionOpKind::BatchNormInference && ops[i]->bn_mode != miopenBNSpatial)
            return false;
    return true;
}

/// Walks the chain from `first` on into `out`; false (out unusable) where it does not fold.
bool WalkChain(const std::vector<std::unique_ptr<FusionOp>>& ops,
               const std::vector<const FusionOpArgs*>& a, size_t first, EpilogueChain& out)
{
    out = EpilogueChain{};
    for(size_t i = first; i < ops.size(); ++i)
    {
        const FusionOp& op    = *ops[i];
        const FusionOpArgs& v = *a[i];
        switch(op.kind)
        {
        case FusionOpKind::TensorScaleAdd:
            out.z      = v.z;
            out.zDesc  = &op.param;
            out.alpha2 = static_cast<float>(v.alpha);
            break;
        case FusionOpKind::BiasForward: {
            EpilogueFoldParam f;
            f.desc = &op.param;
            f.bias = v.bias;
            out.steps.push_back(f);
            break;
        }
        case FusionOpKind::BatchNormInference: {
            if(op.bn_mode != miopenBNSpatial)
                return false;
            EpilogueFoldParam f;
            f.batch_norm = true;
            f.desc       = &op.param;
            f.bias = v.bias, f.scale = v.scale, f.mean = v.mean, f.var = v.var;
            f.epsilon = v.epsilon;
            out.steps.push_back(f);
            break;
        }
        case FusionOpKind::ActivForward:
            out.has_act = true;
            out.act     = ActOf(op, v);
            break;
        default: return false;
        }
    }
    return true;
}

/// The CPU's fused epilogue of a chain (cpu/fusion_epilogue.cpp): the operators from `first` on
/// (WalkChain) folded on the host into one per-channel affine and the activation, read from
/// `in` (null: y in place). False where it does not apply: per-activation batch norm, a residual
/// with other strides than y.
bool BuildCpuEpilogue(const std::vector<std::unique_ptr<FusionOp>>& ops,
                      const std::vector<const FusionOpArgs*>& a, const TensorDescriptor& yDesc,
                      ConvEpilogueArgs& e, size_t first = 1, const void* in = nullptr)
{
    EpilogueChain chain;
    if(!WalkChain(ops, a, first, chain))
        return false;
    if(chain.z != nullptr && chain.zDesc->Strides() != yDesc.Strides())
        return false;
    const size_t K = yDesc.Lens()[1];
    e.in     = in;
    e.z      = chain.z;
    e.alpha2 = chain.alpha2;
    e.scale.assign(K, 1.0f);
    e.shift.assign(K, 0.0f);
    for(const EpilogueFoldParam& f : chain.steps)
    {
        const TensorDescriptor& d = *f.desc;
        if(!f.batch_norm)
        {
            for(size_t c = 0; c < K; ++c)
                e.shift[c] += ParamAt(f.bias, d, c);
            continue;
        }
        for(size_t c = 0; c < K; ++c)
        {
            const double inv = 1.0 / std::sqrt(static_cast<double>(ParamAt(f.var, d, c)) + f.epsilon);
            const double sc  = ParamAt(f.scale, d, c) * inv;
            const double b   = ParamAt(f.bias, d, c) - ParamAt(f.mean, d, c) * sc;
            e.scale[c]       = static_cast<float>(e.scale[c] * sc);
            e.shift[c]       = static_cast<float>(e.shift[c] * sc + b);
        }
    }
    e.has_act = chain.has_act;
    e.act     = chain.act;
    return true;
}

/// BuildCpuEpilogue's epilogue applied in one pass over y (false, nothing written, where it does
/// not apply: y neither packed NC[D]HW nor packed N[D]HWC).
bool CpuConvEpilogue(const ConvEpilogueArgs& e, const TensorDescriptor& yDesc, void* y)
{
    return DispatchFloating(yDesc.Type(), "outputDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return cpu::ConvEpilogue<T>(e, yDesc, static_cast<T*>(y));
    });
}

/// The GPU's fold: the operators from `first` on (WalkChain) as the epilogue's arguments `e`,
/// the per-channel scale and shift computed on the device by one tiny kernel into the plan's
/// buffer `buf` (2 * K floats), or with `queue` false left in e.fold for the epilogue pass to
/// fold itself. False (nothing queued) for a per-activation batch norm.
bool GpuFold(Handle& handle, const std::vector<std::unique_ptr<FusionOp>>& ops,
             const std::vector<const FusionOpArgs*>& a, size_t first, size_t K, float* buf,
             GpuEpilogueArgs& e, bool queue = true)
{
#if MIOPEN_CY_HAVE_GPU
    EpilogueChain chain;
    if(!WalkChain(ops, a, first, chain))
        return false;
    e.scale   = buf;
    e.shift   = buf + K;
    e.z       = chain.z;
    e.zDesc   = chain.zDesc;
    e.alpha2  = chain.alpha2;
    e.has_act = chain.has_act;
    e.act     = chain.act;
    if(!queue)
    {
        e.fold_pending = true;
        e.fold         = std::move(chain.steps);
        return true;
    }
    RunOp(
        handle, [] {}, [&](auto& h) { gpu::FoldEpilogue(h, K, chain.steps, buf, buf + K); });
    return true;
#else
    (void)handle, (void)ops, (void)a, (void)first, (void)K, (void)buf, (void)e, (void)queue;
    return false;
#endif
}

/// The GPU's fused epilogue as one pass (kernels/fusion/epilogue_pass.hip) from `in` (inDesc)
/// into y, the fold left to the pass (GpuFold's e.fold). False (nothing queued) where GpuFold
/// refuses.
bool GpuEpilogue(Handle& handle, const std::vector<std::unique_ptr<FusionOp>>& ops,
                 const std::vector<const FusionOpArgs*>& a, size_t first,
                 const TensorDescriptor& inDesc, const void* in, const TensorDescriptor& yDesc,
                 void* y, float* buf)
{
#if MIOPEN_CY_HAVE_GPU
    GpuEpilogueArgs e;
    if(!GpuFold(handle, ops, a, first, yDesc.Lens()[1], buf, e, false))
        return false;
    DispatchFloating(yDesc.Type(), "outputDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunOp(
            handle, [] {},
            [&](auto& h) {
                gpu::EpiloguePass<T>(h, e, inDesc, static_cast<const T*>(in), yDesc,
                                     static_cast<T*>(y));
            });
    });
    return true;
#else
    (void)handle, (void)ops, (void)a, (void)first, (void)inDesc, (void)in, (void)yDesc, (void)y,
        (void)buf;
    return false;
#endif
}

} // namespace

// ---- The plan ----

FusionPlan::FusionPlan(miopenFusionDirection_t direction, const TensorDescriptor& input)
{
    const int dir = static_cast<int>(direction);
    if(dir == miopenHorizontalFusion)
        ThrowNotImplemented("fuseDirection = miopenHorizontalFusion: horizontal fusion is not "
                            "implemented (as in MIOpen); use miopenVerticalFusion");
    if(dir != miopenVerticalFusion)
        ThrowBadParm("fuseDirection = ", dir, " is not a miopenFusionDirection_t value");
    const auto t = input.Type();
    if(t != miopenFloat && t != miopenHalf && t != miopenBFloat16)
        ThrowBadParm("inputDesc is ", input.ToString(),
                     "; a fusion plan takes miopenFloat, miopenHalf or miopenBFloat16 data");
    if(input.NumDims() != 4 && input.NumDims() != 5)
        ThrowBadParm("inputDesc has ", input.NumDims(), " dims; a fusion plan takes 4 or 5");
    input_ = input;
}

FusionPlan::~FusionPlan()
{
    for(const auto& b : fold_bufs_)
    {
        try
        {
            gpu::DeviceScope scope(b.ordinal);
            gpu::StreamSynchronize(b.stream);
            gpu::Free(b.p);
        }
        catch(...)
        {
        }
    }
    for(const auto& op : ops_)
        registry::Remove(static_cast<const void*>(static_cast<miopenFusionOpDescriptor*>(op.get())));
}

void* FusionPlan::FoldBuffer(const Handle& handle, size_t bytes) const
{
    std::lock_guard<std::mutex> lock(fold_mutex_);
    for(auto& b : fold_bufs_)
    {
        if(b.ordinal != handle.Ordinal() || b.stream != handle.Stream())
            continue;
        if(b.bytes >= bytes)
            return b.p;
        // grown (a larger workspace than an earlier execute's): the old one once the stream
        // is done with it
        gpu::DeviceScope scope(b.ordinal);
        gpu::StreamSynchronize(b.stream);
        gpu::Free(b.p);
        b.p     = nullptr;
        b.p     = gpu::Malloc(bytes, "the fusion plan's folded scale and shift");
        b.bytes = bytes;
        return b.p;
    }
    gpu::DeviceScope scope(handle.Ordinal());
    void* p = gpu::Malloc(bytes, "the fusion plan's folded scale and shift");
    fold_bufs_.push_back({handle.Ordinal(), handle.Stream(), bytes, p});
    return p;
}

uint64_t FusionPlan::NextOpSerial()
{
    static std::atomic<uint64_t> next{1};
    return next++;
}

FusionOp& FusionPlan::Register(std::unique_ptr<FusionOp> op)
{
    registry::Add(static_cast<miopenFusionOpDescriptor*>(op.get()), typeid(FusionOp));
    ops_.push_back(std::move(op));
    state_ = State::NotCompiled;
    return *ops_.back();
}

FusionOp& FusionPlan::GetOp(int index) const
{
    if(index < 0 || static_cast<size_t>(index) >= ops_.size())
        ThrowBadParm("op_idx = ", index, " is out of bounds: the plan has ", ops_.size(),
                     " operator(s)");
    return *ops_[static_cast<size_t>(index)];
}

const FusionOp* FusionPlan::Conv() const
{
    for(const auto& op : ops_)
        if(op->kind == FusionOpKind::ConvForward)
            return op.get();
    return nullptr;
}

void FusionPlan::SetConvAlgo(miopenConvFwdAlgorithm_t algo)
{
    requested_algo_ = algo;
    state_          = State::NotCompiled;
}

std::vector<miopenConvFwdAlgorithm_t> FusionPlan::ConvAlgos() const
{
    if(state_ == State::Compiled && Conv() != nullptr)
        return compiled_algos_;
    // Not compiled: the plan has no device yet; the algorithms are those of the CPU's solvers
    // (the device every build has), and compile checks the chosen one on the handle's device.
    Handle cpu;
    return ConvAlgos(cpu);
}

std::vector<miopenConvFwdAlgorithm_t> FusionPlan::ConvAlgos(const Handle& handle) const
{
    const FusionOp* c = Conv();
    if(c == nullptr)
        ThrowBadParm("fusePlanDesc has no convolution operator (miopenCreateOpConvForward)");
    const ConvProblem p = ConvProblemOf(c->conv, PlanConvCall(*c, c->in, nullptr, c->out, nullptr, nullptr));
    std::vector<miopenConvFwdAlgorithm_t> out;
    for(const auto& [algo, ms] : UsableAlgos(handle, p, nullptr))
        out.push_back(static_cast<miopenConvFwdAlgorithm_t>(algo));
    return out;
}

size_t FusionPlan::WorkspaceSize(const Handle&, miopenConvFwdAlgorithm_t) const
{
    // A plan runs its convolution with a solver that needs no workspace (compile picks one), as
    // miopenExecuteFusionPlan takes none.
    return 0;
}

void FusionPlan::Compile(const Handle& handle)
{
    state_  = State::Failed;
    solver_.clear();
    epi_solver_ = nullptr;
    auto fail = [&](const FusionOp* op, const auto&... why) {
        failure_ = op != nullptr ? Concat(op->Name(), ": ", why...) : Concat(why...);
        Throw(miopenStatusUnsupportedOp, failure_);
    };
    CheckFindModeFusion();
    if(ops_.empty())
        fail(nullptr, "the plan has no operators");

    const FusionOp& first = *ops_[0];
    const FusedSolver* solver = nullptr;
    if(first.kind == FusionOpKind::ConvForward)
    {
        solver = &kConvEpilogue;
        // ConvForward [TensorScaleAdd] [BiasForward] [BatchNormInference] [ActivForward]
        const FusionOpKind order[] = {FusionOpKind::TensorScaleAdd, FusionOpKind::BiasForward,
                                      FusionOpKind::BatchNormInference, FusionOpKind::ActivForward};
        size_t next = 0;
        for(size_t i = 1; i < ops_.size(); ++i)
        {
            const FusionOp& op = *ops_[i];
            while(next < 4 && order[next] != op.kind)
                ++next;
            if(next == 4)
                fail(&op, "cannot follow ", ops_[i - 1]->Name(),
                     " in a convolution chain: ConvForward [BiasForward] [BatchNormInference] "
                     "[ActivForward], each at most once, in this order");
            ++next;
        }
    }
    else if(first.kind == FusionOpKind::BatchNormInference ||
            first.kind == FusionOpKind::BatchNormFwdTrain ||
            first.kind == FusionOpKind::BatchNormBwdTrain)
    {
        const bool bwd         = first.kind == FusionOpKind::BatchNormBwdTrain;
        const FusionOpKind act = bwd ? FusionOpKind::ActivBackward : FusionOpKind::ActivForward;
        solver = first.kind == FusionOpKind::BatchNormInference ? &kBnInferActiv
                 : bwd                                          ? &kBnBwdTrgActiv
                                                                : &kBnFwdTrgActiv;
        if(ops_.size() > 1 && ops_[1]->kind != act)
            fail(ops_[1].get(), "cannot follow ", first.Name(), ": a batch-norm chain is ",
                 FusionOpName(first.kind), " [", FusionOpName(act), "]");
        if(ops_.size() > 2)
            fail(ops_[2].get(), "cannot follow ", ops_[1]->Name(), ": a batch-norm chain is ",
                 FusionOpName(first.kind), " [", FusionOpName(act), "]");
    }
    else
    {
        fail(&first, "cannot start a plan: a plan starts with miopenFusionOpConvForward or a "
                     "batch norm (inference, forward training or backward)");
    }

    if(!env::IsEnabled(solver->env))
        fail(&first, "the fused solver ", solver->name, " that runs this chain is disabled by ",
             solver->env, "=", env::Value(solver->env).value_or(""));

    if(solver == &kConvEpilogue)
    {
        const FusionOp& c = first;
        std::vector<SolverStatus> survey;
        std::vector<std::pair<int, double>> algos;
        ConvProblem* pp = nullptr;
        std::optional<ConvProblem> p;
        try
        {
            p.emplace(ConvProblemOf(c.conv, PlanConvCall(c, c.in, nullptr, c.out, nullptr, nullptr)));
            pp = &*p;
            algos = UsableAlgos(handle, *pp, &survey);
        }
        catch(const Error& e)
        {
            fail(&c, e.what());
        }
        // The GPU: the epilogue inside the convolution kernel's store where a solver carries one
        // (the chain foldable, a residual of y's layout). Such a solver may need workspace (the
        // tensor-core kernel's split reduction): the plan provides it (FoldBuffer), so it is
        // surveyed without a workspace limit. Its algorithm is preferred unless one was
        // requested; Execute runs that solver with the epilogue.
        epi_solver_ = nullptr;
        epi_workspace_ = 0;
        const bool z_ok = std::all_of(ops_.begin(), ops_.end(), [&](const auto& op) {
            return op->kind != FusionOpKind::TensorScaleAdd || op->param.Strides() == c.out.Strides();
        });
        if(handle.IsGpu() && ops_.size() > 1 && Foldable(ops_, 1) && z_ok)
        {
            const ConvContext ctx{handle};
            // A carrier's time: Find's measurement where the find-db has one (the estimates do
            // not tell a split GEMM from an unsplit one), else its estimate.
            const std::vector<FindDbEntry> recorded = find_db::Load(FindDbName(handle), pp->Key());
            auto time_of = [&](const ConvSolver& solver) {
                for(const auto& e : recorded)
                    if(e.solver == solver.Name())
                        return static_cast<double>(e.time_ms);
                return solver.EstimateMs(ctx, *pp);
            };
            double best = 0.0;
            for(const auto& st : SurveySolvers(ctx, *pp, SIZE_MAX))
            {
                if(!st.usable || !st.solver->CarriesEpilogue(ctx, *pp))
                    continue;
                if(requested_algo_ &&
                   static_cast<int>(st.solver->Algorithm()) != static_cast<int>(*requested_algo_))
                    continue;
                const double ms = time_of(*st.solver);
                if(epi_solver_ == nullptr || ms < best)
                {
                    epi_solver_    = st.solver;
                    epi_workspace_ = st.solver->WorkspaceSize(ctx, *pp);
                    best           = ms;
                }
            }
        }
        if(requested_algo_)
        {
            const int want = static_cast<int>(*requested_algo_);
            const bool ok  = epi_solver_ != nullptr ||
                            std::any_of(algos.begin(), algos.end(),
                                        [&](const auto& a) { return a.first == want; });
            if(!ok)
                fail(&c, "no enabled solver of ", AlgoName(want),
                     " (miopenFusionPlanConvolutionSetAlgo) runs this convolution without "
                     "workspace on this device");
            algo_ = *requested_algo_;
        }
        else if(epi_solver_ != nullptr)
            algo_ = static_cast<miopenConvFwdAlgorithm_t>(epi_solver_->Algorithm());
        else
        {
            if(algos.empty())
                fail(&c, "no solver can run this convolution without workspace: ",
                     ExplainNoSolver(*pp, survey));
            algo_ = static_cast<miopenConvFwdAlgorithm_t>(algos.front().first);
            // The CPU: an algorithm whose solver carries the epilogue (ConvArgs::cpu_epilogue:
            // applied to each block of y while it is in cache) is preferred unless its estimate
            // is more than kCarryMargin above the best one's: the pass over y it saves costs
            // about that on a memory-bound layer, and no more is given up for it.
            constexpr double kCarryMargin = 1.25;
            if(handle.IsCpu() && ops_.size() > 1)
            {
                const ConvContext ctx{handle};
                double best = -1.0;
                for(const auto& st : survey)
                {
                    if(!st.usable || !st.solver->CarriesCpuEpilogue())
                        continue;
                    const double ms = st.solver->EstimateMs(ctx, *pp);
                    if(ms <= kCarryMargin * algos.front().second && (best < 0.0 || ms < best))
                    {
                        best  = ms;
                        algo_ = static_cast<miopenConvFwdAlgorithm_t>(st.solver->Algorithm());
                    }
                }
            }
        }
        compiled_algos_ = {algo_};   // the algorithm compile picked, then the others
        for(const auto& a : algos)
            if(a.first != static_cast<int>(algo_))
                compiled_algos_.push_back(static_cast<miopenConvFwdAlgorithm_t>(a.first));
    }
    solver_ = solver->name;
    failure_.clear();
    state_ = State::Compiled;
}

void FusionPlan::Execute(Handle& handle, const TensorDescriptor& inputDesc, const void* input,
                         const TensorDescriptor& outputDesc, void* output,
                         const OperatorArgs& args, void* workspace, size_t workspace_size) const
{
    if(state_ == State::NotCompiled)
        ThrowBadParm("fusePlanDesc has not been compiled since its last change (call "
                     "miopenCompileFusionPlan first)");
    if(state_ == State::Failed)
        ThrowBadParm("fusePlanDesc failed to compile: ", failure_);
    if(inputDesc.Type() != input_.Type() || !inputDesc.SameLens(input_))
        ThrowBadParm("inputDesc is ", inputDesc.ToString(), "; the plan's input is ",
                     input_.ToString());
    const TensorDescriptor& out = Output();
    if(outputDesc.Type() != out.Type() || !outputDesc.SameLens(out))
        ThrowBadParm("outputDesc is ", outputDesc.ToString(), "; the plan's output is ",
                     out.ToString());

    // Every operator's arguments, checked before anything runs.
    std::vector<const FusionOpArgs*> a(ops_.size());
    for(size_t i = 0; i < ops_.size(); ++i)
    {
        const FusionOp& op = *ops_[i];
        auto it            = args.args.find(&op);
        if(it == args.args.end() || it->second.serial != op.serial)
            ThrowBadParm("args has no arguments for ", op.Name(), " (call ", SetterOf(op.kind),
                         ")");
        a[i] = &it->second;
        const FusionOpArgs& v = *a[i];
        if(op.kind == FusionOpKind::ConvForward)
        {
            if(v.beta != 0.0)
                ThrowBadParm(op.Name(), ": beta = ", v.beta,
                             "; the plan's output is written, not blended (beta must be 0)");
        }
        else if(op.kind != FusionOpKind::TensorScaleAdd && !IsIdentityBlend(v))
            ThrowBadParm(op.Name(), ": alpha = ", v.alpha, ", beta = ", v.beta,
                         "; only the convolution takes a scale (alpha = 1, beta = 0 here)");
        const std::string who = op.Name();
        auto need = [&](const void* p, const char* name) {
            if(p == nullptr)
                ThrowBadParm(who, ": ", name, " is a null pointer (", SetterOf(op.kind), ")");
        };
        auto finite = [&](double value, const char* name) {
            if(!std::isfinite(value))
                ThrowBadParm(who, ": ", name, " = ", value, " must be finite");
        };
        switch(op.kind)
        {
        case FusionOpKind::ConvForward:
            need(v.w, "w");
            CheckDataPointers(handle, {{v.w, "w"}});
            break;
        case FusionOpKind::TensorScaleAdd:
            need(v.z, "z");
            CheckDataPointers(handle, {{v.z, "z"}});
            break;
        case FusionOpKind::BiasForward:
            need(v.bias, "bias");
            CheckDataPointers(handle, {{v.bias, "bias"}});
            break;
        case FusionOpKind::ActivForward:
        case FusionOpKind::ActivBackward: {
            ActivationDescriptor check;
            check.Set(op.activ_mode, v.activ_alpha, v.activ_beta, v.activ_gamma);
            break;
        }
        case FusionOpKind::BatchNormInference:
            need(v.scale, "bnScale");
            need(v.bias, "bnBias");
            need(v.mean, "estimatedMean");
            need(v.var, "estimatedVariance");
            finite(v.epsilon, "epsilon");
            if(v.epsilon < 0)
                ThrowBadParm(who, ": epsilon = ", v.epsilon, "; must be >= 0");
            CheckDataPointers(handle, {{v.scale, "bnScale"}, {v.bias, "bnBias"},
                                       {v.mean, "estimatedMean"}, {v.var, "estimatedVariance"}});
            break;
        case FusionOpKind::BatchNormFwdTrain:
            need(v.scale, "bnScale");
            need(v.bias, "bnBias");
            if(op.running_mean_variance)
            {
                if(v.running_mean == nullptr || v.running_var == nullptr)
                    ThrowBadParm(who, ": runningMeanVariance was set at op creation but "
                                      "runningMean or runningVariance is a null pointer");
            }
            finite(v.epsilon, "epsilon");
            if(v.epsilon < 0)
                ThrowBadParm(who, ": epsilon = ", v.epsilon, "; must be >= 0");
            if(!(v.exp_avg_factor >= 0.0 && v.exp_avg_factor <= 1.0))
                ThrowBadParm(who, ": expAvgFactor = ", v.exp_avg_factor, "; must be in [0, 1]");
            CheckDataPointers(handle, {{v.scale, "bnScale"}, {v.bias, "bnBias"}},
                              {{v.saved_mean, "savedMean"}, {v.saved_inv_var, "savedInvVariance"},
                               {v.running_mean, "runningMean"}, {v.running_var, "runningVariance"}});
            break;
        case FusionOpKind::BatchNormBwdTrain:
            need(v.x, "x");
            need(v.scale, "bnScale");
            need(v.bias, "bnBias");
            need(v.dscale, "resultBnScaleDiff");
            need(v.dbias, "resultBnBiasDiff");
            need(v.mean, "savedMean");
            need(v.var, "savedInvVariance");
            CheckDataPointers(handle, {{v.x, "x"}, {v.scale, "bnScale"}, {v.bias, "bnBias"},
                                       {v.dscale, "resultBnScaleDiff"}, {v.dbias, "resultBnBiasDiff"},
                                       {v.mean, "savedMean"}, {v.var, "savedInvVariance"}});
            break;
        }
    }
    CheckDataPointers(handle, {{input, "input"}, {output, "output"}});
    if(input == output && ops_[0]->kind == FusionOpKind::ConvForward)
        ThrowBadParm("input and output are the same buffer; a convolution cannot run in place");

    const float one = 1.0f, zero = 0.0f;
    // The epilogue operators, in place on the output.
    auto epilogue = [&](const FusionOp& op, const FusionOpArgs& v) {
        switch(op.kind)
        {
        case FusionOpKind::TensorScaleAdd: {
            const float a2 = static_cast<float>(v.alpha);
            OpTensor(handle, miopenTensorOpAdd, &one, outputDesc, output, &a2, op.param, v.z, &zero,
                     outputDesc, output);
            break;
        }
        case FusionOpKind::BiasForward:
            ConvolutionForwardBias(handle, &one, op.param, v.bias, &zero, outputDesc, output);
            break;
        case FusionOpKind::BatchNormInference:
            BatchNormForwardInference(handle, op.bn_mode, &one, &zero, outputDesc, output,
                                      outputDesc, output,
                                      BnParamDescs::One(op.param, "bnScaleBiasMeanVarDesc"),
                                      v.scale, v.bias, v.mean, v.var, v.epsilon);
            break;
        case FusionOpKind::ActivForward: {
            ActivationDescriptor ad;
            ad.Set(op.activ_mode, v.activ_alpha, v.activ_beta, v.activ_gamma);
            ActivationForward(handle, ad, &one, outputDesc, output, &zero, outputDesc, output);
            break;
        }
        default: ThrowBadParm(op.Name(), " is not an epilogue operator"); // compile prevents it
        }
    };

    const FusionOp& first = *ops_[0];
    const FusionOpArgs& fa = *a[0];
    switch(first.kind)
    {
    case FusionOpKind::ConvForward: {
        const float alpha = static_cast<float>(fa.alpha);
        const ConvCall call = PlanConvCall(first, inputDesc, input, outputDesc, output, fa.w);
        miopenConvFwdAlgorithm_t algo = algo_;
        if(inputDesc.Strides() != input_.Strides() || outputDesc.Strides() != out.Strides())
        {
            // Other strides than compile saw: the compiled algorithm only if it runs them too.
            const auto algos = UsableAlgos(handle, ConvProblemOf(first.conv, call), nullptr);
            const bool ok = std::any_of(algos.begin(), algos.end(),
                                        [&](const auto& u) { return u.first == static_cast<int>(algo); });
            if(!ok && (requested_algo_ || algos.empty()))
                ThrowBadParm(first.Name(), ": no enabled solver of ", AlgoName(algo),
                             " runs the convolution of inputDesc ", inputDesc.ToString(),
                             " and outputDesc ", outputDesc.ToString(), " without workspace");
            if(!ok)
                algo = static_cast<miopenConvFwdAlgorithm_t>(algos.front().first);
        }
        // The GPU: the compiled solver that carries the epilogue, on the strides compile saw, runs
        // it in the convolution kernel's store (y written once; alpha goes into the epilogue).
        if(epi_solver_ != nullptr && handle.IsGpu() && algo == algo_ &&
           inputDesc.Strides() == input_.Strides() && outputDesc.Strides() == out.Strides())
        {
            const ConvProblem p = ConvProblemOf(first.conv, call);
            const ConvContext ctx{handle};
            if(SurveySolver(ctx, p, *epi_solver_, SIZE_MAX).usable &&
               epi_solver_->CarriesEpilogue(ctx, p))
            {
                ConvPrepareRun(handle, first.conv, call, workspace, workspace_size);
                // The solver's workspace: the caller's where it is large enough, else the plan's
                // (after the fold's scale and shift in the same buffer).
                const size_t K    = outputDesc.Lens()[1];
                const size_t at   = (2 * K * sizeof(float) + 255) / 256 * 256;
                const bool own_ws = epi_workspace_ > 0 &&
                                    (workspace == nullptr || workspace_size < epi_workspace_);
                char* buf = static_cast<char*>(FoldBuffer(handle, at + (own_ws ? epi_workspace_ : 0)));
                void* ws  = own_ws ? buf + at : workspace;
                const size_t ws_size = own_ws ? epi_workspace_ : workspace_size;
                GpuEpilogueArgs e;
                if(GpuFold(handle, ops_, a, 1, K, reinterpret_cast<float*>(buf), e))
                {
                    gpu::ConvEpilogueParams k;
                    k.scale = e.scale, k.shift = e.shift, k.z = e.z;
                    k.alpha = alpha, k.alpha2 = e.alpha2;
                    if(e.has_act)
                    {
                        k.act       = static_cast<int>(e.act.mode);
                        k.act_alpha = e.act.alpha, k.act_beta = e.act.beta,
                        k.act_gamma = e.act.gamma;
                    }
                    ConvRunSolver(handle, first.conv, call, p, *epi_solver_, 1.0, 0.0, ws, ws_size,
                                  nullptr, &k);
                    break;
                }
            }
        }
        // The CPU: the epilogue folded; a solver that writes y in blocks applies it to each block
        // while it is in cache (ConvArgs::cpu_epilogue), else one pass over y after the
        // convolution.
        ConvEpilogueArgs cpu_e;
        const bool folded = ops_.size() > 1 && handle.IsCpu() &&
                            BuildCpuEpilogue(ops_, a, outputDesc, cpu_e);
        cpu::ConvBlockEpilogue block;
        block.e = &cpu_e;
        ConvRun(handle, first.conv, call, algo, &alpha, &zero, workspace, workspace_size,
                folded ? &block : nullptr);
        if(folded && log::IsEnabled(log::Level::Info))
            log::Write(log::Level::Info, "fusion",
                       block.applied ? "the epilogue ran in the convolution solver's output blocks"
                                     : "the epilogue runs as one pass over y after the convolution");
        if(folded && (block.applied || CpuConvEpilogue(cpu_e, outputDesc, output)))
            break;
        // The GPU: the epilogue in one pass over y, in place (its parameters folded first).
        if(ops_.size() > 1 && handle.IsGpu() && Foldable(ops_, 1) &&
           GpuEpilogue(handle, ops_, a, 1, outputDesc, output, outputDesc, output,
                       static_cast<float*>(
                           FoldBuffer(handle, 2 * sizeof(float) * outputDesc.Lens()[1]))))
            break;
        for(size_t i = 1; i < ops_.size(); ++i)
            epilogue(*ops_[i], *a[i]);
        break;
    }
    case FusionOpKind::BatchNormInference:
        // The CPU: one pass reading x and writing y (batch norm folded, then the activation of
        // each block in cache) where x and y share a packed layout and the mode is spatial.
        if(handle.IsCpu() && inputDesc.Strides() == outputDesc.Strides() && input != output)
        {
            ConvEpilogueArgs e;
            if(BuildCpuEpilogue(ops_, a, outputDesc, e, 0, input) &&
               CpuConvEpilogue(e, outputDesc, output))
                break;
        }
        // The GPU: one pass reading x and writing y (any strides; 16-byte vectors where x and y
        // share a packed layout), spatial mode (per activation runs the ops one by one).
        if(handle.IsGpu() && Foldable(ops_, 0) &&
           GpuEpilogue(handle, ops_, a, 0, inputDesc, input, outputDesc, output,
                       static_cast<float*>(
                           FoldBuffer(handle, 2 * sizeof(float) * outputDesc.Lens()[1]))))
            break;
        BatchNormForwardInference(handle, first.bn_mode, &one, &zero, inputDesc, input,
                                  outputDesc, output,
                                  BnParamDescs::One(first.param, "bnScaleBiasMeanVarDesc"),
                                  fa.scale, fa.bias, fa.mean, fa.var, fa.epsilon);
        for(size_t i = 1; i < ops_.size(); ++i)
            epilogue(*ops_[i], *a[i]);
        break;
    case FusionOpKind::BatchNormFwdTrain: {
        // One pass: the activation is applied where the training kernels store y (both devices).
        std::optional<ActivationParams> act;
        if(ops_.size() > 1)
            act = ActOf(*ops_[1], *a[1]);
        BatchNormForwardTraining(handle, first.bn_mode, &one, &zero, inputDesc, input, outputDesc,
                                 output, BnParamDescs::One(first.param, "bnScale"), fa.scale,
                                 fa.bias, fa.exp_avg_factor,
                                 first.running_mean_variance ? fa.running_mean : nullptr,
                                 first.running_mean_variance ? fa.running_var : nullptr,
                                 fa.epsilon, fa.saved_mean, fa.saved_inv_var,
                                 act ? &*act : nullptr);
        break;
    }
    case FusionOpKind::BatchNormBwdTrain: {
        // input = dy (the gradient of the chain's output), output = dx. With an activation, the
        // backward kernels take dy through its derivative at the batch norm's output, recomputed
        // from x, the saved statistics, bnScale and bnBias as they go (no temporary tensor).
        std::optional<ActivationParams> act;
        if(ops_.size() > 1)
            act = ActOf(*ops_[1], *a[1]);
        BatchNormBackward(handle, first.bn_mode, &one, &zero, &one, &zero, inputDesc, fa.x,
                          inputDesc, input, outputDesc, output,
                          BnParamDescs::One(first.param, "bnScale"), fa.scale, fa.dscale,
                          fa.dbias, 0.0, fa.mean, fa.var, act ? &*act : nullptr, fa.bias);
        break;
    }
    default: ThrowBadParm(first.Name(), " cannot start a plan"); // compile prevents it
    }
}

// ---- Objects ----

FusionPlan& DerefFusionPlan(miopenFusionPlanDescriptor_t plan, const char* name)
{
    return Deref<FusionPlan>(plan, name);
}
FusionOp& DerefFusionOp(miopenFusionOpDescriptor_t op, const char* name)
{
    return Deref<FusionOp>(op, name);
}
OperatorArgs& DerefOperatorArgs(miopenOperatorArgs_t args, const char* name)
{
    return Deref<OperatorArgs>(args, name);
}

void SetOpArgs(OperatorArgs& args, const FusionOp& op, FusionOpKind kind, const char* op_name,
               const FusionOpArgs& values)
{
    if(op.kind != kind)
        ThrowBadParm(op_name, " is ", op.Name(), ", not a ", FusionOpName(kind));
    if(!std::isfinite(values.alpha) || !std::isfinite(values.beta))
        ThrowBadParm("alpha = ", values.alpha, ", beta = ", values.beta, "; must be finite");
    FusionOpArgs v = values;
    v.kind         = kind;
    v.serial       = op.serial;
    args.args[&op] = v;
}

// ---- miopenConvolutionBiasActivationForward ----

void ConvolutionBiasActivationForward(
    Handle& handle, const void* alpha1, const TensorDescriptor& xDesc, const void* x,
    const TensorDescriptor& wDesc, const void* w, const ConvolutionDescriptor& convDesc,
    miopenConvFwdAlgorithm_t algo, void* workspace, size_t workspaceSizeInBytes,
    const void* alpha2, const TensorDescriptor* zDesc, const void* z,
    const TensorDescriptor& biasDesc, const void* bias, miopenActivationMode_t mode,
    double activAlpha, double activBeta, double activGamma, const TensorDescriptor& yDesc, void* y)
{
    FusionPlan plan(miopenVerticalFusion, xDesc);
    OperatorArgs args;
    FusionOpArgs v;
    const FusionOp& conv = plan.Add(FusionOpKind::ConvForward, [&](FusionOp& op) {
        ConfigureConvOp(op, convDesc, wDesc);
    });
    v.alpha = alpha1 != nullptr ? ReadScalar(alpha1, yDesc.Type(), "alpha1") : 1.0; // MIOpen: null is 1
    v.w     = w;
    SetOpArgs(args, conv, FusionOpKind::ConvForward, "convOp", v);
    if(z != nullptr)
    {
        if(zDesc == nullptr)
            ThrowBadParm("zDesc is null but z is given");
        const FusionOp& add = plan.Add(FusionOpKind::TensorScaleAdd, [&](FusionOp& op) {
            CheckSameType(*zDesc, "zDesc", op.in, "yDesc");
            CheckSameLens(*zDesc, "zDesc", op.in, "yDesc");
            op.param = *zDesc;
        });
        FusionOpArgs za;
        za.alpha = alpha2 != nullptr ? ReadScalar(alpha2, yDesc.Type(), "alpha2") : 1.0;
        za.z     = z;
        SetOpArgs(args, add, FusionOpKind::TensorScaleAdd, "zOp", za);
    }
    const FusionOp& b = plan.Add(FusionOpKind::BiasForward,
                                 [&](FusionOp& op) { ConfigureBiasOp(op, biasDesc, "biasDesc"); });
    FusionOpArgs ba;
    ba.bias = bias;
    SetOpArgs(args, b, FusionOpKind::BiasForward, "biasOp", ba);
    const FusionOp& act = plan.Add(FusionOpKind::ActivForward,
                                   [&](FusionOp& op) { ConfigureActivOp(op, mode); });
    FusionOpArgs aa;
    aa.activ_alpha = activAlpha;
    aa.activ_beta  = activBeta;
    aa.activ_gamma = activGamma;
    SetOpArgs(args, act, FusionOpKind::ActivForward, "activOp", aa);
    plan.SetConvAlgo(algo);
    plan.Compile(handle);
    plan.Execute(handle, xDesc, x, yDesc, y, args, workspace, workspaceSizeInBytes);
}

// ---- Operator configuration (the miopenCreateOp* calls) ----

void ConfigureConvOp(FusionOp& op, const ConvolutionDescriptor& conv, const TensorDescriptor& w)
{
    if(w.Type() != op.in.Type())
        ThrowBadParm("wDesc is ", w.ToString(), "; the plan's data is ", op.in.ToString());
    const std::vector<size_t> lens = conv.ForwardOutputLens(op.in, w);
    op.conv = conv;
    op.w    = w;
    op.out.Set(op.in.Type(), lens, StridesLike(op.in, lens));
}

void ConfigureBiasOp(FusionOp& op, const TensorDescriptor& b, const char* name)
{
    std::vector<size_t> want(op.in.Lens().size(), 1);
    want[1] = op.in.Lens()[1];
    if(b.Type() != op.in.Type() || b.Lens() != want)
    {
        TensorDescriptor expected;
        expected.Set(op.in.Type(), want, {});
        ThrowBadParm(name, " is ", b.ToString(), "; the bias of ", op.in.ToString(),
                     " is ", expected.ToString());
    }
    op.param = b;
}

void ConfigureBnOp(FusionOp& op, int mode, const TensorDescriptor* param, const char* name)
{
    CheckBatchNormMode(mode, "bn_mode");
    op.bn_mode = static_cast<miopenBatchNormMode_t>(mode);
    if(param == nullptr)
    {
        DeriveBNTensorDescriptor(op.param, op.in, op.bn_mode);
        return;
    }
    const std::vector<size_t> want = DeriveBNLengths(op.in, op.bn_mode);
    if(param->Lens() != want || (param->Type() != miopenFloat && param->Type() != op.in.Type()))
        ThrowBadParm(name, " is ", param->ToString(), "; the parameters of ", op.in.ToString(),
                     " in this mode have ", want.size(), " dims of lengths (",
                     [&] {
                         std::string s;
                         for(size_t i = 0; i < want.size(); ++i)
                             s += (i ? ", " : "") + std::to_string(want[i]);
                         return s;
                     }(),
                     ") and are miopenFloat or the data's type");
    op.param = *param;
}

void ConfigureActivOp(FusionOp& op, int mode)
{
    if(mode < miopenActivationPASTHRU || mode > miopenActivationELU)
        ThrowBadParm("mode = ", mode, " is not a miopenActivationMode_t value");
    op.activ_mode = static_cast<miopenActivationMode_t>(mode);
}

} // namespace miopen
