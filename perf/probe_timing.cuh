// The timing loop of the standalone CUDA probes (probe_inplace.cu, probe_bn_peract.cu): one
// warm-up call, then the median of 20 calls each timed by a pair of CUDA events, in ms.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

template <class F>
float MedianMs(F launch)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    launch();
    std::vector<float> ms;
    for(int r = 0; r < 20; ++r)
    {
        cudaEventRecord(e0);
        launch();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float t;
        cudaEventElapsedTime(&t, e0, e1);
        ms.push_back(t);
    }
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}
