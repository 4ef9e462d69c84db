# Third-party parts: a real BLAS for the CPU (OpenBLAS preferred), OpenMP for threads (optional:
# without it the CPU kernels run on one thread), zlib for gzip-compressed data files (optional:
# without it read_idx refuses .gz files with a clear error), libzip for PyTorch's .pt and
# NumPy's .npz archives, and DLPack's header for to_dlpack/from_dlpack.
find_package(Threads REQUIRED)

# Note [Optional OpenMP]: OpenMP only spreads parallel_for over ember's CPU threads
# (src/cpu/parallel.h). Without it the same calls run on the calling thread, so a compiler
# without OpenMP (or -DCMAKE_DISABLE_FIND_PACKAGE_OpenMP=ON) still builds a correct ember.
find_package(OpenMP COMPONENTS CXX)
if(OpenMP_CXX_FOUND)
  message(STATUS "ember: OpenMP ${OpenMP_CXX_VERSION}: CPU kernels multi-threaded")
else()
  message(WARNING "ember: OpenMP not found; the CPU kernels run on one thread. Install libgomp "
                  "(part of g++) or libomp-dev (clang) for multi-threaded kernels.")
endif()

# Note [Finding BLAS]: FindBLAS without a vendor takes the first BLAS it meets and reports
# "BLAS All"; where Debian's reference libblas is the only one, that is the netlib BLAS, tens of
# times slower than OpenBLAS, and nothing said so. So OpenBLAS is asked for by name first (a
# BLA_VENDOR given by the user wins), and whatever is found is named from the real file behind
# the library (Debian's libblas.so is an alternative that may be OpenBLAS or the reference), with
# a warning when it is none of the optimised ones.
if(NOT DEFINED BLA_VENDOR AND "$ENV{BLA_VENDOR}" STREQUAL "")
  set(BLA_VENDOR OpenBLAS)
  find_package(BLAS QUIET)  # its "Could NOT find BLAS" would read as if no BLAS were found
  if(NOT BLAS_FOUND)
    set(BLA_VENDOR All)
    find_package(BLAS)
  endif()
else()
  find_package(BLAS)
endif()

# ember_name_blas(<name var> <file var> <libraries>...): the real file of the first library and
# the vendor its path names, or "reference BLAS" when it names none of the optimised ones.
function(ember_name_blas name_out file_out)
  list(FILTER ARGN INCLUDE REGEX "^/")  # drop link flags such as -lpthread or -lm
  if(NOT ARGN)  # FindBLAS found sgemm in the compiler's default libraries
    set(${name_out} "a BLAS in the default libraries" PARENT_SCOPE)
    set(${file_out} "linked by default" PARENT_SCOPE)
    return()
  endif()
  list(GET ARGN 0 library)
  file(REAL_PATH "${library}" file)
  string(TOLOWER "${file}" lower)
  if(lower MATCHES "openblas")
    set(name "OpenBLAS")
  elseif(lower MATCHES "mkl")
    set(name "Intel MKL")
  elseif(lower MATCHES "blis")
    set(name "BLIS")
  elseif(lower MATCHES "flexiblas")
    set(name "FlexiBLAS")
  elseif(lower MATCHES "accelerate")
    set(name "Apple Accelerate")
  elseif(lower MATCHES "armpl")
    set(name "Arm Performance Libraries")
  elseif(lower MATCHES "atlas")
    set(name "ATLAS")
  else()
    set(name "reference BLAS")
  endif()
  set(${name_out} "${name}" PARENT_SCOPE)
  set(${file_out} "${file}" PARENT_SCOPE)
endfunction()

if(BLAS_FOUND)
  ember_name_blas(EMBER_BLAS_NAME EMBER_BLAS_FILE ${BLAS_LIBRARIES})
  message(STATUS "ember: BLAS ${EMBER_BLAS_NAME} (${EMBER_BLAS_FILE})")
  if(EMBER_BLAS_NAME STREQUAL "reference BLAS")
    message(WARNING "ember: the BLAS found, ${EMBER_BLAS_FILE}, is a reference (unoptimised) "
                    "BLAS: matmul, Linear and conv2d run tens of times slower than with OpenBLAS. "
                    "Install libopenblas-dev (bash scripts/setup.sh does) and run cmake again, or "
                    "choose another BLAS with -DBLA_VENDOR=<vendor>.")
  endif()
else()
  set(EMBER_BLAS_NAME "none (built-in loops)")
  message(WARNING "ember: no BLAS found; matmul falls back to ember's own loops. "
                  "Install libopenblas-dev for speed.")
endif()

find_package(ZLIB)
if(NOT ZLIB_FOUND)
  message(WARNING "ember: zlib not found; read_idx cannot read gzip-compressed files. "
                  "Install zlib1g-dev to enable it.")
endif()

# Gloo (Debian's libgloo-dev) carries ember::distributed's CPU collectives (ProcessGroupGloo);
# without it the rest of ember builds and ProcessGroupGloo says how to get it.
find_package(Gloo CONFIG QUIET)
if(NOT Gloo_FOUND)
  message(WARNING "ember: Gloo not found; ProcessGroupGloo (distributed training on CPUs) is "
                  "left out. Install libgloo-dev (bash scripts/setup.sh --test does).")
endif()

# Zip archives are how PyTorch (torch.save) and NumPy (.npz) store files, so libzip is required:
# a maintained reader that checks CRCs and sizes, rather than a home-made one.
# Through pkg-config: Debian 12's libzip CMake package refuses to load without libzip's tools.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(EMBER_LIBZIP QUIET IMPORTED_TARGET libzip)
endif()
if(NOT EMBER_LIBZIP_FOUND)
  message(FATAL_ERROR "ember: libzip not found; it reads and writes PyTorch's .pt and NumPy's "
                      ".npz files. Install libzip-dev (bash scripts/setup.sh does).")
endif()
# DLPack is one header (the exchange struct other libraries share); ember's own headers only
# name its types, so users of ember need it only if they use it themselves.
find_path(EMBER_DLPACK_INCLUDE_DIR dlpack/dlpack.h)
if(NOT EMBER_DLPACK_INCLUDE_DIR)
  message(FATAL_ERROR "ember: dlpack/dlpack.h not found; it defines the tensors to_dlpack and "
                      "from_dlpack exchange. Install libdlpack-dev (bash scripts/setup.sh does).")
endif()
