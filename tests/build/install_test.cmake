# The install test, in three CTest steps that share one prefix (a CTest fixture):
#   MODE=install    cmake --install <ember build> --prefix <PREFIX>
#   MODE=cmake      configure, build and run tests/build/consumer with find_package(ember)
#   MODE=pkgconfig  compile tests/build/consumer/main.cpp with `pkg-config --cflags --libs ember`
# Usage: cmake -DMODE=... -DEMBER_BINARY_DIR=... -DPREFIX=... -DWORK_DIR=... -DCONSUMER_DIR=...
#              -DGENERATOR=... -DCXX=... [-DCXX_FLAGS=...] -P install_test.cmake
cmake_minimum_required(VERSION 3.25)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "${what} failed (${rc}):\n  ${cmd}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# The consumer prints "sum=6 device=cpu" among other lines and exits 0.
function(check_consumer_output what)
  if(NOT out MATCHES "sum=6 device=cpu")
    message(FATAL_ERROR "${what}: unexpected output:\n${out}")
  endif()
  message(STATUS "${what} ran:\n${out}")
endfunction()

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

elseif(MODE STREQUAL "cmake")
  set(build "${WORK_DIR}/cmake-consumer")
  file(REMOVE_RECURSE "${build}")
  run("consumer configure" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${build}" -G "${GENERATOR}"
      "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
      -DCMAKE_BUILD_TYPE=Release)
  run("consumer build" "${CMAKE_COMMAND}" --build "${build}")
  run("consumer run" "${build}/app")
  check_consumer_output("find_package(ember) consumer")

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
  # pkg-config gives no rpath: find libember the way a user would, through LD_LIBRARY_PATH.
  run("pkg-config --variable=libdir" "${PKG_CONFIG}" --variable=libdir ember)
  string(STRIP "${out}" libdir)
  set(ENV{LD_LIBRARY_PATH} "${libdir}:$ENV{LD_LIBRARY_PATH}")
  run("pkg-config app run" "${exe}")
  check_consumer_output("pkg-config consumer")

else()
  message(FATAL_ERROR "install_test.cmake: MODE must be install, cmake or pkgconfig")
endif()
