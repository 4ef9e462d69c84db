// c10::intrusive_ptr and c10::make_intrusive, LibTorch's reference-counted handles to process
// groups, stores and works. ember's are std::shared_ptr: the same ownership, and the same uses
// (->, get(), comparison with nullptr, copies) compile unchanged.
#pragma once

#include <memory>
#include <utility>

namespace ember {

template <class T>
using intrusive_ptr = std::shared_ptr<T>;

template <class T, class... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}

}  // namespace ember
