// CTC loss front doors: the descriptor, the workspace size and miopenCTCLoss, every check before
// anything is written. MIOpen's rules: probs and gradients [max time steps, batch, classes] of
// the same lengths; labels, labelLengths and inputLengths are host arrays; an input length may
// not exceed the time steps, a label id must be a class, and a label needs at least as many time
// steps as labels plus repeats (a repeat needs a blank between). Stricter than MIOpen, which
// clamps or reads out of bounds: negative lengths and label ids, a label equal to the blank, a
// blank outside the classes and a workspace smaller than the size given are refused. Types:
// fp32 and fp16 (MIOpen's miopenCTCLoss; bf16 is NotImplemented there and here).
#include "ctc/ctc.hpp"
#include "core/env.hpp"
#include "core/object.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <unordered_map>

namespace miopen {
namespace {

/// The sizes and labels of a call, checked. Throws BadParm naming the parameter at fault.
struct CtcProblem
{
    CtcArgs args;
    CtcLabels labels;
};

CtcProblem CheckCtc(const TensorDescriptor& probsDesc, const TensorDescriptor& gradientsDesc,
                    const int* labels, const int* labelLengths, const int* inputLengths, int algo,
                    const CTCLossDescriptor& desc)
{
    if(algo != MIOPEN_CTC_LOSS_ALGO_DETERMINISTIC)
        ThrowBadParm("algo = ", algo, " is not a miopenCTCLossAlgo_t value");
    if(probsDesc.NumDims() != 3)
        ThrowBadParm("probsDesc has ", probsDesc.NumDims(),
                     " dims; CTC loss takes 3: [max time steps, batch, classes]");
    CheckSameLens(probsDesc, "probsDesc", gradientsDesc, "gradientsDesc");
    CheckSameType(probsDesc, "probsDesc", gradientsDesc, "gradientsDesc");
    const auto type = probsDesc.Type();
    if(type == miopenBFloat16)
        ThrowNotImplemented("probsDesc has data type miopenBFloat16; CTC loss takes miopenFloat "
                            "or miopenHalf (MIOpen: bf16 is not implemented)");
    if(type != miopenFloat && type != miopenHalf)
        ThrowBadParm("probsDesc has data type ", DataTypeName(type),
                     "; CTC loss takes miopenFloat or miopenHalf");
    const auto& lens = probsDesc.Lens();
    const char* names[3] = {"time steps", "batch", "classes"};
    for(int d = 0; d < 3; ++d)
        if(lens[d] < 1 || lens[d] > static_cast<size_t>(std::numeric_limits<int>::max() / 4))
            ThrowBadParm("probsDesc's ", names[d], " = ", lens[d], " is not in [1, 2^29)");
    CtcProblem p;
    CtcArgs& a = p.args;
    a.T       = static_cast<int>(lens[0]);
    a.N       = static_cast<int>(lens[1]);
    a.C       = static_cast<int>(lens[2]);
    a.blank   = desc.Blank();
    a.softmax = desc.ApplySoftmax();
    if(a.blank < 0 || a.blank >= a.C)
        ThrowBadParm("blank_label_id = ", a.blank, " of ctcLossDesc is not a class of probsDesc (0 to ",
                     a.C - 1, ")");
    for(int d = 0; d < 3; ++d)
    {
        a.p_strides[d] = static_cast<int64_t>(probsDesc.Strides()[d]);
        a.g_strides[d] = static_cast<int64_t>(gradientsDesc.Strides()[d]);
    }
    if(labelLengths == nullptr)
        ThrowBadParm("labelLengths is a null pointer");
    if(inputLengths == nullptr)
        ThrowBadParm("inputLengths is a null pointer");
    CtcLabels& lab = p.labels;
    lab.input_len.assign(inputLengths, inputLengths + a.N);
    lab.label_len.assign(labelLengths, labelLengths + a.N);
    lab.label_off.resize(a.N);
    int64_t total = 0;
    for(int b = 0; b < a.N; ++b)
    {
        if(lab.input_len[b] < 0 || lab.input_len[b] > a.T)
            ThrowBadParm("inputLengths[", b, "] = ", lab.input_len[b],
                         " is not in [0, ", a.T, "] (probsDesc's time steps)");
        if(lab.label_len[b] < 0 || lab.label_len[b] > a.T)
            ThrowBadParm("labelLengths[", b, "] = ", lab.label_len[b], " is not in [0, ", a.T,
                         "] (probsDesc's time steps)");
        lab.label_off[b] = static_cast<int>(total);
        total += lab.label_len[b];
        if(total > std::numeric_limits<int>::max() / 4)
            ThrowBadParm("labelLengths add up to more than 2^29 labels");
        a.max_label = std::max(a.max_label, lab.label_len[b]);
    }
    a.total_labels = total;
    a.S            = 2 * a.max_label + 1;
    if(total > 0 && labels == nullptr)
        ThrowBadParm("labels is a null pointer (labelLengths add up to ", total, ")");
    lab.labels.assign(labels, labels + total);
    lab.next.assign(total, -1);
    lab.head.assign(total, 0);
    std::unordered_map<int, int> last; // class -> its latest label index in this item
    for(int b = 0; b < a.N; ++b)
    {
        const int off = lab.label_off[b], L = lab.label_len[b];
        int repeats = 0;
        last.clear();
        for(int j = 0; j < L; ++j)
        {
            const int i = off + j, k = lab.labels[i];
            if(k < 0 || k >= a.C)
                ThrowBadParm("labels[", i, "] = ", k, " (batch item ", b, ", label ", j,
                             ") is not a class of probsDesc (0 to ", a.C - 1, ")");
            if(k == a.blank)
                ThrowBadParm("labels[", i, "] = ", k, " (batch item ", b, ", label ", j,
                             ") is the blank label (blank_label_id of ctcLossDesc)");
            if(j > 0 && lab.labels[i - 1] == k)
                ++repeats;
            const auto it = last.find(k);
            if(it == last.end())
                lab.head[i] = 1;
            else
                lab.next[it->second] = i;
            last[k] = i;
        }
        if(static_cast<int64_t>(L) + repeats > lab.input_len[b])
            ThrowBadParm("labelLengths[", b, "] = ", L, " with ", repeats,
                         " repeated labels needs at least ", L + repeats,
                         " time steps; inputLengths[", b, "] = ", lab.input_len[b]);
    }
    return p;
}

/// MIOPEN_ENABLE_LOGGING_CMD: MIOpen's line for a CTC call, "MIOpen(CY): Command [LogCmdCTC]"
/// then the miopen-driver command (MIOpenDriver's flags: -c counts the classes without the blank).
void LogCommand(const CtcArgs& a, const CtcLabels& lab)
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
    if(!on)
        return;
    auto join = [](const std::vector<int>& v) {
        std::string out;
        for(size_t i = 0; i < v.size(); ++i)
            out += (i ? "," : "") + std::to_string(v[i]);
        return out;
    };
    const std::string line =
        Concat("MIOpen(CY): Command [LogCmdCTC] miopen-driver ctc -a 0 -b ", a.blank, " -c ",
               a.C - 1, " -m ", a.softmax ? 1 : 0, " -n ", a.N, " -l ", join(lab.label_len),
               " -k ", join(lab.input_len), "\n");
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
}

size_t WorkspaceBytes(const CtcArgs& a)
{
    // alpha, the largest region: N * T * S doubles must not overflow a size_t.
    size_t n = 0;
    if(__builtin_mul_overflow(static_cast<size_t>(a.N), static_cast<size_t>(a.T), &n) ||
       __builtin_mul_overflow(n, static_cast<size_t>(a.S) * sizeof(double), &n) ||
       n > (std::numeric_limits<size_t>::max() >> 2))
        ThrowBadParm("probsDesc's batch x time steps x (2 x the longest label + 1) is too large "
                     "for a workspace");
    return CtcLayout(a).bytes + 16; // the GPU aligns the workspace's start to 16 bytes
}

} // namespace

