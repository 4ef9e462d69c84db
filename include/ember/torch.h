// <ember/torch.h>: LibTorch's C++ API over ember. ember's own API already has LibTorch's names,
// signatures and behaviour, so this header only opens LibTorch's namespaces onto it (torch, at,
// c10 and their nested namespaces) and adds LibTorch's macros. A LibTorch program builds
// against ember by changing its include line to this header and its link line to ember's
// (README, "Coming from LibTorch", lists what remains different).
#pragma once

#include <cmath>  // LibTorch programs use NAN and INFINITY through its headers
#include <optional>

#include "ember/ember.h"
#include "ember/nn.h"
#include "ember/string_util.h"
#include "ember/warning.h"

namespace c10 {
using namespace ::ember;
// LibTorch 2.x's c10::optional is std::optional; 1.13's behaves the same.
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::optional;
}  // namespace c10
// LibTorch's distributed classes (torch/csrc/distributed/c10d/*.hpp).
namespace c10d {
using namespace ::ember::distributed;
}  // namespace c10d
namespace caffe2 {
using ::ember::TypeMeta;
}  // namespace caffe2
namespace at {
using namespace ::ember;
}
namespace torch {
using namespace ::ember;
using std::nullopt;  // torch/types.h: torch::optional<size_t> size() const override
using std::optional;
}  // namespace torch

// ---- checks, as c10/util/Exception.h spells them: each throws an ember::Error (c10::Error) or
// the typed error named, with the message built from the arguments (c10::str) only on failure.
#define EMBER_TORCH_CHECK_THROW(ErrorType, cond, ...)                   \
  do {                                                                  \
    if (!(cond)) [[unlikely]]                                           \
      ::ember::detail::torch_check_fail<::ember::ErrorType>(            \
          {__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, #cond, \
          ::ember::str(__VA_ARGS__));                                   \
  } while (0)
#define TORCH_CHECK(cond, ...) EMBER_TORCH_CHECK_THROW(Error, cond, __VA_ARGS__)
#define TORCH_CHECK_INDEX(cond, ...) EMBER_TORCH_CHECK_THROW(IndexError, cond, __VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) EMBER_TORCH_CHECK_THROW(ValueError, cond, __VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) EMBER_TORCH_CHECK_THROW(TypeError, cond, __VA_ARGS__)
#define TORCH_CHECK_LINALG(cond, ...) EMBER_TORCH_CHECK_THROW(LinAlgError, cond, __VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) \
  EMBER_TORCH_CHECK_THROW(NotImplementedError, cond, __VA_ARGS__)

#define TORCH_INTERNAL_ASSERT(cond, ...)                                                           \
  do {                                                                                             \
    if (!(cond)) [[unlikely]]                                                                      \
      ::ember::detail::internal_assert_fail({__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, \
                                            #cond, ::ember::str(__VA_ARGS__));                     \
  } while (0)
#ifdef NDEBUG  // compiled, never evaluated
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...) \
  while (false) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#else
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#endif

// ---- warnings: through the thread's ember::WarningHandler (c10::WarningHandler).
#define TORCH_WARN(...)                                                                 \
  ::ember::warn(::ember::Warning(::ember::UserWarning(),                                \
                                 {__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, \
                                 ::ember::str(__VA_ARGS__), false))
// Once per call site, or every time while WarningUtils::get_warnAlways().
#define TORCH_WARN_ONCE(...)                                        \
  do {                                                              \
    if (::ember::WarningUtils::get_warnAlways()) {                  \
      TORCH_WARN(__VA_ARGS__);                                      \
    } else {                                                        \
      [[maybe_unused]] static const bool ember_warned_once_ = [&] { \
        TORCH_WARN(__VA_ARGS__);                                    \
        return true;                                                \
      }();                                                          \
    }                                                               \
  } while (0)

// ---- modules: the holder `Name` of the module class `Name##Impl`; one setting of an options
// class (getter, chainable setter); the defaults of a forward that AnyModule calls.
#define TORCH_MODULE(Name) EMBER_MODULE(Name)
#define TORCH_ARG(T, name) EMBER_ARG(T, name)
#define FORWARD_HAS_DEFAULT_ARGS(...) EMBER_FORWARD_HAS_DEFAULT_ARGS(__VA_ARGS__)
