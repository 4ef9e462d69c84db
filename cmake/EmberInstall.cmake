# Installs headers, the library, the programs (ember-smi, ember-run, ember-demo),
# emberConfig.cmake (find_package(ember)) and ember.pc.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# An installed libember finds its own private shared dependencies (libcudart, libcublas under
# /usr/local/cuda, ...) without LD_LIBRARY_PATH: keep the link-time directories outside the
# system ones as its RUNPATH.
set_target_properties(ember PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS ember EXPORT emberTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/ember DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Note [LibTorch's include paths]
# A LibTorch program includes <torch/torch.h>, <ATen/ATen.h> or <c10/...>. These paths exist as
# one-line forwards to <ember/torch.h>, so that such a program switches to ember by its link line
# alone. They are the install component torch_headers: installed with ember when
# EMBER_TORCH_HEADERS=ON, else only on request (cmake --install build --component
# torch_headers), since they would shadow a real LibTorch installed in the same prefix.
option(EMBER_TORCH_HEADERS
       "Install LibTorch's include paths (torch/torch.h, ATen/ATen.h, ...) as forwards to ember" OFF)
set(EMBER_TORCH_FORWARDS
  torch/torch.h torch/all.h torch/types.h torch/nn.h torch/optim.h torch/data.h torch/cuda.h
  torch/utils.h torch/serialize.h ATen/ATen.h ATen/Functions.h ATen/core/Tensor.h
  ATen/TensorIndexing.h c10/core/ScalarType.h c10/core/Device.h c10/core/TensorOptions.h
  c10/core/Scalar.h c10/util/Exception.h c10/util/Optional.h c10/util/ArrayRef.h
  c10/util/StringUtil.h
  # Outside torch/torch.h in LibTorch too: these also include ember's header of the same thing.
  torch/nn/parallel/data_parallel.h=ember/nn/parallel/data_parallel.h
  torch/csrc/autograd/engine.h=ember/autograd/engine.h)
if(EMBER_TORCH_HEADERS)
  set(_torch_headers_scope "")
else()
  set(_torch_headers_scope EXCLUDE_FROM_ALL)
endif()
foreach(_entry IN LISTS EMBER_TORCH_FORWARDS)
  string(REPLACE "=" ";" _parts "${_entry}")
  list(GET _parts 0 _header)
  set(_also "")
  list(LENGTH _parts _count)
  if(_count GREATER 1)
    list(GET _parts 1 _ember_header)
    set(_also "#include <${_ember_header}>\n")
  endif()
  set(_forward ${PROJECT_BINARY_DIR}/torch_headers/${_header})
  file(CONFIGURE OUTPUT ${_forward}
       CONTENT "// LibTorch's <${_header}>: ember's LibTorch API.\n#include <ember/torch.h>\n${_also}")
  get_filename_component(_dir ${_header} DIRECTORY)
  install(FILES ${_forward} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${_dir}
          COMPONENT torch_headers ${_torch_headers_scope})
endforeach()

# The programs find the libember installed with them through a RUNPATH relative to themselves
# ($ORIGIN/../lib), so they start without LD_LIBRARY_PATH wherever the prefix is, or is moved to.
file(RELATIVE_PATH _ember_bin_to_lib "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_LIBDIR}")
foreach(_program IN ITEMS ember-smi ember-demo)
  if(TARGET ${_program})
    set_target_properties(${_program} PROPERTIES
      INSTALL_RPATH "$ORIGIN/${_ember_bin_to_lib}" INSTALL_RPATH_USE_LINK_PATH ON)
    install(TARGETS ${_program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
if(TARGET ember-run)  # plain POSIX, no libember to find
  install(TARGETS ember-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT emberTargets NAMESPACE ember:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ember)

# What emberConfig.cmake must find again for a static libember (a shared one carries its deps).
get_target_property(_ember_type ember TYPE)
if(_ember_type STREQUAL "STATIC_LIBRARY")
  set(EMBER_STATIC_LIB ON)
else()
  set(EMBER_STATIC_LIB OFF)
endif()
set(EMBER_CONFIG_BLAS ${BLAS_FOUND})
set(EMBER_CONFIG_OPENMP OFF)
if(OpenMP_CXX_FOUND)  # unset where OpenMP was not looked for
  set(EMBER_CONFIG_OPENMP ON)
endif()
configure_package_config_file(cmake/emberConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/emberConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ember)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/emberConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/emberConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/emberConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ember)

# ember.pc is relocatable: its prefix is computed from where pkg-config found it, so
# `cmake --install build --prefix DIR` gives a working .pc for any DIR.
file(RELATIVE_PATH EMBER_PC_TO_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" EMBER_PC_TO_PREFIX "${EMBER_PC_TO_PREFIX}")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(EMBER_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(EMBER_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(EMBER_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(EMBER_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# Libs.private: what a static libember needs at link time (pkg-config --static).
set(EMBER_PC_LIBS_PRIVATE "-lpthread")
if(OpenMP_CXX_FOUND)
  string(PREPEND EMBER_PC_LIBS_PRIVATE "-fopenmp ")
endif()
if(BLAS_FOUND)
  foreach(_lib IN LISTS BLAS_LIBRARIES)
    if(_lib MATCHES "^/")
      string(APPEND EMBER_PC_LIBS_PRIVATE " ${_lib}")
    elseif(_lib MATCHES "^-")
      string(APPEND EMBER_PC_LIBS_PRIVATE " ${_lib}")
    else()
      string(APPEND EMBER_PC_LIBS_PRIVATE " -l${_lib}")
    endif()
  endforeach()
endif()
string(APPEND EMBER_PC_LIBS_PRIVATE " -lzip")
if(Gloo_FOUND)
  string(APPEND EMBER_PC_LIBS_PRIVATE " -lgloo")
endif()
if(ZLIB_FOUND)
  string(APPEND EMBER_PC_LIBS_PRIVATE " -lz")
endif()
if(EMBER_WITH_CUDA)
  string(APPEND EMBER_PC_LIBS_PRIVATE " -L${CUDAToolkit_LIBRARY_DIR} -lcudart -ldl")
endif()
configure_file(cmake/ember.pc.in ${CMAKE_CURRENT_BINARY_DIR}/ember.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ember.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
