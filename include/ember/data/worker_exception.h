// WorkerException: what the loop receives when a loader's worker thread threw; the original
// exception is kept, and its message is part of this one's.
#pragma once

#include <exception>
#include <string>
#include <utility>

namespace ember::data {

struct WorkerException : public std::exception {
  explicit WorkerException(std::exception_ptr original)
      : original_exception(std::move(original)),
        message("Caught exception in DataLoader worker thread.") {
    try {
      std::rethrow_exception(original_exception);
    } catch (const std::exception& e) {
      message += " Original message: ";
      message += e.what();
    } catch (...) {  // not a std::exception: nothing more to say
    }
  }

  const char* what() const noexcept override { return message.c_str(); }

  std::exception_ptr original_exception;
  std::string message;
};

}  // namespace ember::data
