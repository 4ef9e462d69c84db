// EMBER_FUZZ_CHECK: an invariant a harness checks after a successful call. A violation aborts
// with the condition and the values involved, so libFuzzer reports it and saves the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace ember::fuzz {

[[noreturn]] inline void invariant_failed(const char* file, int line, const char* cond,
                                          const std::string& detail) {
  std::fprintf(stderr, "%s:%d: invariant '%s' failed: %s\n", file, line, cond, detail.c_str());
  std::abort();
}

template <class... Args>
std::string describe(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

}  // namespace ember::fuzz

#define EMBER_FUZZ_CHECK(cond, ...)                                          \
  do {                                                                       \
    if (!(cond))                                                             \
      ::ember::fuzz::invariant_failed(__FILE__, __LINE__, #cond,             \
                                      ::ember::fuzz::describe(__VA_ARGS__)); \
  } while (0)
