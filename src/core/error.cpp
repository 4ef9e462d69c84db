// ember::Error's message, context and location, composed as c10::Error composes them.
#include "ember/error.h"

#include "ember/string_util.h"

namespace ember {

Error::Error(SourceLocation source_location, std::string msg)
    : std::runtime_error(msg),
      msg_(std::move(msg)),
      backtrace_(str("Exception raised from ", source_location)) {
  refresh_what();
}

void Error::add_context(std::string new_msg) {
  context_.push_back(std::move(new_msg));
  refresh_what();
}

void Error::refresh_what() {
  // One line of context joins the message in parentheses; several go on lines of their own.
  what_without_backtrace_ = msg_;
  if (context_.size() == 1) {
    what_without_backtrace_ += " (" + context_[0] + ")";
  } else {
    for (const std::string& line : context_) what_without_backtrace_ += "\n  " + line;
  }
  what_ = what_without_backtrace_;
  if (!backtrace_.empty()) what_ += "\n" + backtrace_;
}

void detail::internal_assert_fail(SourceLocation where, const char* condition,
                                  const std::string& msg) {
  throw Error(where, str(condition, " INTERNAL ASSERT FAILED at \"", where.file, "\":", where.line,
                         ", please report a bug. ", msg));
}

}  // namespace ember
