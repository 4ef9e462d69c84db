// Layout: how a tensor's elements are stored (LibTorch's c10::Layout). ember stores strided
// tensors only; the other layouts exist so that LibTorch code naming them compiles, and a
// factory asked for one refuses it.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "ember/macros.h"

namespace ember {

enum class Layout : int8_t { Strided, Sparse, SparseCsr, Mkldnn, SparseCsc, SparseBsr, SparseBsc };
inline constexpr Layout kStrided = Layout::Strided;
inline constexpr Layout kSparse = Layout::Sparse;
inline constexpr Layout kSparseCsr = Layout::SparseCsr;
inline constexpr Layout kMkldnn = Layout::Mkldnn;
inline constexpr Layout kSparseCsc = Layout::SparseCsc;
inline constexpr Layout kSparseBsr = Layout::SparseBsr;
inline constexpr Layout kSparseBsc = Layout::SparseBsc;

// "Strided", "Sparse", ... as LibTorch prints them.
EMBER_API std::ostream& operator<<(std::ostream& os, Layout layout);

}  // namespace ember