void CTCLossDescriptor::Set(miopenDataType_t type, int blank_label_id, bool apply_softmax_layer)
{
    if(type != miopenFloat && type != miopenHalf)
        ThrowBadParm("dataType = ", static_cast<int>(type), " (", DataTypeName(type),
                     "); CTC loss takes miopenFloat or miopenHalf");
    if(blank_label_id < 0)
        ThrowBadParm("blank_label_id = ", blank_label_id, " is negative");
    type_    = type;
    blank_   = blank_label_id;
    softmax_ = apply_softmax_layer;
}

CTCLossDescriptor& DerefCTCLoss(miopenCTCLossDescriptor_t desc, const char* name)
{
    return Deref<CTCLossDescriptor>(desc, name);
}

size_t CTCLossWorkspaceSize(const Handle&, const TensorDescriptor& probsDesc,
                            const TensorDescriptor& gradientsDesc, const int* labels,
                            const int* labelLengths, const int* inputLengths, int algo,
                            const CTCLossDescriptor& desc)
{
    const CtcProblem p =
        CheckCtc(probsDesc, gradientsDesc, labels, labelLengths, inputLengths, algo, desc);
    return WorkspaceBytes(p.args);
}

void CTCLoss(Handle& handle, const TensorDescriptor& probsDesc, const void* probs,
             const int* labels, const int* labelLengths, const int* inputLengths, void* losses,
             const TensorDescriptor& gradientsDesc, void* gradients, int algo,
             const CTCLossDescriptor& desc, void* workSpace, size_t workSpaceSize)
{
    const CtcProblem p =
        CheckCtc(probsDesc, gradientsDesc, labels, labelLengths, inputLengths, algo, desc);
    const size_t need = WorkspaceBytes(p.args);
    CheckDataPointers(handle, {{probs, "probs"}, {losses, "losses"}, {gradients, "gradients"},
                               {workSpace, "workSpace"}});
    if(workSpaceSize < need)
        ThrowBadParm("workSpaceSize = ", workSpaceSize, " is less than the ", need,
                     " bytes miopenGetCTCLossWorkspaceSize gives");
    LogCommand(p.args, p.labels);
    DispatchFloating(probsDesc.Type(), "probsDesc", [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr(!std::is_same_v<T, BFloat16>) // refused by CheckCtc
        {
            const auto* x = static_cast<const T*>(probs);
            auto* l       = static_cast<T*>(losses);
            auto* g       = static_cast<T*>(gradients);
            RunOp(
                handle, [&] { cpu::CtcLoss<T>(p.args, p.labels, x, l, g); },
                [&](auto& h) { gpu::CtcLoss<T>(h, p.args, p.labels, x, l, g, workSpace); });
        }
    });
}

} // namespace miopen
