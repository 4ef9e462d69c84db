# Third-party parts: a real BLAS for the CPU (OpenBLAS preferred), OpenMP for threads, zlib for
# gzip-compressed data files (optional: without it read_idx refuses .gz files with a clear error).
find_package(Threads REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)

set(BLA_VENDOR OpenBLAS)
find_package(BLAS)
if(NOT BLAS_FOUND)
  unset(BLA_VENDOR)
  find_package(BLAS)
endif()
if(BLAS_FOUND)
  set(EMBER_BLAS_NAME "${BLA_VENDOR}")
  if(NOT EMBER_BLAS_NAME)
    set(EMBER_BLAS_NAME "generic BLAS")
  endif()
else()
  set(EMBER_BLAS_NAME "none (built-in loops)")
  message(WARNING "ember: no BLAS found; matmul falls back to ember's own loops. "
                  "Install libopenblas-dev for speed.")
endif()
message(STATUS "ember: BLAS ${EMBER_BLAS_NAME}")

find_package(ZLIB)
if(NOT ZLIB_FOUND)
  message(WARNING "ember: zlib not found; read_idx cannot read gzip-compressed files. "
                  "Install zlib1g-dev to enable it.")
endif()
