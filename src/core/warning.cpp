// The warning handlers: one per thread, the stderr handler by default (PyTorch's
// ThreadWarningHandler), and the process-wide warnAlways flag.
#include "ember/warning.h"

#include <atomic>
#include <cstdio>
#include <ostream>

#include "ember/string_util.h"

namespace ember {

std::ostream& operator<<(std::ostream& os, const SourceLocation& loc) {
  return os << loc.function << " at " << loc.file << ":" << loc.line;
}

void WarningHandler::process(const Warning& warning) {
  const SourceLocation& at = warning.source_location();
  std::string line = str("[W ", at.file, ":", at.line, "] Warning: ", warning.msg());
  if (!warning.verbatim()) line += str(" (function ", at.function, ")");
  std::fprintf(stderr, "%s\n", line.c_str());
}

namespace {
WarningHandler* default_handler() {
  static WarningHandler handler;
  return &handler;
}
thread_local WarningHandler* current_handler = nullptr;
std::atomic<bool> warn_always{false};
}  // namespace

void warn(const Warning& warning) { WarningUtils::get_warning_handler()->process(warning); }

namespace WarningUtils {

void set_warning_handler(WarningHandler* handler) noexcept { current_handler = handler; }
WarningHandler* get_warning_handler() noexcept {
  return current_handler ? current_handler : default_handler();
}
void set_warnAlways(bool setting) noexcept { warn_always = setting; }
bool get_warnAlways() noexcept { return warn_always; }

}  // namespace WarningUtils
}  // namespace ember
