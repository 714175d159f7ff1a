// DropoutDescriptor (rate, states, seed, use_mask, state_evo, rng_mode) and the front doors of
// miopenDropoutForward / Backward: every check first, then the backend of the handle's device.
// The generator and the states layout are in dropout_args.hpp.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "dropout/dropout_args.hpp"

#include <miopen/miopen.h>

namespace miopen {

class DropoutDescriptor : public miopenDropoutDescriptor
{
public:
    DropoutDescriptor() = default;

    /// Validates and sets; with init, writes the initial generator state to states (Set), else
    /// checks that states holds one (Restore). On error the descriptor is left unchanged.
    void Set(Handle& handle, float dropout, void* states, size_t state_bytes,
             unsigned long long seed, bool use_mask, bool state_evo, int rng_mode, bool init);

    bool IsSet() const { return set_; }
    float Rate() const { return rate_; }
    void* States() const { return states_; }
    size_t StateBytes() const { return state_bytes_; }
    unsigned long long Seed() const { return seed_; }
    bool UseMask() const { return use_mask_; }
    bool StateEvo() const { return state_evo_; }
    miopenRNGType_t RngMode() const { return rng_mode_; }

private:
    bool set_                  = false;
    float rate_                = 0.0f;
    void* states_              = nullptr;
    size_t state_bytes_        = 0;
    unsigned long long seed_   = 0;
    bool use_mask_             = false;
    bool state_evo_            = false;
    miopenRNGType_t rng_mode_  = MIOPEN_RNG_PSEUDO_XORWOW;
};

/// The live dropout descriptor behind a C pointer; BadParm naming the parameter otherwise.
DropoutDescriptor& DerefDropout(miopenDropoutDescriptor_t desc, const char* name);

/// MIOpen's sizes: numel(x) mask bytes; 16384 XORWOW states of 24 bytes.
size_t DropoutReserveSpaceSize(const TensorDescriptor& xDesc);
size_t DropoutStatesSize(const Handle& handle);

/// Forward (is_backward false: x, y) or backward (dy, dx) dropout.
void Dropout(Handle& handle, DropoutDescriptor& desc, const TensorDescriptor& noise_shape,
             const TensorDescriptor& inDesc, const void* in, const TensorDescriptor& outDesc,
             void* out, void* reserveSpace, size_t reserveSpaceSizeInBytes, bool is_backward);

} // namespace miopen
