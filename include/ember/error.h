// ember's exception types: every user error is an ember::Error with a message naming the op.
#pragma once

#include <stdexcept>
#include <string>

#include "ember/macros.h"

namespace ember {

// Base of everything ember throws. Messages start with the op in brackets, e.g. "[add] ...".
class EMBER_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class EMBER_API ValueError : public Error {  // a bad argument value (device string, shape, ...)
 public:
  using Error::Error;
};
class EMBER_API TypeError : public Error {  // a dtype that the op does not accept
 public:
  using Error::Error;
};
class EMBER_API IndexError : public Error {  // an index or dimension out of range
 public:
  using Error::Error;
};
class EMBER_API NotImplementedError : public Error {  // an op with no kernel for a device/dtype
 public:
  using Error::Error;
};
class EMBER_API NotCompiledError : public Error {  // CUDA asked of a build without it
 public:
  using Error::Error;
};
class EMBER_API OutOfMemoryError : public Error {  // an allocation that cannot succeed
 public:
  using Error::Error;
};
class EMBER_API CudaError : public Error {  // an error reported by the CUDA runtime
 public:
  using Error::Error;
};

}  // namespace ember
