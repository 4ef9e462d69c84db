// Warnings as PyTorch 2.x's C++ API raises and routes them (c10::Warning, c10::WarningHandler,
// c10::WarningUtils): TORCH_WARN makes a Warning, warn() hands it to the current thread's
// handler, and the default handler writes it to stderr. ember's own warnings take this path too,
// so a program can collect or silence them.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "ember/macros.h"
#include "ember/source_location.h"

namespace ember {

class EMBER_API Warning {
 public:
  class UserWarning {};
  class DeprecationWarning {};
  using warning_variant_t = std::variant<UserWarning, DeprecationWarning>;

  Warning(warning_variant_t type, const SourceLocation& source_location, std::string msg,
          bool verbatim)
      : type_(type), source_location_(source_location), msg_(std::move(msg)), verbatim_(verbatim) {}

  warning_variant_t type() const { return type_; }
  const SourceLocation& source_location() const { return source_location_; }
  const std::string& msg() const { return msg_; }
  // Whether the message is shown as is, without the "(function ...)" that TORCH_WARN adds.
  bool verbatim() const { return verbatim_; }

 private:
  warning_variant_t type_;
  SourceLocation source_location_;
  std::string msg_;
  bool verbatim_;
};
using UserWarning = Warning::UserWarning;
using DeprecationWarning = Warning::DeprecationWarning;

// Receives every warning raised on the threads it is installed on. The base class writes
// "[W file:line] Warning: msg (function f)" to stderr; subclass it to collect or drop warnings.
class EMBER_API WarningHandler {
 public:
  virtual ~WarningHandler() = default;
  virtual void process(const Warning& warning);
};

// Hands `warning` to the current thread's handler.
EMBER_API void warn(const Warning& warning);

namespace WarningUtils {

// The handler of the calling thread (each thread starts with the stderr one); nullptr restores
// the default.
EMBER_API void set_warning_handler(WarningHandler* handler) noexcept;
EMBER_API WarningHandler* get_warning_handler() noexcept;

// Installs a handler for a scope.
class WarningHandlerGuard {
 public:
  explicit WarningHandlerGuard(WarningHandler* new_handler) : previous_(get_warning_handler()) {
    set_warning_handler(new_handler);
  }
  WarningHandlerGuard(const WarningHandlerGuard&) = delete;
  WarningHandlerGuard& operator=(const WarningHandlerGuard&) = delete;
  ~WarningHandlerGuard() { set_warning_handler(previous_); }

 private:
  WarningHandler* previous_;
};

// Whether TORCH_WARN_ONCE warns every time (process-wide, off by default).
EMBER_API void set_warnAlways(bool setting) noexcept;
EMBER_API bool get_warnAlways() noexcept;

// Sets warnAlways for a scope.
class WarnAlways {
 public:
  explicit WarnAlways(bool setting = true) : previous_(get_warnAlways()) {
    set_warnAlways(setting);
  }
  WarnAlways(const WarnAlways&) = delete;
  WarnAlways& operator=(const WarnAlways&) = delete;
  ~WarnAlways() { set_warnAlways(previous_); }

 private:
  bool previous_;
};

}  // namespace WarningUtils
}  // namespace ember
