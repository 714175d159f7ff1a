"""Which devices this machine has: GPU (a GPU backend built in and a GPU present) and TORCH_CUDA
(a GPU and PyTorch with CUDA), with the skip markers built on them."""
import pytest

import miopen_cy as mi


def _gpu_available():
    try:
        mi.Handle(device="gpu")
        return True
    except mi.MIOpenError:
        return False


GPU = _gpu_available()
requires_gpu = pytest.mark.skipif(not GPU, reason="no GPU backend or no GPU on this machine")

try:
    import torch
    TORCH_CUDA = GPU and torch.cuda.is_available()
except ImportError:          # pragma: no cover - torch is a test dependency
    TORCH_CUDA = False

requires_torch_cuda = pytest.mark.skipif(not TORCH_CUDA, reason="needs PyTorch with CUDA and a GPU")
