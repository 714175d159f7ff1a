// Find 2.0: problems, find options and solutions over the legacy Find's measuring body and
// immediate mode's run-by-id. See find2.hpp.
#include "conv/find2.hpp"
#include "conv/conv_device.hpp"
#include "conv/immediate.hpp"
#include "conv/registry.hpp"
#include "core/errors.hpp"
#include "core/storage.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

namespace miopen {

const char* TensorArgumentName(int id)
{
    switch(id)
    {
    case miopenTensorConvolutionX: return "miopenTensorConvolutionX";
    case miopenTensorConvolutionW: return "miopenTensorConvolutionW";
    case miopenTensorConvolutionY: return "miopenTensorConvolutionY";
    default: return "miopenTensorArgumentIdInvalid";
    }
}

const TensorDescriptor& Problem::Tensor(int id) const
{
    const auto it = tensors.find(id);
    if(it == tensors.end())
        Throw(miopenStatusInvalidValue, "the problem has no descriptor for ", TensorArgumentName(id),
              " (miopenSetProblemTensorDescriptor)");
    return it->second;
}

ConvCall CallOf(int direction, const TensorDescriptor& x, const void* x_data, const TensorDescriptor& w,
                const void* w_data, const TensorDescriptor& y, const void* y_data)
{
    // The roles are those of the forward convolution in every direction: in the backward ones
    // X holds dx and Y holds dy (W holds dw in backward weights).
    const UserDirection d = direction == miopenProblemDirectionForward    ? UserDirection::Forward
                            : direction == miopenProblemDirectionBackward ? UserDirection::BackwardData
                                                                          : UserDirection::BackwardWeights;
    return ConvCall{d, x, "miopenTensorConvolutionX", x_data, w, "miopenTensorConvolutionW", w_data,
                    y, "miopenTensorConvolutionY", y_data};
}

std::vector<Solution> FindSolutions(Handle& handle, const Problem& problem, const FindOptions& options,
                                    size_t max_solutions)
{
    if(max_solutions < 1)
        ThrowBadParm("maxSolutions = 0; must be >= 1");
    const TensorDescriptor& x = problem.Tensor(miopenTensorConvolutionX);
    const TensorDescriptor& w = problem.Tensor(miopenTensorConvolutionW);
    const TensorDescriptor& y = problem.Tensor(miopenTensorConvolutionY);
    const ConvCall shape = CallOf(problem.direction, x, nullptr, w, nullptr, y, nullptr);
    (void)ConvProblemOf(problem.conv, shape);   // validates the descriptors before allocating
    // The guard before any scratch is queued: preallocated buffers must be this GPU's memory.
    for(const auto& [id, ptr] : options.buffers)
        CheckDevicePointer(handle, ptr, TensorArgumentName(id));
    if(options.has_workspace)
        CheckDevicePointer(handle, options.workspace, "the preallocated workspace");

    // Buffers: the preallocated ones, else scratch on the handle's device filled with small values
    // (the inputs of the benchmark runs; their results are discarded).
    const conv_device::Scope device_scope(handle);
    std::vector<std::unique_ptr<conv_device::Buffer>> scratch;
    const auto buffer = [&](int id, const TensorDescriptor& d) -> void* {
        const auto it = options.buffers.find(id);
        if(it != options.buffers.end())
            return it->second;
        // Values in [-0.5, 0.5) stored in the tensor's type (fp32, fp16 or bf16).
        const size_t n = std::max<size_t>(1, d.ElementSpace());
        const size_t bytes = n * DataTypeSize(d.Type());
        std::vector<char> values(bytes);
        DispatchFloating(d.Type(), TensorArgumentName(id), [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* v = reinterpret_cast<T*>(values.data());
            uint32_t state = 12345u + static_cast<uint32_t>(id);
            for(size_t i = 0; i < n; ++i)
            {
                state = state * 1664525u + 1013904223u;
                v[i] = FloatTo<T>(static_cast<float>(state >> 8) * (1.0f / 16777216.0f) - 0.5f);
            }
        });
        scratch.push_back(std::make_unique<conv_device::Buffer>(handle, bytes, "find 2.0 scratch tensor"));
        if(handle.IsGpu())
            gpu::Copy(scratch.back()->Get(), values.data(), bytes, handle.Stream());
        else
            std::memcpy(scratch.back()->Get(), values.data(), bytes);
        return scratch.back()->Get();
    };
    void* px = buffer(miopenTensorConvolutionX, x);
    void* pw = buffer(miopenTensorConvolutionW, w);
    void* py = buffer(miopenTensorConvolutionY, y);

    // Workspace: the preallocated one (which caps the limit), else scratch as large as the
    // largest usable solver within the limit needs.
    size_t limit = options.workspace_limit;
    void* ws = nullptr;
    size_t ws_size = 0;
    std::unique_ptr<conv_device::Buffer> ws_scratch;
    if(options.has_workspace)
    {
        limit = std::min(limit, options.workspace_size);
        ws = options.workspace;
        ws_size = limit;
    }
    else
    {
        for(const auto& s : ConvImmediateSolutions(handle, problem.conv, shape))
            if(s.workspace <= limit)
                ws_size = std::max(ws_size, s.workspace);
        if(ws_size > 0)
        {
            ws_scratch = std::make_unique<conv_device::Buffer>(handle, ws_size, "find 2.0 scratch workspace");
            ws = ws_scratch->Get();
        }
    }
    if(ws == nullptr)
        ws_size = 0;

    const ConvCall call = CallOf(problem.direction, x, px, w, pw, y, py);
    std::vector<FindDbEntry> measured = ConvMeasure(handle, problem.conv, call, ws, ws_size, options.tuning != 0);
    if(options.results_order == miopenFindResultsOrderByWorkspaceSize)
        std::stable_sort(measured.begin(), measured.end(),
                         [](const auto& l, const auto& r) { return l.workspace < r.workspace; });

    std::vector<Solution> out;
    for(const auto& e : measured)
    {
        if(out.size() == max_solutions)
            break;
        const ConvSolver* s = FindSolverByName(e.solver);
        if(s == nullptr)
            continue;
        Solution sol;
        sol.conv = problem.conv;
        sol.direction = problem.direction;
        sol.x = x;
        sol.w = w;
        sol.y = y;
        sol.solver_id = s->Id();
        sol.time_ms = e.time_ms;
        sol.workspace = e.workspace;
        out.push_back(sol);
    }
    return out;
}

SolverState ProblemSolverState(const Handle& handle, const Problem& problem, uint64_t solver_id)
{
    const ConvSolver* s = FindSolverById(solver_id);
    if(s == nullptr)
        ThrowBadParm("solverId = ", solver_id, " is not the id of any solver");
    const ConvCall shape = CallOf(problem.direction, problem.Tensor(miopenTensorConvolutionX), nullptr,
                                  problem.Tensor(miopenTensorConvolutionW), nullptr,
                                  problem.Tensor(miopenTensorConvolutionY), nullptr);
    const ConvProblem p = ConvProblemOf(problem.conv, shape);
    const ConvContext ctx{handle};
    SolverState out;
    out.switched_on = !DisabledBy(*s).has_value();
    const SolverStatus st = SurveySolver(ctx, p, *s, SIZE_MAX);
    out.applicable = st.usable;
    out.reason = st.why_not;
    if(st.usable)
        out.workspace = st.workspace;
    else if(ApplicableTo(ctx, p, *s).ok)
        out.workspace = s->WorkspaceSize(ctx, p);
    return out;
}

void RunSolution(Handle& handle, const Solution& solution, const std::vector<TensorArgument>& args,
                 void* workspace, size_t workspace_size)
{
    void* buffers[4] = {nullptr, nullptr, nullptr, nullptr};
    const TensorDescriptor* expected[4] = {nullptr, &solution.x, &solution.w, &solution.y};
    for(size_t i = 0; i < args.size(); ++i)
    {
        const int id = args[i].id;
        if(id < miopenTensorConvolutionX || id > miopenTensorConvolutionY)
            ThrowBadParm("tensors[", i, "].id = ", id, " is not a tensor of a convolution (",
                         "miopenTensorConvolutionX 1, miopenTensorConvolutionW 2, miopenTensorConvolutionY 3)");
        if(buffers[id] != nullptr)
            ThrowBadParm("tensors[", i, "]: ", TensorArgumentName(id), " is given twice");
        if(args[i].buffer == nullptr)
            ThrowBadParm("tensors[", i, "].buffer (", TensorArgumentName(id), ") is a null pointer");
        if(args[i].descriptor != nullptr)
        {
            const TensorDescriptor& d = *args[i].descriptor;
            const TensorDescriptor& e = *expected[id];
            if(d.Type() != e.Type() || d.Lens() != e.Lens() || d.Strides() != e.Strides())
                ThrowBadParm("tensors[", i, "].descriptor (", TensorArgumentName(id), ") is ",
                             d.ToString(), "; the solution was found for ", e.ToString());
        }
        buffers[id] = args[i].buffer;
    }
    for(int id = miopenTensorConvolutionX; id <= miopenTensorConvolutionY; ++id)
        if(buffers[id] == nullptr)
            Throw(miopenStatusInvalidValue, "tensor argument ", TensorArgumentName(id),
                  " is missing from tensors");
    const ConvCall call = CallOf(solution.direction, solution.x, buffers[1], solution.w, buffers[2],
                                 solution.y, buffers[3]);
    ConvImmediateRun(handle, solution.conv, call, solution.solver_id, workspace, workspace_size);
}

// ---- the saved form ---------------------------------------------------------------------------
// "MICYSOL1" | u32 version | u64 payload bytes | payload | u64 FNV-1a of everything before it.
// Payload: i32 direction, u64 solver id, f32 time, u64 workspace; the convolution (i32 mode,
// i32 dims, pads, strides, dilations as dims i32 each, i32 adj count + adj, i32 groups, i32
// deterministic, i32 fp16 alt impl); x, w, y (i32 type, i32 rank, rank u64 lens, rank u64 strides).
namespace {

constexpr char kMagic[8] = {'M', 'I', 'C', 'Y', 'S', 'O', 'L', '1'};
constexpr uint32_t kVersion = 1;

uint64_t Fnv1a(const char* data, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for(size_t i = 0; i < n; ++i)
        h = (h ^ static_cast<unsigned char>(data[i])) * 1099511628211ull;
    return h;
}

struct Writer
{
    std::vector<char> out;
    template <class T>
    void Put(T v)
    {
        const char* p = reinterpret_cast<const char*>(&v);
        out.insert(out.end(), p, p + sizeof v);
    }
    void PutInts(const std::vector<int>& v)
    {
        for(int i : v)
            Put<int32_t>(i);
    }
    void PutTensor(const TensorDescriptor& d)
    {
        Put<int32_t>(d.Type());
        Put<int32_t>(d.NumDims());
        for(size_t l : d.Lens())
            Put<uint64_t>(l);
        for(size_t s : d.Strides())
            Put<uint64_t>(s);
    }
};

struct Reader
{
    const char* p;
    size_t left;
    template <class T>
    T Get()
    {
        if(left < sizeof(T))
            ThrowBadParm("data is not a saved solution: it ends early");
        T v;
        std::memcpy(&v, p, sizeof v);
        p += sizeof v;
        left -= sizeof v;
        return v;
    }
    int Count(int max, const char* what)
    {
        const int n = Get<int32_t>();
        if(n < 0 || n > max)
            ThrowBadParm("data is not a saved solution: ", what, " = ", n);
        return n;
    }
    std::vector<int> Ints(int n)
    {
        std::vector<int> v(static_cast<size_t>(n));
        for(int& i : v)
            i = Get<int32_t>();
        return v;
    }
    TensorDescriptor Tensor()
    {
        const int type = Get<int32_t>();
        const int rank = Count(8, "tensor rank");
        std::vector<size_t> lens(static_cast<size_t>(rank)), strides(static_cast<size_t>(rank));
        for(size_t& l : lens)
            l = Get<uint64_t>();
        for(size_t& s : strides)
            s = Get<uint64_t>();
        CheckDataType(type, "saved tensor type");
        TensorDescriptor d;
        d.Set(static_cast<miopenDataType_t>(type), lens, strides);
        return d;
    }
};

} // namespace

std::vector<char> Solution::Save() const
{
    Writer body;
    body.Put<int32_t>(direction);
    body.Put<uint64_t>(solver_id);
    body.Put<float>(time_ms);
    body.Put<uint64_t>(workspace);
    body.Put<int32_t>(conv.Mode());
    body.Put<int32_t>(conv.SpatialDims());
    body.PutInts(conv.Pads());
    body.PutInts(conv.Strides());
    body.PutInts(conv.Dilations());
    body.Put<int32_t>(static_cast<int32_t>(conv.TransposeOutputPadding().size()));
    body.PutInts(conv.TransposeOutputPadding());
    body.Put<int32_t>(conv.GroupCount());
    body.Put<int32_t>(conv.GetAttribute(MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC));
    body.Put<int32_t>(conv.GetAttribute(MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL));
    body.PutTensor(x);
    body.PutTensor(w);
    body.PutTensor(y);

    Writer all;
    all.out.assign(kMagic, kMagic + sizeof kMagic);
    all.Put<uint32_t>(kVersion);
    all.Put<uint64_t>(body.out.size());
    all.out.insert(all.out.end(), body.out.begin(), body.out.end());
    all.Put<uint64_t>(Fnv1a(all.out.data(), all.out.size()));
    return all.out;
}

void Solution::Load(Solution& into, const char* data, size_t size)
{
    constexpr size_t header = sizeof kMagic + sizeof(uint32_t) + sizeof(uint64_t);
    if(size < header + sizeof(uint64_t))
        ThrowBadParm("data is not a saved solution: size = ", size, " is too small");
    if(std::memcmp(data, kMagic, sizeof kMagic) != 0)
        ThrowBadParm("data is not a saved solution: wrong magic bytes");
    Reader head{data + sizeof kMagic, size - sizeof kMagic};
    const uint32_t version = head.Get<uint32_t>();
    if(version != kVersion)
        ThrowBadParm("data is a saved solution of format version ", version, "; this build reads version ",
                     kVersion);
    const uint64_t body_size = head.Get<uint64_t>();
    if(body_size != size - header - sizeof(uint64_t))
        ThrowBadParm("data is not a saved solution: its payload says ", body_size, " bytes, size = ", size);
    uint64_t sum = 0;
    std::memcpy(&sum, data + size - sizeof sum, sizeof sum);
    if(sum != Fnv1a(data, size - sizeof sum))
        ThrowBadParm("data is a damaged saved solution: checksum mismatch");

    Reader r{data + header, static_cast<size_t>(body_size)};
    Solution s;
    s.direction = r.Get<int32_t>();
    if(s.direction < 0 || s.direction > 2)
        ThrowBadParm("data is not a saved solution: direction = ", s.direction);
    s.solver_id = r.Get<uint64_t>();
    s.time_ms = r.Get<float>();
    s.workspace = r.Get<uint64_t>();
    const int mode = r.Get<int32_t>();
    const int dims = r.Count(3, "spatial dims");
    const auto pads = r.Ints(dims);
    const auto strides = r.Ints(dims);
    const auto dilations = r.Ints(dims);
    const auto adj = r.Ints(r.Count(3, "output padding count"));
    const int groups = r.Get<int32_t>();
    const int deterministic = r.Get<int32_t>();
    const int fp16_alt = r.Get<int32_t>();
    if(mode != miopenConvolution && mode != miopenTranspose)
        ThrowBadParm("data is not a saved solution: convolution mode = ", mode);
    s.conv.Init(static_cast<miopenConvolutionMode_t>(mode), pads, strides, dilations);
    s.conv.SetTransposeOutputPadding(adj);
    s.conv.SetGroupCount(groups);
    s.conv.SetAttribute(MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, deterministic);
    s.conv.SetAttribute(MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL, fp16_alt);
    s.x = r.Tensor();
    s.w = r.Tensor();
    s.y = r.Tensor();
    if(r.left != 0)
        ThrowBadParm("data is not a saved solution: ", r.left, " bytes left over");
    if(FindSolverById(s.solver_id) == nullptr)
        ThrowBadParm("data is a saved solution of solver id ", s.solver_id, ", which this build does not have");
    (void)ConvProblemOf(s.conv, CallOf(s.direction, s.x, nullptr, s.w, nullptr, s.y, nullptr));
    into = s;
}

} // namespace miopen
