// Launcher of dropout forward and backward: dropout_fwd_packed where in and out are packed and
// 16-byte aligned and the mask (if used) aligned to its W bytes, else dropout_fwd_strided; with
// state_evo, the one-thread advance of the generator's offset after it on the same stream.
#include "dropout/dropout_args.hpp"
#include "kernels/common/launch_common.hpp"
#include "kernels/dropout/dropout_kernels.hpp"

#include <cstdint>

namespace miopen::gpu {

template <class T>
void Dropout(Handle& h, const DropoutArgs& a, const T* in, T* out, uint8_t* mask,
             DropoutState* state, bool use_last, bool advance)
{
    constexpr int64_t W = 16 / sizeof(T);
    const bool mask_used = a.read_mask || a.write_mask;
    const bool packed    = a.packed && (reinterpret_cast<uintptr_t>(in) & 15) == 0 &&
                        (reinterpret_cast<uintptr_t>(out) & 15) == 0 &&
                        (!mask_used || (reinterpret_cast<uintptr_t>(mask) % W) == 0);
    if(packed)
    {
        const int64_t work = a.numel / W > 0 ? a.numel / W : 1;
        LaunchDropoutPacked(a, On(h, D1(GridStrideBlocks(h, work, kDropoutThreads)),
                                  D1(kDropoutThreads)),
                            in, out, mask, state, use_last);
    }
    else
    {
        const int64_t groups = (a.numel + 3) / 4;
        LaunchDropoutStrided(a, On(h, D1(GridStrideBlocks(h, groups, kDropoutThreads)),
                                   D1(kDropoutThreads)),
                             in, out, mask, state, use_last);
    }
    CheckLaunch("miopenDropout");
    if(advance)
    {
        LaunchDropoutAdvance(On(h, D1(1), D1(1)), state);
        CheckLaunch("miopenDropout (state_evo)");
    }
}

#define MIOPEN_CY_DROPOUT_LAUNCH(T)                                                             \
    template void Dropout<T>(Handle&, const DropoutArgs&, const T*, T*, uint8_t*,               \
                             DropoutState*, bool, bool);
MIOPEN_CY_DROPOUT_LAUNCH(float)
MIOPEN_CY_DROPOUT_LAUNCH(Half)
MIOPEN_CY_DROPOUT_LAUNCH(BFloat16)
#undef MIOPEN_CY_DROPOUT_LAUNCH

} // namespace miopen::gpu
