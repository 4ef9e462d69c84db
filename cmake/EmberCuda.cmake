# EMBER_CUDA=AUTO|ON|OFF: AUTO builds the CUDA backend when nvcc is found, ON requires it.
set(EMBER_CUDA "AUTO" CACHE STRING "Build the CUDA backend: AUTO, ON or OFF")
set_property(CACHE EMBER_CUDA PROPERTY STRINGS AUTO ON OFF)
set(EMBER_WITH_CUDA OFF)
if(NOT EMBER_CUDA MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "EMBER_CUDA must be AUTO, ON or OFF (got '${EMBER_CUDA}')")
endif()
if(NOT EMBER_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # Ampere and Hopper, plus PTX of the newest so later GPUs JIT. A GPU build machine can pass
      # -DCMAKE_CUDA_ARCHITECTURES=native.
      set(CMAKE_CUDA_ARCHITECTURES 80-real 90)
    endif()
    enable_language(CUDA)
    # CMake < 3.26 knows no -std flag for CUDA 20 with nvcc and then rejects CMAKE_CUDA_STANDARD 20
    # (even inside enable_language's own checks, hence the order); nvcc >= 12 accepts -std=c++20.
    if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION
       AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA"
       AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(CMAKE_CUDA_EXTENSIONS OFF)
    find_package(CUDAToolkit REQUIRED)
    set(EMBER_WITH_CUDA ON)
  elseif(EMBER_CUDA STREQUAL "ON")
    message(FATAL_ERROR "EMBER_CUDA=ON but no CUDA compiler (nvcc) was found; install the CUDA "
                        "toolkit or configure with -DEMBER_CUDA=OFF")
  endif()
endif()
message(STATUS "ember: CUDA backend ${EMBER_WITH_CUDA} (EMBER_CUDA=${EMBER_CUDA})")
