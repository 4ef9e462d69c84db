// ember's exception types: every user error is an ember::Error with a message naming the op.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ember/macros.h"
#include "ember/source_location.h"

namespace ember {

// Base of everything ember throws (LibTorch's c10::Error). Messages start with the op in
// brackets, e.g. "[add] ...". It is a std::runtime_error too, so either catch site works.
class EMBER_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg), msg_(msg) { refresh_what(); }
  // As TORCH_CHECK raises it: what() then also says where the check failed.
  Error(SourceLocation source_location, std::string msg);

  // The message without context or location (c10::Error::msg).
  const std::string& msg() const { return msg_; }
  // The message, its context, and where it was raised when known.
  const char* what() const noexcept override { return what_.c_str(); }
  // The message and its context.
  const char* what_without_backtrace() const noexcept { return what_without_backtrace_.c_str(); }
  const std::vector<std::string>& context() const { return context_; }
  // Appends a line of context, as a caller that rethrows adds what it was doing.
  void add_context(std::string new_msg);
  // "Exception raised from f at file:line" for a TORCH_CHECK, else empty: ember keeps no stack
  // trace (LibTorch's backtrace() has one).
  const std::string& backtrace() const { return backtrace_; }

 private:
  void refresh_what();

  std::string msg_;
  std::vector<std::string> context_;
  std::string backtrace_;
  std::string what_without_backtrace_;
  std::string what_;
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
class EMBER_API LinAlgError : public Error {  // a linear-algebra input without a result
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

namespace detail {
// What TORCH_CHECK and its typed forms throw: E with LibTorch's default message when the check
// gave none.
template <class E>
[[noreturn]] void torch_check_fail(SourceLocation where, const char* condition, std::string msg) {
  if (msg.empty())
    msg = std::string("Expected ") + condition +
          " to be true, but got false.  (Could this error message be improved?  If so, please "
          "report an enhancement request to PyTorch.)";
  throw E(where, std::move(msg));
}
// What TORCH_INTERNAL_ASSERT throws: the failed condition, where, and the message.
[[noreturn]] EMBER_API void internal_assert_fail(SourceLocation where, const char* condition,
                                                 const std::string& msg);
}  // namespace detail

}  // namespace ember
