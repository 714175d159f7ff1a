/* A C program that makes the classic mistake: host memory from malloc passed to a handle that
 * miopenCreate bound to a GPU. Each call must return miopenStatusBadParm (before anything is
 * queued, so no kernel faults), and the handle must keep working: the same op on device memory
 * then gives the right result. Exits 0 and prints "guard ok" only then; on a CPU handle, where
 * host memory is the device memory, exits 3 ("no GPU handle"). */
#include <miopen/miopen.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                      \
    do                                                                                   \
    {                                                                                    \
        miopenStatus_t s_ = (call);                                                      \
        if(s_ != miopenStatusSuccess)                                                    \
        {                                                                                \
            fprintf(stderr, "%s failed: %s: %s\n", #call, miopenGetErrorString(s_),      \
                    miopenCyGetLastErrorMessage());                                      \
            return 1;                                                                    \
        }                                                                                \
    } while(0)

/* The call must be refused with BadParm and a message naming `param`. */
#define REFUSED(call, param)                                                             \
    do                                                                                   \
    {                                                                                    \
        miopenStatus_t s_ = (call);                                                      \
        const char* m_    = miopenCyGetLastErrorMessage();                               \
        if(s_ != miopenStatusBadParm || strstr(m_, param " = ") == NULL ||               \
           strstr(m_, "host memory") == NULL)                                            \
        {                                                                                \
            fprintf(stderr, "%s: expected BadParm naming %s, got %s: %s\n", #call, param, \
                    miopenGetErrorString(s_), m_);                                       \
            return 1;                                                                    \
        }                                                                                \
        printf("refused: %s\n", m_);                                                     \
    } while(0)

int main(void)
{
    enum { N = 2, C = 4, H = 8, W = 8, K = 4, TOTAL = N * C * H * W, WTOTAL = K * C * 3 * 3 };
    miopenHandle_t handle;
    CHECK(miopenCreate(&handle));
    int kind = 0, ordinal = 0;
    CHECK(miopenCyGetHandleDevice(handle, &kind, &ordinal));
    if(kind != 1)
    {
        printf("no GPU handle\n");
        miopenDestroy(handle);
        return 3;
    }

    float* x = (float*)malloc(TOTAL * sizeof(float));
    float* y = (float*)malloc(TOTAL * sizeof(float));
    float* w = (float*)malloc(WTOTAL * sizeof(float));
    for(int i = 0; i < TOTAL; ++i)
        x[i] = (float)((i * 37) % 23) / 7.0f - 1.5f;
    for(int i = 0; i < WTOTAL; ++i)
        w[i] = (float)((i * 13) % 11) / 11.0f - 0.5f;

    miopenTensorDescriptor_t xDesc, wDesc, yDesc;
    miopenActivationDescriptor_t act;
    miopenConvolutionDescriptor_t conv;
    CHECK(miopenCreateTensorDescriptor(&xDesc));
    CHECK(miopenCreateTensorDescriptor(&wDesc));
    CHECK(miopenCreateTensorDescriptor(&yDesc));
    CHECK(miopenSet4dTensorDescriptor(xDesc, miopenFloat, N, C, H, W));
    CHECK(miopenSet4dTensorDescriptor(wDesc, miopenFloat, K, C, 3, 3));
    CHECK(miopenSet4dTensorDescriptor(yDesc, miopenFloat, N, K, H, W));
    CHECK(miopenCreateActivationDescriptor(&act));
    CHECK(miopenSetActivationDescriptor(act, miopenActivationRELU, 0.0, 0.0, 0.0));
    CHECK(miopenCreateConvolutionDescriptor(&conv));
    CHECK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1));
    float one = 1.0f, zero = 0.0f;

    /* Host pointers: refused, nothing queued. */
    REFUSED(miopenActivationForward(handle, act, &one, xDesc, x, &zero, xDesc, y), "x");
    REFUSED(miopenOpTensor(handle, miopenTensorOpAdd, &one, xDesc, x, &one, xDesc, x, &zero, xDesc, y), "A");
    REFUSED(miopenConvolutionForward(handle, &one, xDesc, x, wDesc, w, conv, miopenConvolutionFwdAlgoDirect,
                                     &zero, yDesc, y, NULL, 0),
            "x");
    miopenConvAlgoPerf_t perf;
    int found = 0;
    REFUSED(miopenFindConvolutionForwardAlgorithm(handle, xDesc, x, wDesc, w, conv, yDesc, y, 1, &found,
                                                  &perf, NULL, 0, false),
            "x");

    /* The handle still works: the same activation on device memory. */
    void *dx = NULL, *dy = NULL;
    CHECK(miopenCyDeviceAlloc(handle, &dx, TOTAL * sizeof(float)));
    CHECK(miopenCyDeviceAlloc(handle, &dy, TOTAL * sizeof(float)));
    CHECK(miopenCyMemcpy(handle, dx, x, TOTAL * sizeof(float)));
    /* A device input with a host output is refused too, naming y. */
    REFUSED(miopenActivationForward(handle, act, &one, xDesc, dx, &zero, xDesc, y), "y");
    CHECK(miopenActivationForward(handle, act, &one, xDesc, dx, &zero, xDesc, dy));
    CHECK(miopenCyMemcpy(handle, y, dy, TOTAL * sizeof(float)));
    CHECK(miopenCyStreamSynchronize(handle));
    for(int i = 0; i < TOTAL; ++i)
    {
        const float want = x[i] > 0.0f ? x[i] : 0.0f;
        if(fabsf(y[i] - want) > 1e-6f)
        {
            fprintf(stderr, "relu mismatch at %d: %f vs %f\n", i, y[i], want);
            return 1;
        }
    }

    CHECK(miopenCyDeviceFree(handle, dx));
    CHECK(miopenCyDeviceFree(handle, dy));
    CHECK(miopenDestroyConvolutionDescriptor(conv));
    CHECK(miopenDestroyActivationDescriptor(act));
    CHECK(miopenDestroyTensorDescriptor(xDesc));
    CHECK(miopenDestroyTensorDescriptor(wDesc));
    CHECK(miopenDestroyTensorDescriptor(yDesc));
    CHECK(miopenDestroy(handle));
    free(x);
    free(y);
    free(w);
    printf("guard ok\n");
    return 0;
}
