// pixel_shuffle and pixel_unshuffle: a reshape, a permute of the trailing dims and a reshape, so
// that autograd differentiates them through the view and copy nodes.
#include <array>
#include <vector>

#include "core/check.h"
#include "ember/nn_ops.h"

namespace ember {
namespace {

// Checks the [*, C, H, W] input and the factor, with ATen's messages.
void check_shuffle(const char* op, const char* factor_name, const Tensor& self, int64_t factor) {
  EMBER_CHECK_T(ValueError, self.dim() >= 3, "[", op, "] ", op,
                " expects input to have at least 3 dimensions, but got input with ", self.dim(),
                " dimension(s)");
  EMBER_CHECK_T(ValueError, factor > 0, "[", op, "] ", op, " expects a positive ", factor_name,
                ", but got ", factor);
}

// self [*, C, H, W] reshaped to batch + split (5 dims), those 5 permuted by order, and the
// result reshaped to batch + merged (3 dims).
Tensor rearrange_trailing(const Tensor& self, std::array<int64_t, 5> split,
                          std::array<int64_t, 5> order, std::array<int64_t, 3> merged) {
  const int64_t batch = self.dim() - 3;
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().begin() + batch);
  std::vector<int64_t> permutation;
  for (int64_t d = 0; d < batch; ++d) permutation.push_back(d);
  for (int64_t d : order) permutation.push_back(batch + d);
  std::vector<int64_t> split_shape = shape, merged_shape = shape;
  split_shape.insert(split_shape.end(), split.begin(), split.end());
  merged_shape.insert(merged_shape.end(), merged.begin(), merged.end());
  return self.reshape(split_shape).permute(permutation).reshape(merged_shape);
}

}  // namespace

Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor) {
  check_shuffle("pixel_shuffle", "upscale_factor", self, upscale_factor);
  const int64_t r = upscale_factor, c = self.size(-3), h = self.size(-2), w = self.size(-1);
  EMBER_CHECK_T(ValueError, c % (r * r) == 0,
                "[pixel_shuffle] pixel_shuffle expects its input's 'channel' dimension to be "
                "divisible by the square of upscale_factor, but input.size(-3)=",
                c, " is not divisible by ", r * r);
  // [*, C, r, r, H, W] -> [*, C, H, r, W, r]
  return rearrange_trailing(self, {c / (r * r), r, r, h, w}, {0, 3, 1, 4, 2},
                            {c / (r * r), h * r, w * r});
}

Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor) {
  check_shuffle("pixel_unshuffle", "downscale_factor", self, downscale_factor);
  const int64_t r = downscale_factor, c = self.size(-3), h = self.size(-2), w = self.size(-1);
  EMBER_CHECK_T(ValueError, h % r == 0,
                "[pixel_unshuffle] pixel_unshuffle expects height to be divisible by "
                "downscale_factor, but input.size(-2)=",
                h, " is not divisible by ", r);
  EMBER_CHECK_T(ValueError, w % r == 0,
                "[pixel_unshuffle] pixel_unshuffle expects width to be divisible by "
                "downscale_factor, but input.size(-1)=",
                w, " is not divisible by ", r);
  // [*, C, H, r, W, r] -> [*, C, r, r, H, W]
  return rearrange_trailing(self, {c, h / r, r, w / r, r}, {0, 2, 4, 1, 3},
                            {c * r * r, h / r, w / r});
}

}  // namespace ember
