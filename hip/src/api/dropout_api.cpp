// extern "C" shims for the dropout descriptor, its sizes, and dropout forward / backward.
#include "core/api.hpp"
#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "dropout/dropout.hpp"

using miopen::DerefTensor;
using miopen::DropoutDescriptor;
using miopen::Out;

extern "C" miopenStatus_t miopenCreateDropoutDescriptor(miopenDropoutDescriptor_t* dropoutDesc)
{
    MIOPEN_LOG_FUNCTION(dropoutDesc);
    return MIOPEN_TRY({ miopen::CreateObject<DropoutDescriptor>(dropoutDesc, "dropoutDesc"); });
}

extern "C" miopenStatus_t miopenDestroyDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc)
{
    MIOPEN_LOG_FUNCTION(dropoutDesc);
    return MIOPEN_TRY({ miopen::DestroyObject<DropoutDescriptor>(dropoutDesc, "dropoutDesc"); });
}

extern "C" miopenStatus_t miopenDropoutGetReserveSpaceSize(const miopenTensorDescriptor_t xDesc,
                                                           size_t* reserveSpaceSizeInBytes)
{
    MIOPEN_LOG_FUNCTION(xDesc, reserveSpaceSizeInBytes);
    return MIOPEN_TRY({
        Out(reserveSpaceSizeInBytes, "reserveSpaceSizeInBytes") =
            miopen::DropoutReserveSpaceSize(DerefTensor(xDesc, "xDesc"));
    });
}

extern "C" miopenStatus_t miopenDropoutGetStatesSize(miopenHandle_t handle,
                                                     size_t* stateSizeInBytes)
{
    MIOPEN_LOG_FUNCTION(handle, stateSizeInBytes);
    return MIOPEN_TRY({
        const auto& h = miopen::DerefHandle(handle);
        Out(stateSizeInBytes, "stateSizeInBytes") = miopen::DropoutStatesSize(h);
    });
}

extern "C" miopenStatus_t miopenGetDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                                     miopenHandle_t handle, float* dropout,
                                                     void** states, unsigned long long* seed,
                                                     bool* use_mask, bool* state_evo,
                                                     miopenRNGType_t* rng_mode)
{
    MIOPEN_LOG_FUNCTION(dropoutDesc, handle, dropout, states, seed, use_mask, state_evo, rng_mode);
    return MIOPEN_TRY({
        const auto& d = miopen::DerefDropout(dropoutDesc, "dropoutDesc");
        miopen::DerefHandle(handle);
        if(!d.IsSet())
            miopen::ThrowBadParm("dropoutDesc is not set (miopenSetDropoutDescriptor)");
        Out(dropout, "dropout");
        Out(states, "states");
        Out(seed, "seed");
        Out(use_mask, "use_mask");
        Out(state_evo, "state_evo");
        Out(rng_mode, "rng_mode");
        *dropout   = d.Rate();
        *states    = d.States();
        *seed      = d.Seed();
        *use_mask  = d.UseMask();
        *state_evo = d.StateEvo();
        *rng_mode  = d.RngMode();
    });
}

namespace {

miopenStatus_t SetDropout(const char* api, miopenDropoutDescriptor_t dropoutDesc,
                          miopenHandle_t handle, float dropout, void* states,
                          size_t stateSizeInBytes, unsigned long long seed, bool use_mask,
                          bool state_evo, const miopenRNGType_t& rng_mode, bool init)
{
    return miopen::Try(api, [&] {
        auto& d = miopen::DerefDropout(dropoutDesc, "dropoutDesc");
        auto& h = miopen::DerefHandle(handle);
        const auto mode = miopen::CheckedEnum(rng_mode, "rng_mode", "miopenRNGType_t", {0});
        d.Set(h, dropout, states, stateSizeInBytes, seed, use_mask, state_evo, mode, init);
    });
}

} // namespace

extern "C" miopenStatus_t miopenRestoreDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                                         miopenHandle_t handle, float dropout,
                                                         void* states, size_t stateSizeInBytes,
                                                         unsigned long long seed, bool use_mask,
                                                         bool state_evo, miopenRNGType_t rng_mode)
{
    MIOPEN_LOG_FUNCTION(dropoutDesc, handle, dropout, states, stateSizeInBytes, seed, use_mask,
                        state_evo, rng_mode);
    return SetDropout(__func__, dropoutDesc, handle, dropout, states, stateSizeInBytes, seed,
                      use_mask, state_evo, rng_mode, false);
}

extern "C" miopenStatus_t miopenSetDropoutDescriptor(miopenDropoutDescriptor_t dropoutDesc,
                                                     miopenHandle_t handle, float dropout,
                                                     void* states, size_t stateSizeInBytes,
                                                     unsigned long long seed, bool use_mask,
                                                     bool state_evo, miopenRNGType_t rng_mode)
{
    MIOPEN_LOG_FUNCTION(dropoutDesc, handle, dropout, states, stateSizeInBytes, seed, use_mask,
                        state_evo, rng_mode);
    return SetDropout(__func__, dropoutDesc, handle, dropout, states, stateSizeInBytes, seed,
                      use_mask, state_evo, rng_mode, true);
}

extern "C" miopenStatus_t miopenDropoutForward(miopenHandle_t handle,
                                               const miopenDropoutDescriptor_t dropoutDesc,
                                               const miopenTensorDescriptor_t noise_shape,
                                               const miopenTensorDescriptor_t xDesc,
                                               const void* x,
                                               const miopenTensorDescriptor_t yDesc, void* y,
                                               void* reserveSpace, size_t reserveSpaceSizeInBytes)
{
    MIOPEN_LOG_FUNCTION(handle, dropoutDesc, noise_shape, xDesc, x, yDesc, y, reserveSpace,
                        reserveSpaceSizeInBytes);
    return MIOPEN_TRY({
        miopen::Dropout(miopen::DerefHandle(handle), miopen::DerefDropout(dropoutDesc, "dropoutDesc"),
                        DerefTensor(noise_shape, "noise_shape"), DerefTensor(xDesc, "xDesc"), x,
                        DerefTensor(yDesc, "yDesc"), y, reserveSpace, reserveSpaceSizeInBytes,
                        false);
    });
}

extern "C" miopenStatus_t miopenDropoutBackward(miopenHandle_t handle,
                                                const miopenDropoutDescriptor_t dropoutDesc,
                                                const miopenTensorDescriptor_t noise_shape,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const void* dy,
                                                const miopenTensorDescriptor_t dxDesc, void* dx,
                                                void* reserveSpace, size_t reserveSpaceSizeInBytes)
{
    MIOPEN_LOG_FUNCTION(handle, dropoutDesc, noise_shape, dyDesc, dy, dxDesc, dx, reserveSpace,
                        reserveSpaceSizeInBytes);
    return MIOPEN_TRY({
        miopen::Dropout(miopen::DerefHandle(handle), miopen::DerefDropout(dropoutDesc, "dropoutDesc"),
                        DerefTensor(noise_shape, "noise_shape"), DerefTensor(dyDesc, "dyDesc"), dy,
                        DerefTensor(dxDesc, "dxDesc"), dx, reserveSpace, reserveSpaceSizeInBytes,
                        true);
    });
}
