// NumPy's .npy format (numpy/lib/format.py), shared by .npy files and the arrays inside .npz
// archives: reading an array from any byte source, and the header that precedes a tensor's bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "ember/tensor.h"

namespace ember::io {

// Reads n bytes at `offset` of an input into dst; read_npy stays within the size it was given.
using ReadAt = std::function<void(uint64_t offset, void* dst, size_t n)>;

// The array in a .npy input of `size` bytes, as a contiguous CPU tensor (Note [npy layout]).
// Everything is validated before the tensor is allocated; a malformed input throws
// ValueError("<where>: ..."), where `where` names it ("[load_npy] a.npy").
Tensor read_npy(uint64_t size, const ReadAt& read_at, const std::string& where);

// The magic, version and header dictionary that precede the bytes of `t` (a contiguous CPU
// tensor, written as it is in memory) in a .npy file. ValueError("<where>: ...") for bfloat16,
// which NumPy lacks.
std::string npy_header(const Tensor& t, const std::string& where);

}  // namespace ember::io
