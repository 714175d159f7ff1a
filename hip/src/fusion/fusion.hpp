// MIOpen's fusion API: the plan (an ordered chain of operators over one input tensor), its
// operators, the operator arguments, and the fused solvers that compile picks. A plan's operators
// are owned by it and registered as live objects, so a destroyed plan's operators are a BadParm.
//
// Chains a plan accepts (vertical fusion only), and the fused solver that runs each:
//   ConvForward [BiasForward] [BatchNormInference] [ActivForward]   ConvEpilogueFused
//   BatchNormInference ActivForward                                 BnFwdInferActivationFused
//   BatchNormFwdTrain ActivForward                                  BnFwdTrgActivationFused
//   BatchNormBwdTrain ActivBackward                                 BnBwdTrgActivationFused
// (a batch norm alone is accepted too: the same solvers with an identity activation).
// miopenConvolutionBiasActivationForward adds TensorScaleAdd (alpha2 * z) after the convolution.
#pragma once

#include "conv/conv_descriptor.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"

#include <miopen/miopen.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace miopen {

/// MIOpen's miopenFusionOp_t (internal in MIOpen: it names operators in messages here).
enum class FusionOpKind
{
    ConvForward        = 0,
    ActivForward       = 1,
    BatchNormInference = 2,
    BiasForward        = 3,
    BatchNormFwdTrain  = 4,
    BatchNormBwdTrain  = 5,
    ActivBackward      = 6,
    TensorScaleAdd     = 7,
};

/// "miopenFusionOpConvForward", ...
const char* FusionOpName(FusionOpKind kind);

class FusionPlan;
class ConvSolver;

class FusionOp : public miopenFusionOpDescriptor
{
public:
    FusionOpKind kind;
    int index = 0;
    uint64_t serial = 0;       // unique in the process: arguments set for a destroyed operator
                               // never match a new one at the same address
    FusionPlan* plan = nullptr;
    TensorDescriptor in, out; // the tensor the op reads from the chain and the one it passes on

    ConvolutionDescriptor conv;  // ConvForward
    TensorDescriptor w;          // ConvForward
    TensorDescriptor param;      // BiasForward: bDesc; batch norms: the parameter descriptor
    miopenActivationMode_t activ_mode = miopenActivationPASTHRU;
    miopenBatchNormMode_t bn_mode     = miopenBNSpatial;
    bool running_mean_variance        = false; // BatchNormFwdTrain

    /// "miopenFusionOpBiasForward (op 1)"
    std::string Name() const;
};

/// The arguments one miopenSetOpArgs* call gives an operator.
struct FusionOpArgs
{
    FusionOpKind kind;
    uint64_t serial = 0;        // the operator's
    double alpha = 1.0, beta = 0.0;
    const void* w = nullptr;    // ConvForward
    const void* bias = nullptr; // BiasForward; batch norms: bnBias
    const void* z = nullptr;    // TensorScaleAdd
    const void* x = nullptr;    // BatchNormBwdTrain
    const void* y = nullptr;    // ActivBackward
    const void* scale = nullptr;
    const void* mean = nullptr; // estimatedMean / savedMean (backward)
    const void* var = nullptr;  // estimatedVariance / savedInvVariance (backward)
    void* saved_mean = nullptr, *saved_inv_var = nullptr;
    void* running_mean = nullptr, *running_var = nullptr;
    void* dscale = nullptr, *dbias = nullptr;
    double activ_alpha = 0.0, activ_beta = 0.0, activ_gamma = 0.0;
    double exp_avg_factor = 0.0, epsilon = 0.0;
};

class OperatorArgs : public miopenOperatorArgs
{
public:
    /// Keyed by the operator object (not its index, as MIOpen does), so one args object can serve
    /// several plans without their operators overwriting each other.
    std::map<const FusionOp*, FusionOpArgs> args;
};

class FusionPlan : public miopenFusionPlanDescriptor
{
public:
    FusionPlan(miopenFusionDirection_t direction, const TensorDescriptor& input);
    ~FusionPlan();
    FusionPlan(const FusionPlan&) = delete;
    FusionPlan& operator=(const FusionPlan&) = delete;

    /// Appends an operator whose input is the chain's current output; `configure` fills its
    /// kind-specific fields and its output descriptor (it may throw: nothing is added then).
    template <class F>
    FusionOp& Add(FusionOpKind kind, F&& configure)
    {
        auto op = std::make_unique<FusionOp>();
        op->kind  = kind;
        op->index = static_cast<int>(ops_.size());
        op->serial = NextOpSerial();
        op->plan  = this;
        op->in    = Output();
        op->out   = op->in;
        configure(*op);
        return Register(std::move(op));
    }

    const TensorDescriptor& Input() const { return input_; }
    const TensorDescriptor& Output() const { return ops_.empty() ? input_ : ops_.back()->out; }
    const std::vector<std::unique_ptr<FusionOp>>& Ops() const { return ops_; }
    FusionOp& GetOp(int index) const;

