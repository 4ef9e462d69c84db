// Variable-length sequences for the recurrent layers, as LibTorch's torch/nn/utils/rnn.h:
// PackedSequence (the steps of a batch of sequences one after the other, longest first) and the
// functions that pack, pad and unpack them.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include "ember/array_ref.h"
#include "ember/macros.h"
#include "ember/tensor.h"
#include "ember/tensor_options.h"

namespace ember::nn::utils::rnn {

// The permutation that undoes `permutation` (undefined stays undefined).
EMBER_API Tensor invert_permutation(const Tensor& permutation);

// data [N, *]: step 0 of every sequence, then step 1 of those that have one, ...; batch_sizes
// (int64, always on the CPU) how many sequences each step holds. sorted_indices orders the
// original batch longest first (undefined when it already was), unsorted_indices undoes that.
class EMBER_API PackedSequence {
 public:
  explicit PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices = {},
                          Tensor unsorted_indices = {});
  const Tensor& data() const { return data_; }
  const Tensor& batch_sizes() const { return batch_sizes_; }
  const Tensor& sorted_indices() const { return sorted_indices_; }
  const Tensor& unsorted_indices() const { return unsorted_indices_; }
  PackedSequence pin_memory() const;
  // data and the indices moved as `options` says (batch_sizes stay on the CPU); itself when data
  // is already there.
  PackedSequence to(TensorOptions options) const;
  PackedSequence cuda() const;
  PackedSequence cpu() const;
  bool is_cuda() const { return data_.is_cuda(); }
  bool is_pinned() const { return data_.is_pinned(); }

 private:
  Tensor data_, batch_sizes_, sorted_indices_, unsorted_indices_;
};

// input [T, B, *] ([B, T, *] when batch_first) holding sequences of `lengths`; with
// enforce_sorted the lengths must be longest first, else they are sorted here.
EMBER_API PackedSequence pack_padded_sequence(Tensor input, Tensor lengths,
                                              bool batch_first = false, bool enforce_sorted = true);
// The padded [T, B, *] (or [B, T, *]) form, in the original batch order, with the lengths;
// total_length pads to that many steps.
EMBER_API std::tuple<Tensor, Tensor> pad_packed_sequence(
    PackedSequence sequence, bool batch_first = false, double padding_value = 0.0,
    std::optional<int64_t> total_length = std::nullopt);
// Sequences [L_i, *] stacked into [max L, B, *] (or [B, max L, *]) with padding_value after each.
EMBER_API Tensor pad_sequence(ArrayRef<Tensor> sequences, bool batch_first = false,
                              double padding_value = 0);
EMBER_API PackedSequence pack_sequence(ArrayRef<Tensor> sequences, bool enforce_sorted = true);

}  // namespace ember::nn::utils::rnn
