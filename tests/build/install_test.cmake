# The install test, in CTest steps that share one prefix (a CTest fixture):
#   MODE=install    cmake --install <ember build> --prefix <PREFIX>
#   MODE=programs   run the installed bin/ember-smi, bin/ember-run and bin/ember-demo
#   MODE=cmake      configure, build and run tests/build/consumer with find_package(ember)
#   MODE=pkgconfig  compile tests/build/consumer/main.cpp with `pkg-config --cflags --libs ember`
#   MODE=torch      install the torch_headers component, then build and run
#                   tests/build/consumer/torch_main.cpp, a LibTorch program that includes
#                   <torch/torch.h>, against the installed ember through find_package(ember)
# Installed programs must start as a user starts them: without LD_LIBRARY_PATH, finding the
# prefix's libember through their RUNPATH (checked with ldd, so a libember elsewhere on the
# system cannot stand in for it).
# Usage: cmake -DMODE=... -DEMBER_BINARY_DIR=... -DPREFIX=... -DWORK_DIR=... -DCONSUMER_DIR=...
#              -DGENERATOR=... -DCXX=... -DSHARED=... [-DCXX_FLAGS=...] [-DBLAS_NAME=...]
#              -P install_test.cmake
cmake_minimum_required(VERSION 3.25)
unset(ENV{LD_LIBRARY_PATH})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "${what} failed (${rc}):\n  ${cmd}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# Fails unless out matches regex; else shows what ran.
function(expect_output what regex)
  if(NOT out MATCHES "${regex}")
    message(FATAL_ERROR "${what}: output does not match '${regex}':\n${out}")
  endif()
  message(STATUS "${what} ran:\n${out}")
endfunction()

# A shared libember must come from the prefix (ldd shows where the loader finds it).
function(expect_libember_from_prefix exe)
  if(DEFINED SHARED AND NOT SHARED)
    return()
  endif()
  run("ldd ${exe}" ldd "${exe}")
  string(REGEX MATCH "libember\\.so[^\n]*" found "${out}")
  string(FIND "${found}" "=> ${PREFIX}/" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${exe} does not find libember in ${PREFIX} by itself:\n${out}")
  endif()
endfunction()

# The consumer prints "sum=6 device=cpu" among other lines and exits 0.
set(consumer_output "sum=6 device=cpu")

if(MODE STREQUAL "install")
  file(REMOVE_RECURSE "${PREFIX}")
  run("cmake --install" "${CMAKE_COMMAND}" --install "${EMBER_BINARY_DIR}" --prefix "${PREFIX}")
  foreach(f include/ember/ember.h)
    if(NOT EXISTS "${PREFIX}/${f}")
      message(FATAL_ERROR "install: ${PREFIX}/${f} is missing")
    endif()
  endforeach()
  file(GLOB_RECURSE config "${PREFIX}/*/emberConfig.cmake")
  file(GLOB_RECURSE pc "${PREFIX}/*/ember.pc")
  if(NOT config OR NOT pc)
    message(FATAL_ERROR "install: emberConfig.cmake (${config}) or ember.pc (${pc}) missing")
  endif()
  message(STATUS "installed into ${PREFIX}")

elseif(MODE STREQUAL "programs")
  expect_libember_from_prefix("${PREFIX}/bin/ember-smi")
  run("installed ember-smi" "${PREFIX}/bin/ember-smi" --ascii)
  # The BLAS row starts with the name CMake gave it (Note [Naming the BLAS]).
  string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" blas "${BLAS_NAME}")
  expect_output("installed ember-smi" "\\| BLAS: +${blas}")
  expect_libember_from_prefix("${PREFIX}/bin/ember-demo")
  run("installed ember-demo" "${PREFIX}/bin/ember-demo" --ascii --epochs 1)
  expect_output("installed ember-demo" "test accuracy: [0-9.]+%")
  run("installed ember-run" "${PREFIX}/bin/ember-run" --nproc 2 echo up)
  expect_output("installed ember-run" "\\[rank1\\] up")

elseif(MODE STREQUAL "cmake")
  set(build "${WORK_DIR}/cmake-consumer")
  file(REMOVE_RECURSE "${build}")
  run("consumer configure" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${build}" -G "${GENERATOR}"
      "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
      -DCMAKE_BUILD_TYPE=Release)
  run("consumer build" "${CMAKE_COMMAND}" --build "${build}")
  expect_libember_from_prefix("${build}/app")
  run("consumer run" "${build}/app")
  expect_output("find_package(ember) consumer" "${consumer_output}")

elseif(MODE STREQUAL "pkgconfig")
  find_program(PKG_CONFIG pkg-config REQUIRED)
  file(GLOB_RECURSE pc "${PREFIX}/*/ember.pc")
  list(GET pc 0 pc)
  get_filename_component(pcdir "${pc}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pcdir}")
  set(static "")
  if(DEFINED SHARED AND NOT SHARED)
    set(static --static)  # a static libember also needs its Libs.private (BLAS, OpenMP, ...)
  endif()
  run("pkg-config" "${PKG_CONFIG}" --cflags --libs ${static} ember)
  string(STRIP "${out}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  separate_arguments(extra UNIX_COMMAND "${CXX_FLAGS}")
  file(MAKE_DIRECTORY "${WORK_DIR}")
  set(exe "${WORK_DIR}/pkgconfig-app")
  run("pkg-config compile" "${CXX}" ${extra} "${CONSUMER_DIR}/main.cpp" -o "${exe}" ${flags})
  expect_libember_from_prefix("${exe}")  # ember.pc's Libs carry -Wl,-rpath,${libdir}
  run("pkg-config app run" "${exe}")
  expect_output("pkg-config consumer" "${consumer_output}")

elseif(MODE STREQUAL "torch")
  run("cmake --install torch_headers" "${CMAKE_COMMAND}" --install "${EMBER_BINARY_DIR}"
      --prefix "${PREFIX}" --component torch_headers)
  set(build "${WORK_DIR}/torch-consumer")
  file(REMOVE_RECURSE "${build}")
  run("torch consumer configure" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${build}"
      -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_CXX_COMPILER=${CXX}"
      "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" -DCMAKE_BUILD_TYPE=Release -DCONSUMER_TORCH=ON)
  run("torch consumer build" "${CMAKE_COMMAND}" --build "${build}")
  run("torch consumer run" "${build}/torch_app")
  expect_output("<torch/torch.h> consumer" "torch sum=12 grad=2 dtype=float scalar=Float")

else()
  message(FATAL_ERROR
          "install_test.cmake: MODE must be install, programs, cmake, pkgconfig or torch")
endif()
