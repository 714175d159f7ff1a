// Host stand-in for kernels/common/storage_types.hpp (tests/ops/test_rnn_gpu_emulated.py): loads
// and stores through the scalar conversions of core/storage.hpp, the bits the device's give.
#pragma once
#include "core/storage.hpp"
namespace miopen::gpu {
template <class T> inline float LoadFloat(const T* p) { return ToFloat(*p); }
template <class T> inline void StoreFloat(T* p, float v) { *p = FloatTo<T>(v); }
}
