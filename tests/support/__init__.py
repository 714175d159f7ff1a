"""What the tests share (test modules import these; no test module imports another):
- buffers: descriptors from shapes, strided NaN-filled buffers, poisoned outputs, rel_l2;
- devices: which devices are here (GPU, TORCH_CUDA) and the skip markers built on them;
- conv: a convolution case, its PyTorch float64 reference, a run through Find or a given
  algorithm, the shared case lists, and one immediate-mode call (Call);
- db: the find-db / perf-db fault helpers (child environments, file listings);
- pooling: pooling on a GPU handle through DeviceBuffers and its PyTorch oracle;
- fuzz_api: the API fuzzer (also a script: python3 tests/support/fuzz_api.py --help).
The fixtures stay in tests/conftest.py."""
