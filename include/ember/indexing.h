// The items of Tensor::index / index_put_, as LibTorch's at::indexing (torch::indexing):
// x.index({1, Slice(None, 2), None, "...", mask}) is Python's x[1, :2, None, ..., mask].
#pragma once

#include <concepts>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <optional>
#include <vector>

#include "ember/macros.h"
#include "ember/tensor.h"

namespace ember::indexing {

// The bounds a Slice gives for an omitted start or stop; Tensor::slice clips them to the dim.
inline constexpr int64_t INDEX_MAX = std::numeric_limits<int64_t>::max();
inline constexpr int64_t INDEX_MIN = std::numeric_limits<int64_t>::min();

// Python's None: a new dim of size 1 as an index, an omitted bound in a Slice.
inline constexpr std::nullopt_t None = std::nullopt;

struct EllipsisIndexType {};
inline constexpr EllipsisIndexType Ellipsis{};

// Python's start:stop:step. An omitted start is the dim's start, an omitted stop its end; a step
// of 0 is refused here, a negative one when the slice is applied (as in LibTorch).
class EMBER_API Slice {
 public:
  Slice(std::optional<int64_t> start = std::nullopt, std::optional<int64_t> stop = std::nullopt,
        std::optional<int64_t> step = std::nullopt);
  int64_t start() const { return start_; }
  int64_t stop() const { return stop_; }
  int64_t step() const { return step_; }

 private:
  int64_t start_, stop_, step_;
};
// Prints `start:stop:step`, as LibTorch.
EMBER_API std::ostream& operator<<(std::ostream& os, const Slice& slice);

// One item of an index: an integer (selects, dropping the dim), a Slice, None (a new dim of size
// 1), an Ellipsis or "..." (the dims no other item names), true / false (a new dim of size 1 /
// 0), or a tensor: integers whose values are positions along the dim, or a bool mask over as
// many dims as it has. Several tensors broadcast together (Python's advanced indexing).
class EMBER_API TensorIndex {
 public:
  enum class Kind : uint8_t { None, Ellipsis, Integer, Boolean, Slice, Tensor };
  TensorIndex(std::nullopt_t) : kind_(Kind::None) {}                           // NOLINT
  TensorIndex(EllipsisIndexType) : kind_(Kind::Ellipsis) {}                    // NOLINT
  TensorIndex(const char* ellipsis);                                           // NOLINT: "..."
  TensorIndex(int64_t integer) : kind_(Kind::Integer), integer_(integer) {}    // NOLINT
  TensorIndex(int integer) : kind_(Kind::Integer), integer_(integer) {}        // NOLINT
  template <std::same_as<bool> B>                                              // not from ints
  TensorIndex(B boolean) : kind_(Kind::Boolean), integer_(boolean ? 1 : 0) {}  // NOLINT
  TensorIndex(Slice slice) : kind_(Kind::Slice), slice_(slice) {}              // NOLINT
  TensorIndex(ember::Tensor tensor) : kind_(Kind::Tensor), tensor_(std::move(tensor)) {}  // NOLINT

  Kind kind() const { return kind_; }
  bool is_none() const { return kind_ == Kind::None; }
  bool is_ellipsis() const { return kind_ == Kind::Ellipsis; }
  bool is_integer() const { return kind_ == Kind::Integer; }
  bool is_boolean() const { return kind_ == Kind::Boolean; }
  bool is_slice() const { return kind_ == Kind::Slice; }
  bool is_tensor() const { return kind_ == Kind::Tensor; }
  int64_t integer() const { return integer_; }
  bool boolean() const { return integer_ != 0; }
  const Slice& slice() const { return slice_; }
  const ember::Tensor& tensor() const { return tensor_; }

 private:
  Kind kind_;
  int64_t integer_ = 0;
  Slice slice_;
  ember::Tensor tensor_;
};
// Print as LibTorch: None, ..., 3, true, 1:9223372036854775807:1, a tensor; a list as (0, None).
EMBER_API std::ostream& operator<<(std::ostream& os, const TensorIndex& index);
EMBER_API std::ostream& operator<<(std::ostream& os, const std::vector<TensorIndex>& indices);

}  // namespace ember::indexing
