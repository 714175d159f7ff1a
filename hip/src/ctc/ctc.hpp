// CTCLossDescriptor (data type, blank label, whether a log-softmax is applied) and the front
// doors of miopenGetCTCLossWorkspaceSize and miopenCTCLoss: every check first, then the backend
// of the handle's device. The recursions and the workspace layout are in ctc_args.hpp.
#pragma once

#include "core/handle.hpp"
#include "core/tensor.hpp"
#include "ctc/ctc_args.hpp"

#include <miopen/miopen.h>

namespace miopen {

class CTCLossDescriptor : public miopenCTCLossDescriptor
{
public:
    CTCLossDescriptor() = default;

    /// Validates and sets (miopenFloat or miopenHalf); on error the descriptor is unchanged.
    void Set(miopenDataType_t type, int blank_label_id, bool apply_softmax_layer);

    miopenDataType_t Type() const { return type_; }
    int Blank() const { return blank_; }
    bool ApplySoftmax() const { return softmax_; }

private:
    // MIOpen's defaults: a created descriptor is usable as it is.
    miopenDataType_t type_ = miopenFloat;
    int blank_             = 0;
    bool softmax_          = true;
};

/// The live CTC loss descriptor behind a C pointer; BadParm naming the parameter otherwise.
CTCLossDescriptor& DerefCTCLoss(miopenCTCLossDescriptor_t desc, const char* name);

/// The workspace bytes of miopenCTCLoss, after every check of the arguments it takes.
size_t CTCLossWorkspaceSize(const Handle& handle, const TensorDescriptor& probsDesc,
                            const TensorDescriptor& gradientsDesc, const int* labels,
                            const int* labelLengths, const int* inputLengths, int algo,
                            const CTCLossDescriptor& desc);

/// Losses and gradients.
void CTCLoss(Handle& handle, const TensorDescriptor& probsDesc, const void* probs,
             const int* labels, const int* labelLengths, const int* inputLengths, void* losses,
             const TensorDescriptor& gradientsDesc, void* gradients, int algo,
             const CTCLossDescriptor& desc, void* workSpace, size_t workSpaceSize);

} // namespace miopen
