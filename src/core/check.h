// EMBER_CHECK and friends: user errors become typed ember exceptions whose message is built
// only on failure; EMBER_INTERNAL_ASSERT marks ember bugs.
#pragma once

#include <string>

#include "ember/error.h"
#include "ember/string_util.h"

namespace ember::detail {

template <class E, class... Args>
[[noreturn]] void fail(const Args&... args) {
  throw E(ember::str(args...));
}

}  // namespace ember::detail

#define EMBER_CHECK_T(ErrorType, cond, ...)                   \
  do {                                                        \
    if (!(cond)) [[unlikely]]                                 \
      ::ember::detail::fail<::ember::ErrorType>(__VA_ARGS__); \
  } while (0)

#define EMBER_CHECK(cond, ...) EMBER_CHECK_T(Error, cond, __VA_ARGS__)

#define EMBER_INTERNAL_ASSERT(cond, ...)                                                           \
  do {                                                                                             \
    if (!(cond)) [[unlikely]]                                                                      \
      ::ember::detail::fail<::ember::Error>("[ember internal] '", #cond, "' failed at ", __FILE__, \
                                            ":", __LINE__,                                         \
                                            "; please report this bug. " __VA_ARGS__);             \
  } while (0)