    /// The convolution operator, or null.
    const FusionOp* Conv() const;
    void SetConvAlgo(miopenConvFwdAlgorithm_t algo);
    /// The algorithms whose solvers can run the plan's convolution (no workspace), best first.
    std::vector<miopenConvFwdAlgorithm_t> ConvAlgos(const Handle& handle) const;
    /// miopenFusionPlanConvolutionGetAlgo's list: a compiled plan's, on the device it was
    /// compiled for (the algorithm compile picked first); before compile, the CPU's.
    std::vector<miopenConvFwdAlgorithm_t> ConvAlgos() const;
    size_t WorkspaceSize(const Handle& handle, miopenConvFwdAlgorithm_t algo) const;

    /// Validates the chain and picks the fused solver; UnsupportedOp naming the operator and the
    /// reason otherwise (the plan is then marked failed).
    void Compile(const Handle& handle);
    /// Runs a compiled plan. Every argument is checked before anything is written.
    void Execute(Handle& handle, const TensorDescriptor& inputDesc, const void* input,
                 const TensorDescriptor& outputDesc, void* output, const OperatorArgs& args,
                 void* workspace = nullptr, size_t workspace_size = 0) const;

    /// The fused solver compile picked ("" before a successful compile).
    const std::string& SolverName() const { return solver_; }

private:
    /// GPU: `bytes` of device memory for the fold's scale and shift (2 * K floats) and the
    /// epilogue-carrying solver's workspace, for the handle's device and stream, allocated by
    /// the first Execute there and kept until the plan is destroyed (never an allocation per
    /// Execute; one per stream, so a plan executed on two streams at once never shares one).
    void* FoldBuffer(const Handle& handle, size_t bytes) const;
    struct FoldBuf
    {
        int ordinal;
        void* stream;
        size_t bytes;
        void* p;
    };
    mutable std::vector<FoldBuf> fold_bufs_;
    mutable std::mutex fold_mutex_;
    static uint64_t NextOpSerial();
    FusionOp& Register(std::unique_ptr<FusionOp> op);
    enum class State
    {
        NotCompiled,
        Compiled,
        Failed
    };
    TensorDescriptor input_;
    std::vector<std::unique_ptr<FusionOp>> ops_;
    std::optional<miopenConvFwdAlgorithm_t> requested_algo_;
    State state_ = State::NotCompiled;
    std::string failure_;
    std::string solver_;
    miopenConvFwdAlgorithm_t algo_ = miopenConvolutionFwdAlgoDirect;
    std::vector<miopenConvFwdAlgorithm_t> compiled_algos_;   // UsableAlgos on the compiled device
    /// GPU: the usable solver of algo_ that carries the epilogue in its kernel (best estimate),
    /// or null (the convolution, then the one-pass epilogue).
    const ConvSolver* epi_solver_ = nullptr;
    size_t epi_workspace_         = 0;   // its workspace (the plan's buffer when the caller's is smaller)
};

FusionPlan& DerefFusionPlan(miopenFusionPlanDescriptor_t plan, const char* name);
FusionOp& DerefFusionOp(miopenFusionOpDescriptor_t op, const char* name);
OperatorArgs& DerefOperatorArgs(miopenOperatorArgs_t args, const char* name);

// The miopenCreateOp* calls' checks and settings, run inside FusionPlan::Add (BadParm naming the
// parameter; nothing is added then).
void ConfigureConvOp(FusionOp& op, const ConvolutionDescriptor& conv, const TensorDescriptor& w);
void ConfigureBiasOp(FusionOp& op, const TensorDescriptor& b, const char* name);
/// param null: the derived fp32 parameter descriptor (training forward and backward).
void ConfigureBnOp(FusionOp& op, int mode, const TensorDescriptor* param, const char* name);
void ConfigureActivOp(FusionOp& op, int mode);

/// miopenSetOpArgs*: checks that `op` is of `kind` and stores the arguments.
void SetOpArgs(OperatorArgs& args, const FusionOp& op, FusionOpKind kind, const char* op_name,
               const FusionOpArgs& values);

/// miopenConvolutionBiasActivationForward: y = act(alpha1 * conv(x) + alpha2 * z + bias).
void ConvolutionBiasActivationForward(
    Handle& handle, const void* alpha1, const TensorDescriptor& xDesc, const void* x,
    const TensorDescriptor& wDesc, const void* w, const ConvolutionDescriptor& convDesc,
    miopenConvFwdAlgorithm_t algo, void* workspace, size_t workspaceSizeInBytes,
    const void* alpha2, const TensorDescriptor* zDesc, const void* z,
    const TensorDescriptor& biasDesc, const void* bias, miopenActivationMode_t mode,
    double activAlpha, double activBeta, double activGamma, const TensorDescriptor& yDesc,
    void* y);

} // namespace miopen
