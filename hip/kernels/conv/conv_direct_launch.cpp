// The invokers of the naive direct kernels (conv_direct.hip): ConvDirectNaiveConv{Fwd,Bwd,Wrw} on
// GPU handles, in the problem's type.
#include "kernels/conv/conv_kernels.hpp"
#include "kernels/conv/conv_launch.hpp"
#include "core/storage.hpp"

namespace miopen::conv_gpu {

ConvInvoker NaiveInvoker(const Handle& handle, const ConvProblem& p)
{
    const gpu::ConvKArgs a = KernelArgs(ConvGeometry(p));
    const int sms = gpu::MultiprocessorCount(handle.Ordinal());
    static constexpr const char* kNames[] = {"ConvDirectNaiveConvFwd", "ConvDirectNaiveConvBwd",
                                             "ConvDirectNaiveConvWrw"};
    const char* name = kNames[static_cast<int>(p.direction)];
    const Handle* h = &handle;
    const ConvDirection dir = p.direction;
    // The run's canonical buffers are of the problem's type (fp32, fp16 or bf16).
    return DispatchFloating(p.type, "the problem", [&](auto tag) -> ConvInvoker {
        using T = typename decltype(tag)::type;
        return [h, name, dir, a, sms](const ConvArgs& r) {
            T* x = static_cast<T*>(r.x);
            T* w = static_cast<T*>(r.w);
            T* y = static_cast<T*>(r.y);
            switch(dir)
            {
            case ConvDirection::Forward: gpu::LaunchConvNaiveFwd<T>(a, h->Stream(), sms, x, w, y); break;
            case ConvDirection::BackwardData: gpu::LaunchConvNaiveBwd<T>(a, h->Stream(), sms, x, w, y); break;
            case ConvDirection::BackwardWeights: gpu::LaunchConvNaiveWrw<T>(a, h->Stream(), sms, x, w, y); break;
            }
            gpu::CheckLaunch(name);
        };
    });
}

} // namespace miopen::conv_gpu
