// Strings built from anything printable, as LibTorch's c10::str and c10::Join: messages of
// TORCH_CHECK and TORCH_WARN, and ember's own.
#pragma once

#include <sstream>
#include <string>

namespace ember {

// The arguments written one after another, as `std::ostream <<` writes them: str("got ", 3).
template <class... Args>
std::string str(const Args&... args) {
  std::ostringstream os;
  if constexpr (sizeof...(Args) > 0) (os << ... << args);
  return os.str();
}

// The elements of `items` written with `delimiter` between them: Join(", ", v) -> "1, 2, 3".
template <class Container>
std::string Join(const std::string& delimiter, const Container& items) {
  std::ostringstream os;
  bool first = true;
  for (const auto& item : items) {
    if (!first) os << delimiter;
    os << item;
    first = false;
  }
  return os.str();
}

}  // namespace ember
