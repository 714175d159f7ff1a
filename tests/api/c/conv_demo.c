/* A forward convolution written from MIOpen's documentation only: workspace query, Find, then
 * miopenConvolutionForward with the fastest algorithm, checked against a plain loop. */
#include <miopen/miopen.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                      \
    do                                                                                   \
    {                                                                                    \
        miopenStatus_t s_ = (call);                                                      \
        if(s_ != miopenStatusSuccess)                                                    \
        {                                                                                \
            fprintf(stderr, "%s failed: %s\n", #call, miopenGetErrorString(s_));         \
            return 1;                                                                    \
        }                                                                                \
    } while(0)

int main(void)
{
    const int N = 2, C = 3, H = 9, W = 8, K = 4, R = 3, S = 3;
    miopenHandle_t handle;
    miopenTensorDescriptor_t xDesc, wDesc, yDesc;
    miopenConvolutionDescriptor_t convDesc;
    CHECK(miopenCreate(&handle));
    CHECK(miopenCreateTensorDescriptor(&xDesc));
    CHECK(miopenCreateTensorDescriptor(&wDesc));
    CHECK(miopenCreateTensorDescriptor(&yDesc));
    CHECK(miopenCreateConvolutionDescriptor(&convDesc));
    CHECK(miopenSet4dTensorDescriptor(xDesc, miopenFloat, N, C, H, W));
    CHECK(miopenSet4dTensorDescriptor(wDesc, miopenFloat, K, C, R, S));
    CHECK(miopenInitConvolutionDescriptor(convDesc, miopenConvolution, 1, 1, 1, 1, 1, 1));
    int n, c, h, w;
    CHECK(miopenGetConvolutionForwardOutputDim(convDesc, xDesc, wDesc, &n, &c, &h, &w));
    CHECK(miopenSet4dTensorDescriptor(yDesc, miopenFloat, n, c, h, w));

    float* x = malloc(sizeof(float) * N * C * H * W);
    float* wt = malloc(sizeof(float) * K * C * R * S);
    float* y = malloc(sizeof(float) * n * c * h * w);
    for(int i = 0; i < N * C * H * W; ++i)
        x[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    for(int i = 0; i < K * C * R * S; ++i)
        wt[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;

    size_t wsSize = 0;
    CHECK(miopenConvolutionForwardGetWorkSpaceSize(handle, wDesc, xDesc, convDesc, yDesc, &wsSize));
    void* ws = wsSize ? malloc(wsSize) : NULL;
    miopenConvAlgoPerf_t perf[4];
    int returned = 0;
    CHECK(miopenFindConvolutionForwardAlgorithm(handle, xDesc, x, wDesc, wt, convDesc, yDesc, y, 4,
                                                &returned, perf, ws, wsSize, false));
    if(returned < 1)
        return 1;
    float alpha = 1.0f, beta = 0.0f;
    CHECK(miopenConvolutionForward(handle, &alpha, xDesc, x, wDesc, wt, convDesc, perf[0].fwd_algo,
                                   &beta, yDesc, y, ws, wsSize));
    for(int in = 0; in < N; ++in)
        for(int k = 0; k < K; ++k)
            for(int oh = 0; oh < h; ++oh)
                for(int ow = 0; ow < w; ++ow)
                {
                    double acc = 0;
                    for(int ic = 0; ic < C; ++ic)
                        for(int r = 0; r < R; ++r)
                            for(int s = 0; s < S; ++s)
                            {
                                int ih = oh - 1 + r, iw = ow - 1 + s;
                                if(ih < 0 || ih >= H || iw < 0 || iw >= W)
                                    continue;
                                acc += x[((in * C + ic) * H + ih) * W + iw] * wt[((k * C + ic) * R + r) * S + s];
                            }
                    float got = y[((in * K + k) * h + oh) * w + ow];
                    if(fabs(got - acc) > 1e-4 * (1 + fabs(acc)))
                    {
                        fprintf(stderr, "mismatch at %d %d %d %d: %f vs %f\n", in, k, oh, ow, got, acc);
                        return 1;
                    }
                }
    printf("conv_demo: %d algorithms found, fastest %d (%.4f ms): all results match\n", returned,
           (int)perf[0].fwd_algo, perf[0].time);
    free(ws);
    free(x);
    free(wt);
    free(y);
    CHECK(miopenDestroyConvolutionDescriptor(convDesc));
    CHECK(miopenDestroyTensorDescriptor(yDesc));
    CHECK(miopenDestroyTensorDescriptor(wDesc));
    CHECK(miopenDestroyTensorDescriptor(xDesc));
    CHECK(miopenDestroy(handle));
    return 0;
}
