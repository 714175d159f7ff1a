# Chooses the GPU backend and enables its language; sets MIOPEN_CY_GPU_BACKEND to cuda, hip or
# off. Included from the top-level CMakeLists.txt (a language must be enabled in the directory
# common to every target that links to the kernels).
#
#   cuda: the .hip kernels compiled as CUDA by nvcc (CMAKE_CUDA_ARCHITECTURES, else the
#         environment's CUDAARCHS, else 80;90),
#         the CUDA runtime linked statically: the library needs only the NVIDIA driver.
#   hip:  the .hip kernels compiled by hipcc/clang for AMD (GPU_TARGETS, default
#         gfx906;gfx908;gfx90a), linked to the HIP runtime (libamdhip64).
set(_gpu "${MIOPEN_CY_GPU}")
if(_gpu STREQUAL "auto" AND NOT "$ENV{MIOPEN_CY_GPU}" STREQUAL "")
  set(_gpu "$ENV{MIOPEN_CY_GPU}")
endif()
string(TOLOWER "${_gpu}" _gpu)
if(NOT _gpu MATCHES "^(auto|off|cuda|hip)$")
  message(FATAL_ERROR "MIOPEN_CY_GPU = '${_gpu}': expected auto, off, cuda or hip")
endif()

if(_gpu STREQUAL "auto")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(_gpu cuda)
  else()
    find_program(MIOPEN_CY_HIPCC hipcc HINTS $ENV{ROCM_PATH}/bin /opt/rocm/bin)
    if(MIOPEN_CY_HIPCC)
      set(_gpu hip)
    else()
      set(_gpu off)
    endif()
  endif()
endif()

if(_gpu STREQUAL "cuda")
  # CMake's own CUDAARCHS environment variable is honoured (it is read only at enable_language,
  # after this default would have been set): CI compiles one architecture with it.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
    set(_archs "80;90")
    if(NOT "$ENV{CUDAARCHS}" STREQUAL "")
      set(_archs "$ENV{CUDAARCHS}")
    endif()
    set(CMAKE_CUDA_ARCHITECTURES "${_archs}" CACHE STRING "CUDA architectures to build for")
  endif()
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  message(STATUS "GPU backend: CUDA ${CUDAToolkit_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")
elseif(_gpu STREQUAL "hip")
  if(NOT DEFINED GPU_TARGETS OR GPU_TARGETS STREQUAL "")
    set(GPU_TARGETS "gfx906;gfx908;gfx90a" CACHE STRING "AMD GPU targets to build for")
  endif()
  find_program(MIOPEN_CY_HIPCC hipcc HINTS $ENV{ROCM_PATH}/bin /opt/rocm/bin REQUIRED)
  message(STATUS "GPU backend: HIP (${MIOPEN_CY_HIPCC}), targets ${GPU_TARGETS}")
else()
  message(STATUS "GPU backend: none (CPU only)")
endif()
set(MIOPEN_CY_GPU_BACKEND "${_gpu}")
