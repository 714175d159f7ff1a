// Dropout front doors: the descriptor (Set / Restore), MIOpen's sizes, and forward / backward,
// every check before anything is written. MIOpen's rules: 1 to 5 dims, x and y (dy and dx) of
// the same lengths and type, a noise shape of x's element and dimension counts, a rate in [0, 1],
// a reserve space of at least numel(x) bytes when given or when use_mask reads it, and, where the
// mask is drawn, states for min(16384, ceil(numel / 256) * 256) of MIOpen's 24-byte XORWOW states.
// Types: fp32, fp16 and bf16 (MIOpen: fp32 and fp16); arithmetic in fp32, one rounding.
#include "dropout/dropout.hpp"
#include "core/object.hpp"
#include "core/op_call.hpp"
#include "core/storage.hpp"
#include "gpu/runtime.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace miopen {
namespace {

DropoutState ReadState(const Handle& handle, const void* states)
{
    DropoutState st;
    if(handle.IsGpu())
    {
        gpu::DeviceScope scope(handle.Ordinal());
        gpu::Copy(&st, states, sizeof st, handle.Stream());
    }
    else
        std::memcpy(&st, states, sizeof st);
    return st;
}

void WriteState(const Handle& handle, void* states, const DropoutState& st)
{
    if(handle.IsGpu())
    {
        gpu::DeviceScope scope(handle.Ordinal());
        gpu::Copy(states, &st, sizeof st, handle.Stream());
    }
    else
        std::memcpy(states, &st, sizeof st);
}

bool IsState(const DropoutState& st)
{
    return st.magic == kDropoutStateMagic && st.version == kDropoutStateVersion;
}

/// MIOpen's states needed to draw a mask for numel elements: a thread per element up to 16384
/// threads, in whole work-groups of 256.
size_t StatesBytesNeeded(size_t numel)
{
    const size_t groups = std::min(kDropoutMaxStates / 256, (numel + 255) / 256);
    return groups * 256 * kDropoutXorwowStateBytes;
}

} // namespace

DropoutDescriptor& DerefDropout(miopenDropoutDescriptor_t desc, const char* name)
{
    return Deref<DropoutDescriptor>(desc, name);
}

size_t DropoutReserveSpaceSize(const TensorDescriptor& xDesc) { return xDesc.ElementSize(); }

size_t DropoutStatesSize(const Handle&) { return kDropoutMaxStates * kDropoutXorwowStateBytes; }

void DropoutDescriptor::Set(Handle& handle, float dropout, void* states, size_t state_bytes,
                            unsigned long long seed, bool use_mask, bool state_evo, int rng_mode,
                            bool init)
{
    if(!(dropout >= 0.0f && dropout <= 1.0f))
        ThrowBadParm("dropout = ", dropout, " is not a probability in [0, 1]");
    CheckData(states, "states");
    if(state_bytes < sizeof(DropoutState))
        ThrowBadParm("stateSizeInBytes = ", state_bytes, " is less than the ", sizeof(DropoutState),
                     " bytes of the generator state (miopenDropoutGetStatesSize gives ",
                     DropoutStatesSize(handle), ")");
    CheckDevicePointer(handle, states, "states");
    if(init)
    {
        DropoutState st;
        st.magic   = kDropoutStateMagic;
        st.version = kDropoutStateVersion;
        st.seed    = seed;
        WriteState(handle, states, st);
    }
    else if(!IsState(ReadState(handle, states)))
        ThrowBadParm("states does not hold a dropout generator state (miopenSetDropoutDescriptor "
                     "writes one; miopenRestoreDropoutDescriptor reuses it)");
    rate_        = dropout;
    states_      = states;
    state_bytes_ = state_bytes;
    seed_        = seed;
    use_mask_    = use_mask;
    state_evo_   = state_evo;
    rng_mode_    = static_cast<miopenRNGType_t>(rng_mode);
    set_         = true;
}

