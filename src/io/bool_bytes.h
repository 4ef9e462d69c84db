// Bool elements read from a file: any non-zero byte is true (as NumPy and PyTorch read them), and
// ember's bools are the bytes 0 and 1, which every kernel (and the compiler) may rely on.
#pragma once

#include "ember/tensor.h"

namespace ember::io {

// `t` is a contiguous CPU tensor of kBool just filled from a file.
inline void normalize_bool_bytes(const Tensor& t) {
  auto* bytes = static_cast<unsigned char*>(t.data_ptr());
  for (int64_t i = 0; i < t.numel(); ++i) bytes[i] = bytes[i] != 0;
}

}  // namespace ember::io
