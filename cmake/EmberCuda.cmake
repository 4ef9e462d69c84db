# EMBER_CUDA=AUTO|ON|OFF: AUTO builds the CUDA backend when nvcc is found, ON requires it.
set(EMBER_CUDA "AUTO" CACHE STRING "Build the CUDA backend: AUTO, ON or OFF")
set_property(CACHE EMBER_CUDA PROPERTY STRINGS AUTO ON OFF)
set(EMBER_WITH_CUDA OFF)
if(NOT EMBER_CUDA MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "EMBER_CUDA must be AUTO, ON or OFF (got '${EMBER_CUDA}')")
endif()

# The CUDA architectures of the GPUs that nvidia-smi lists ("90-real" for an H100), in `out`;
# empty when there is no driver or GPU, or when a GPU is newer than this nvcc can compile for
# (the default's PTX then serves it). CMake's own `native` fails the configure without a GPU.
function(ember_host_cuda_architectures out)
  set(${out} "" PARENT_SCOPE)
  find_program(EMBER_NVIDIA_SMI nvidia-smi)
  if(NOT EMBER_NVIDIA_SMI)
    return()
  endif()
  execute_process(COMMAND ${EMBER_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE caps RESULT_VARIABLE smi_status ERROR_QUIET TIMEOUT 30)
  string(REGEX MATCHALL "[0-9]+\\.[0-9]+" caps "${caps}")
  if(NOT smi_status EQUAL 0 OR NOT caps)
    return()
  endif()
  execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-code
                  OUTPUT_VARIABLE compilable ERROR_QUIET TIMEOUT 30)
  set(architectures "")
  foreach(cap IN LISTS caps)
    string(REPLACE "." "" arch "${cap}")
    if(NOT compilable MATCHES "sm_${arch}( |\n|$)")
      return()
    endif()
    list(APPEND architectures "${arch}-real")
  endforeach()
  list(REMOVE_DUPLICATES architectures)
  set(${out} "${architectures}" PARENT_SCOPE)
endfunction()

if(NOT EMBER_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # The GPUs of this machine when it has any: their code alone builds fastest. Else Ampere
      # and Hopper, plus PTX of the newest so later GPUs JIT.
      ember_host_cuda_architectures(CMAKE_CUDA_ARCHITECTURES)
      set(ember_architectures_from "this machine's GPUs")
      if(NOT CMAKE_CUDA_ARCHITECTURES)
        set(CMAKE_CUDA_ARCHITECTURES 80-real 90)
        set(ember_architectures_from "no GPU seen: Ampere, Hopper, PTX")
      endif()
      message(STATUS
              "ember: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES} (${ember_architectures_from})")
    endif()
    # One CUDA runtime in the process: the shared libcudart that CUDA::cudart links (CMake's
    # default, Static, would put libcudart_static beside it, two runtimes with separate state).
    set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
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
