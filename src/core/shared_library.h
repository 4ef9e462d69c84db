// A shared library that ember opens on first use rather than links: cuBLAS (Note [cuBLAS loaded
// on first use]), NCCL (Note [NCCL loaded on first use]) and NVML (cuda/nvml.cpp). Each is
// opened once and never closed (what is made from it lives until the process ends); a library
// that cannot be opened, or lacks a function, is not an error here but a reason, error(), that
// the first op needing it raises with its own advice.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

namespace ember::detail {

class SharedLibrary {
 public:
  // Opens `name` (the loader's search: RUNPATH, LD_LIBRARY_PATH, the cache). `too_old` is the
  // likely cause of a missing function, for the reason: "a cuBLAS older than its headers?".
  SharedLibrary(std::string name, std::string too_old);

  // Points `function` at the library's `symbol`; a missing one (or an unopened library) leaves
  // it null and, when `required`, becomes the reason the library cannot be used.
  template <class Function>
  void find(Function*& function, const char* symbol, bool required = true) {
    static_assert(std::is_function_v<Function>);
    function = reinterpret_cast<Function*>(lookup(symbol, required));
  }

  // Empty when the library opened and had every required function.
  const std::string& error() const { return error_; }
  const std::string& name() const { return name_; }

 private:
  void* lookup(const char* symbol, bool required);

  std::string name_, too_old_, error_;
  void* handle_ = nullptr;
};

// The function table `Api` of library `name`, filled by fill(library, api) with find() calls,
// and why it cannot be used (error(): empty when it can).
template <class Api>
struct LoadedApi {
  Api api{};
  std::string error;
};
template <class Api, class Fill>
LoadedApi<Api> load_api(std::string name, std::string too_old, const Fill& fill) {
  SharedLibrary library(std::move(name), std::move(too_old));
  LoadedApi<Api> loaded;
  fill(library, loaded.api);
  loaded.error = library.error();
  return loaded;
}

}  // namespace ember::detail
