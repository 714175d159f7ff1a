/* A C program written against MIOpen's API only: compiled against miopen_cy.get_include(),
 * linked against miopen_cy.get_library_dir(). It runs several ops on the CPU handle, checks each
 * result against a plain loop, and exits 0 only if all match. */
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

static int close_to(float a, float b) { return fabsf(a - b) <= 1e-5f * (1.0f + fabsf(b)); }

int main(void)
{
    enum { N = 2, C = 3, H = 4, W = 5, TOTAL = N * C * H * W };
    float x[TOTAL], y[TOTAL], b[C], z[TOTAL];
    for(int i = 0; i < TOTAL; ++i)
        x[i] = (float)((i * 37) % 23) / 7.0f - 1.5f;
    for(int i = 0; i < C; ++i)
        b[i] = 0.25f * (float)(i + 1);

    miopenHandle_t handle;
    miopenTensorDescriptor_t xDesc, bDesc;
    CHECK(miopenCreate(&handle));
    CHECK(miopenCreateTensorDescriptor(&xDesc));
    CHECK(miopenCreateTensorDescriptor(&bDesc));
    CHECK(miopenSet4dTensorDescriptor(xDesc, miopenFloat, N, C, H, W));
    CHECK(miopenSet4dTensorDescriptor(bDesc, miopenFloat, 1, C, 1, 1));

    /* y = 2 * x (TransformTensor), then y = y + b broadcast (OpTensor Add). */
    float two = 2.0f, one = 1.0f, zero = 0.0f;
    CHECK(miopenTransformTensor(handle, &two, xDesc, x, &zero, xDesc, y));
    CHECK(miopenOpTensor(handle, miopenTensorOpAdd, &one, xDesc, y, &one, bDesc, b, &zero, xDesc, z));
    for(int i = 0; i < TOTAL; ++i)
    {
        int c = (i / (H * W)) % C;
        if(!close_to(z[i], 2.0f * x[i] + b[c]))
        {
            fprintf(stderr, "opTensor mismatch at %d: %f vs %f\n", i, z[i], 2.0f * x[i] + b[c]);
            return 1;
        }
    }

    /* A bad call returns the status and changes nothing. */
    miopenTensorDescriptor_t badDesc;
    CHECK(miopenCreateTensorDescriptor(&badDesc));
    if(miopenSet4dTensorDescriptor(badDesc, miopenFloat, 0, 1, 1, 1) != miopenStatusBadParm)
        return 1;

    CHECK(miopenDestroyTensorDescriptor(badDesc));
    CHECK(miopenDestroyTensorDescriptor(bDesc));
    CHECK(miopenDestroyTensorDescriptor(xDesc));
    CHECK(miopenDestroy(handle));
    printf("ops_demo: all results match\n");
    return 0;
}
