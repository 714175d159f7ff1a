/* Immediate mode and Find 2.0 written from MIOpen's documentation only: list the solutions of a
 * forward convolution and run each by id; then build a problem, find solutions, save the best,
 * load it back and run it with tensor arguments. Every result is checked against a plain loop. */
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

enum { N = 2, C = 3, H = 9, W = 8, K = 4, R = 3, S = 3 };

static float max_error(const float* y, const float* ref, int count)
{
    float worst = 0.0f;
    for(int i = 0; i < count; ++i)
    {
        const float e = fabsf(y[i] - ref[i]);
        worst = (e > worst || e != e) ? e : worst;
    }
    return worst;
}

int main(void)
{
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
    CHECK(miopenSet4dTensorDescriptor(yDesc, miopenFloat, N, K, H, W));
    CHECK(miopenInitConvolutionDescriptor(convDesc, miopenConvolution, 1, 1, 1, 1, 1, 1));

    static float x[N * C * H * W], wt[K * C * R * S], y[N * K * H * W], ref[N * K * H * W];
    for(int i = 0; i < N * C * H * W; ++i)
        x[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    for(int i = 0; i < K * C * R * S; ++i)
        wt[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
    for(int n = 0; n < N; ++n)
        for(int k = 0; k < K; ++k)
            for(int h = 0; h < H; ++h)
                for(int w = 0; w < W; ++w)
                {
                    double acc = 0.0;
                    for(int c = 0; c < C; ++c)
                        for(int r = 0; r < R; ++r)
                            for(int s = 0; s < S; ++s)
                            {
                                const int ih = h + r - 1, iw = w + s - 1;
                                if(ih >= 0 && ih < H && iw >= 0 && iw < W)
                                    acc += x[((n * C + c) * H + ih) * W + iw] * wt[((k * C + c) * R + r) * S + s];
                            }
                    ref[((n * K + k) * H + h) * W + w] = (float)acc;
                }

    /* Immediate mode: every solution, by id. */
    size_t count = 0;
    CHECK(miopenConvolutionForwardGetSolutionCount(handle, wDesc, xDesc, convDesc, yDesc, &count));
    miopenConvSolution_t solutions[16];
    CHECK(miopenConvolutionForwardGetSolution(handle, wDesc, xDesc, convDesc, yDesc, 16, &count, solutions));
    if(count == 0)
    {
        fprintf(stderr, "no solutions\n");
        return 1;
    }
    for(size_t i = 0; i < count; ++i)
    {
        size_t wsSize = 0;
        CHECK(miopenConvolutionForwardGetSolutionWorkspaceSize(handle, wDesc, xDesc, convDesc, yDesc,
                                                               solutions[i].solution_id, &wsSize));
        CHECK(miopenConvolutionForwardCompileSolution(handle, wDesc, xDesc, convDesc, yDesc,
                                                      solutions[i].solution_id));
        void* ws = wsSize ? malloc(wsSize) : NULL;
        for(int j = 0; j < N * K * H * W; ++j)
            y[j] = NAN;
        CHECK(miopenConvolutionForwardImmediate(handle, wDesc, wt, xDesc, x, convDesc, yDesc, y, ws, wsSize,
                                                solutions[i].solution_id));
        free(ws);
        const float err = max_error(y, ref, N * K * H * W);
        printf("immediate solution %llu (algorithm %d): max error %g\n",
               (unsigned long long)solutions[i].solution_id, (int)solutions[i].algorithm, err);
        if(!(err < 1e-4f))
            return 1;
    }
    if(miopenConvolutionForwardImmediate(handle, wDesc, wt, xDesc, x, convDesc, yDesc, y, NULL, 0, 424242) !=
       miopenStatusBadParm)
    {
        fprintf(stderr, "an unknown solution id was accepted\n");
        return 1;
    }

    /* Find 2.0: problem, find, save, load, run. */
    miopenProblem_t problem;
    CHECK(miopenCreateConvProblem(&problem, convDesc, miopenProblemDirectionForward));
    CHECK(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionX, xDesc));
    CHECK(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionW, wDesc));
    CHECK(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionY, yDesc));
    miopenFindOptions_t options;
    CHECK(miopenCreateFindOptions(&options));
    CHECK(miopenSetFindOptionResultsOrder(options, miopenFindResultsOrderByTime));
    miopenSolution_t found[8];
    size_t numFound = 0;
    CHECK(miopenFindSolutions(handle, problem, options, found, &numFound, 8));
    if(numFound == 0)
    {
        fprintf(stderr, "miopenFindSolutions found nothing\n");
        return 1;
    }
    size_t blobSize = 0;
    CHECK(miopenGetSolutionSize(found[0], &blobSize));
    char* blob = malloc(blobSize);
    CHECK(miopenSaveSolution(found[0], blob));
    miopenSolution_t loaded;
    CHECK(miopenLoadSolution(&loaded, blob, blobSize));
    uint64_t solverId = 0;
    miopenConvAlgorithm_t algo;
    size_t wsSize = 0;
    float time = 0.0f;
    CHECK(miopenGetSolutionSolverId(loaded, &solverId));
    CHECK(miopenGetSolverIdConvAlgorithm(solverId, &algo));
    CHECK(miopenGetSolutionWorkspaceSize(loaded, &wsSize));
    CHECK(miopenGetSolutionTime(loaded, &time));
    void* ws = wsSize ? malloc(wsSize) : NULL;
    for(int j = 0; j < N * K * H * W; ++j)
        y[j] = NAN;
    const miopenTensorArgument_t args[3] = {
        {miopenTensorConvolutionX, NULL, x},
        {miopenTensorConvolutionW, NULL, wt},
        {miopenTensorConvolutionY, NULL, y},
    };
    CHECK(miopenRunSolution(handle, loaded, 3, args, ws, wsSize));
    const float err = max_error(y, ref, N * K * H * W);
    printf("find 2.0: %zu solutions; loaded solver %llu (algorithm %d, %.3f ms): max error %g\n", numFound,
           (unsigned long long)solverId, (int)algo, time, err);
    if(!(err < 1e-4f))
        return 1;
    blob[blobSize / 2] ^= 0x20;
    miopenSolution_t damaged;
    if(miopenLoadSolution(&damaged, blob, blobSize) != miopenStatusBadParm)
    {
        fprintf(stderr, "a damaged blob was accepted\n");
        return 1;
    }
    if(miopenRunSolution(handle, loaded, 2, args, ws, wsSize) != miopenStatusInvalidValue)
    {
        fprintf(stderr, "a missing tensor argument was accepted\n");
        return 1;
    }

    free(ws);
    free(blob);
    for(size_t i = 0; i < numFound; ++i)
        CHECK(miopenDestroySolution(found[i]));
    CHECK(miopenDestroySolution(loaded));
    CHECK(miopenDestroyFindOptions(options));
    CHECK(miopenDestroyProblem(problem));
    CHECK(miopenDestroyConvolutionDescriptor(convDesc));
    CHECK(miopenDestroyTensorDescriptor(xDesc));
    CHECK(miopenDestroyTensorDescriptor(wDesc));
    CHECK(miopenDestroyTensorDescriptor(yDesc));
    CHECK(miopenDestroy(handle));
    printf("all results match\n");
    return 0;
}
