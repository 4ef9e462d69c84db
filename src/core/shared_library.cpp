// Opening a library on first use (shared_library.h).
#include "core/shared_library.h"

#include <dlfcn.h>

#include <utility>

#include "core/check.h"

namespace ember::detail {

SharedLibrary::SharedLibrary(std::string name, std::string too_old)
    : name_(std::move(name)), too_old_(std::move(too_old)) {
  handle_ = dlopen(name_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    error_ = why != nullptr ? why : str(name_, " could not be opened");
  }
}

void* SharedLibrary::lookup(const char* symbol, bool required) {
  if (handle_ == nullptr) return nullptr;
  void* found = dlsym(handle_, symbol);
  if (found == nullptr && required && error_.empty())
    error_ = str(name_, " has no ", symbol, " (", too_old_, ")");
  return found;
}

}  // namespace ember::detail
