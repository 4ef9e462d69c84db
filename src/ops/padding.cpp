// F::pad's two mechanisms, one dim at a time, so autograd and every device come from existing ops:
// constant_pad_nd narrows for the negative (cropping) entries and cats full() blocks on for the
// positive ones; index_pad_nd (reflect, replicate, circular) is one index_select per padded dim.
#include <cstddef>
#include <cstring>
#include <vector>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn_ops.h"
#include "ember/shape_ops.h"

namespace ember {

Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  const auto pad_size = static_cast<int64_t>(pad.size());
  EMBER_CHECK_T(ValueError, pad_size % 2 == 0, "[constant_pad_nd] the pad list has ", pad_size,
                " entries; it must hold (left, right) pairs, so give an even number");
  EMBER_CHECK_T(ValueError, pad_size / 2 <= self.dim(), "[constant_pad_nd] the pad list has ",
                pad_size, " entries, which pad ", pad_size / 2, " dims, but the input of shape ",
                self.sizes(), " has only ", self.dim(), "; give at most ", 2 * self.dim(),
                " entries");
  Tensor out = self;
  for (int64_t i = 0; i < pad_size / 2; ++i) {
    const int64_t dim = self.dim() - 1 - i;
    const int64_t left = pad[static_cast<size_t>(2 * i)];
    const int64_t right = pad[static_cast<size_t>(2 * i + 1)];
    const int64_t size = out.size(dim);
    const int64_t kept = size + (left < 0 ? left : 0) + (right < 0 ? right : 0);
    EMBER_CHECK_T(ValueError, kept >= 0, "[constant_pad_nd] the negative padding (", left, ", ",
                  right, ") crops more than the ", size, " entries of dim ", dim,
                  " of the input of shape ", self.sizes(), "; crop less");
    out = out.narrow(dim, left < 0 ? -left : 0, kept);
    std::vector<Tensor> parts;
    std::vector<int64_t> block(out.sizes().begin(), out.sizes().end());
    if (left > 0) {
      block[static_cast<size_t>(dim)] = left;
      parts.push_back(full(block, value, out.options()));
    }
    parts.push_back(out);
    if (right > 0) {
      block[static_cast<size_t>(dim)] = right;
      parts.push_back(full(block, value, out.options()));
    }
    if (parts.size() > 1) out = cat(parts, dim);
  }
  return out;
}

Tensor index_pad_nd(const Tensor& self, IntArrayRef pad, const char* mode) {
  const bool reflect = std::strcmp(mode, "reflect") == 0;
  const bool circular = std::strcmp(mode, "circular") == 0;
  const auto pad_size = static_cast<int64_t>(pad.size());
  const int64_t padded = pad_size / 2;
  EMBER_CHECK_T(ValueError,
                pad_size % 2 == 0 && padded >= 1 && padded <= 3 &&
                    (self.dim() == padded + 1 || self.dim() == padded + 2),
                "[pad] ", mode, " padding pads the last 1, 2 or 3 dims of a (batched) input, so it",
                " needs 2, 4 or 6 pad entries and an input of that many dims + 1 or + 2; got ",
                pad_size, " entries for an input of shape ", self.sizes());
  Tensor out = self;
  for (int64_t i = 0; i < pad_size / 2; ++i) {
    const int64_t dim = self.dim() - 1 - i;
    const int64_t left = pad[static_cast<size_t>(2 * i)];
    const int64_t right = pad[static_cast<size_t>(2 * i + 1)];
    const int64_t n = self.size(dim);
    if (reflect) {
      EMBER_CHECK_T(ValueError, left < n && right < n, "[pad] reflect padding (", left, ", ", right,
                    ") of dim ", dim, " of the input of shape ", self.sizes(),
                    " must be smaller than that dim's size ", n, "; pad less or use replicate");
    } else if (circular) {
      EMBER_CHECK_T(ValueError, left <= n && right <= n, "[pad] circular padding (", left, ", ",
                    right, ") of dim ", dim, " of the input of shape ", self.sizes(),
                    " must be at most that dim's size ", n, "; pad less");
    } else {
      EMBER_CHECK_T(ValueError, n > 0, "[pad] replicate padding of the empty dim ", dim,
                    " of the input of shape ", self.sizes(), " has nothing to repeat");
    }
    const int64_t out_size = n + left + right;
    EMBER_CHECK_T(ValueError, out_size > 0, "[pad] padding (", left, ", ", right, ") of dim ", dim,
                  " of the input of shape ", self.sizes(), " leaves no entries; crop less");
    std::vector<int64_t> index(static_cast<size_t>(out_size));
    for (int64_t o = 0; o < out_size; ++o) {
      int64_t j = o - left;
      if (reflect) {
        if (j < 0) j = -j;
        if (j >= n) j = 2 * (n - 1) - j;
      } else if (circular) {
        j = ((j % n) + n) % n;
      } else {
        j = j < 0 ? 0 : (j >= n ? n - 1 : j);
      }
      index[static_cast<size_t>(o)] = j;
    }
    const Tensor index_tensor = from_blob(index.data(), {out_size}, TensorOptions(ScalarType::Long))
                                    .to(self.device(), ScalarType::Long, false, true);
    out = index_select(out, dim, index_tensor);
  }
  return out;
}

}  // namespace ember