void Dropout(Handle& handle, DropoutDescriptor& desc, const TensorDescriptor& noise_shape,
             const TensorDescriptor& inDesc, const void* in, const TensorDescriptor& outDesc,
             void* out, void* reserveSpace, size_t reserveSpaceSizeInBytes, bool is_backward)
{
    const char* in_name   = is_backward ? "dyDesc" : "xDesc";
    const char* out_name  = is_backward ? "dxDesc" : "yDesc";
    const char* in_data   = is_backward ? "dy" : "x";
    const char* out_data  = is_backward ? "dx" : "y";
    if(!desc.IsSet())
        ThrowBadParm("dropoutDesc is not set (miopenSetDropoutDescriptor)");
    CheckNumDims(inDesc, in_name, 1, 5);
    CheckSameLens(inDesc, in_name, outDesc, out_name);
    CheckSameType(inDesc, in_name, outDesc, out_name);
    const size_t numel = inDesc.ElementSize();
    if(noise_shape.ElementSize() != numel || noise_shape.NumDims() != inDesc.NumDims())
        ThrowBadParm("noise_shape is ", noise_shape.ToString(), "; dropout takes a noise shape of ",
                     in_name, "'s ", inDesc.NumDims(), " dims and ", numel,
                     " elements (MIOpen supports regular noise shapes only)");
    const bool read_mask = is_backward ? reserveSpace != nullptr : desc.UseMask();
    const bool write_mask = !is_backward && !desc.UseMask() && reserveSpace != nullptr;
    if(read_mask && reserveSpace == nullptr)
        ThrowBadParm("reserveSpace is a null pointer; use_mask reads the mask from it");
    if((reserveSpace != nullptr || read_mask) && reserveSpaceSizeInBytes < numel)
        ThrowBadParm("reserveSpaceSizeInBytes = ", reserveSpaceSizeInBytes, " is less than the ",
                     numel, " bytes of the mask (miopenDropoutGetReserveSpaceSize)");
    if(!read_mask && desc.StateBytes() < StatesBytesNeeded(numel))
        ThrowBadParm("stateSizeInBytes = ", desc.StateBytes(), " of dropoutDesc is less than the ",
                     StatesBytesNeeded(numel), " bytes of states MIOpen needs to draw a mask of ",
                     numel, " elements");
    DispatchFloating(inDesc.Type(), in_name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        CheckDataPointers(handle, {{in, in_data}, {out, out_data}},
                          {{reserveSpace, "reserveSpace"}});
        DropoutArgs a;
        a.ndim  = inDesc.NumDims();
        a.numel = static_cast<int64_t>(numel);
        for(int d = 0; d < a.ndim; ++d)
        {
            a.lens[d]        = static_cast<int64_t>(inDesc.Lens()[d]);
            a.in_strides[d]  = static_cast<int64_t>(inDesc.Strides()[d]);
            a.out_strides[d] = static_cast<int64_t>(outDesc.Strides()[d]);
        }
        a.packed     = inDesc.IsPacked() && outDesc.IsPacked();
        a.rate       = desc.Rate();
        a.scale      = desc.Rate() == 1.0f ? 0.0f : 1.0f / (1.0f - desc.Rate());
        a.read_mask  = read_mask;
        a.write_mask = write_mask;
        // Backward draws the mask of the last forward again; a forward with state_evo then
        // advances the offset.
        const bool use_last = is_backward && desc.StateEvo();
        const bool advance  = !is_backward && !read_mask && desc.StateEvo();
        const auto* inp     = static_cast<const T*>(in);
        auto* outp          = static_cast<T*>(out);
        auto* mask          = static_cast<uint8_t*>(reserveSpace);
        auto* state         = static_cast<DropoutState*>(desc.States());
        RunOp(
            handle,
            [&] {
                DropoutState st;
                std::memcpy(&st, state, sizeof st);
                if(!read_mask && !IsState(st))
                    ThrowBadParm("the states of dropoutDesc no longer hold a dropout generator "
                                 "state (overwritten since miopenSetDropoutDescriptor?)");
                cpu::Dropout<T>(a, inp, outp, mask, st.seed, use_last ? st.last : st.offset);
                if(advance)
                {
                    st.last = st.offset;
                    st.offset += 1;
                    std::memcpy(state, &st, sizeof st);
                }
            },
            [&](auto& h) { gpu::Dropout<T>(h, a, inp, outp, mask, state, use_last, advance); });
    });
}

} // namespace miopen
