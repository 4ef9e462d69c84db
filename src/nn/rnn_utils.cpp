// PackedSequence and the pack / pad functions (ember/nn/utils/rnn.h), over ATen's
// _pack_padded_sequence and _pad_packed_sequence (ops/rnn.cpp).
#include "ember/nn/utils/rnn.h"

#include <algorithm>
#include <vector>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/rnn_ops.h"
#include "ember/shape_ops.h"

namespace ember::nn::utils::rnn {

Tensor invert_permutation(const Tensor& permutation) {
  if (!permutation.defined()) return Tensor();
  Tensor inverse = empty_like(permutation, MemoryFormat::Contiguous);
  inverse.scatter_(0, permutation,
                   arange(permutation.numel(), TensorOptions(kInt64).device(permutation.device())));
  return inverse;
}

PackedSequence::PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices,
                               Tensor unsorted_indices)
    : data_(std::move(data)),
      batch_sizes_(std::move(batch_sizes)),
      sorted_indices_(std::move(sorted_indices)),
      unsorted_indices_(unsorted_indices.defined() ? std::move(unsorted_indices)
                                                   : invert_permutation(sorted_indices_)) {
  EMBER_CHECK_T(ValueError, batch_sizes_.device().is_cpu(),
                "batch_sizes should always be on CPU. Instances of PackedSequence should never be "
                "created manually. They should be instantiated by functions like pack_sequence "
                "and pack_padded_sequences in nn::utils::rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence");
}

PackedSequence PackedSequence::pin_memory() const {
  return PackedSequence(data_.pin_memory(), batch_sizes_,
                        sorted_indices_.defined() ? sorted_indices_.pin_memory() : Tensor(),
                        unsorted_indices_.defined() ? unsorted_indices_.pin_memory() : Tensor());
}

PackedSequence PackedSequence::to(TensorOptions options) const {
  Tensor data = data_.to(options);
  if (data.is_same(data_)) return *this;
  auto moved = [&](const Tensor& indices) {
    return indices.defined() ? indices.to(options.device(data.device()).dtype(indices.dtype()))
                             : Tensor();
  };
  return PackedSequence(data, batch_sizes_, moved(sorted_indices_), moved(unsorted_indices_));
}

PackedSequence PackedSequence::cuda() const { return to(TensorOptions(kCUDA)); }
PackedSequence PackedSequence::cpu() const { return to(TensorOptions(kCPU)); }

PackedSequence pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first,
                                    bool enforce_sorted) {
  lengths = lengths.to(kInt64);
  Tensor sorted_indices;
  if (!enforce_sorted) {
    std::tie(lengths, sorted_indices) = sort(lengths, /*dim=*/-1, /*descending=*/true);
    sorted_indices = sorted_indices.to(input.device());
    input = input.index_select(batch_first ? 0 : 1, sorted_indices);
  }
  auto [data, batch_sizes] = _pack_padded_sequence(input, lengths, batch_first);
  return PackedSequence(data, batch_sizes, sorted_indices, {});
}

std::tuple<Tensor, Tensor> pad_packed_sequence(PackedSequence sequence, bool batch_first,
                                               double padding_value,
                                               std::optional<int64_t> total_length) {
  int64_t max_seq_length = sequence.batch_sizes().size(0);
  if (total_length) {
    EMBER_CHECK_T(ValueError, *total_length >= max_seq_length,
                  "Expected total_length to be at least the length of the longest sequence in "
                  "input, but got total_length=",
                  *total_length, " and max sequence length being ", max_seq_length);
    max_seq_length = *total_length;
  }
  auto [padded, lengths] = _pad_packed_sequence(sequence.data(), sequence.batch_sizes(),
                                                batch_first, padding_value, max_seq_length);
  const Tensor& unsorted = sequence.unsorted_indices();
  if (!unsorted.defined()) return {padded, lengths};
  return {padded.index_select(batch_first ? 0 : 1, unsorted),
          lengths.index_select(0, unsorted.to(kCPU))};
}

Tensor pad_sequence(ArrayRef<Tensor> sequences, bool batch_first, double padding_value) {
  EMBER_CHECK_T(ValueError, !sequences.empty(), "received an empty list of sequences");
  int64_t longest = 0;
  for (const Tensor& s : sequences) longest = std::max(longest, s.size(0));
  std::vector<Tensor> padded;
  for (const Tensor& s : sequences) {
    std::vector<int64_t> tail(s.sizes().begin(), s.sizes().end());
    tail[0] = longest - s.size(0);
    padded.push_back(tail[0] == 0 ? s : cat({s, full(tail, padding_value, s.options())}));
  }
  return stack(padded, batch_first ? 0 : 1);
}

PackedSequence pack_sequence(ArrayRef<Tensor> sequences, bool enforce_sorted) {
  std::vector<int64_t> lengths;
  for (const Tensor& s : sequences) lengths.push_back(s.size(0));
  return pack_padded_sequence(pad_sequence(sequences), tensor(lengths, kInt64),
                              /*batch_first=*/false, enforce_sorted);
}

}  // namespace ember::nn::utils::rnn
