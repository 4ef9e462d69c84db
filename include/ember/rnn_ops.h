// The recurrent ops, as ATen's: whole multi-layer RNN, LSTM and GRU passes over a sequence
// (at::lstm, at::gru, at::rnn_tanh, at::rnn_relu) and their single steps (at::lstm_cell, ...).
// nn::LSTM and the other modules call these; all are differentiable.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include "ember/array_ref.h"
#include "ember/macros.h"
#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember {

// input [T, B, input_size] ([B, T, input_size] when batch_first). params: for each layer and
// direction (forward, then reverse), w_ih [G*H, in], w_hh [G*H, H'], then b_ih and b_hh [G*H]
// when has_biases, then for an LSTM with projections w_hr [H', H] (H' = proj_size, else H); G is
// 4 (LSTM, gates i f g o), 3 (GRU, r z n) or 1. hx: the initial states [layers * directions, B,
// H'] (and the LSTM's cell states [.., B, H]). Returns the last layer's outputs [T, B, directions *
// H'] and the final states. dropout applies to every layer's output but the last, when train.
EMBER_API std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input, TensorList hx,
                                                  TensorList params, bool has_biases,
                                                  int64_t num_layers, double dropout, bool train,
                                                  bool bidirectional, bool batch_first);
EMBER_API std::tuple<Tensor, Tensor> gru(const Tensor& input, const Tensor& hx, TensorList params,
                                         bool has_biases, int64_t num_layers, double dropout,
                                         bool train, bool bidirectional, bool batch_first);
EMBER_API std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& input, const Tensor& hx,
                                              TensorList params, bool has_biases,
                                              int64_t num_layers, double dropout, bool train,
                                              bool bidirectional, bool batch_first);
EMBER_API std::tuple<Tensor, Tensor> rnn_relu(const Tensor& input, const Tensor& hx,
                                              TensorList params, bool has_biases,
                                              int64_t num_layers, double dropout, bool train,
                                              bool bidirectional, bool batch_first);

// The same over a packed sequence (nn::utils::rnn::PackedSequence): data [N, input_size] holds
// the steps one after the other, batch_sizes (int64, on the CPU) how many sequences each step
// has, longest first; the output is packed the same way.
EMBER_API std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& data, const Tensor& batch_sizes,
                                                  TensorList hx, TensorList params, bool has_biases,
                                                  int64_t num_layers, double dropout, bool train,
                                                  bool bidirectional);
EMBER_API std::tuple<Tensor, Tensor> gru(const Tensor& data, const Tensor& batch_sizes,
                                         const Tensor& hx, TensorList params, bool has_biases,
                                         int64_t num_layers, double dropout, bool train,
                                         bool bidirectional);
EMBER_API std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& data, const Tensor& batch_sizes,
                                              const Tensor& hx, TensorList params, bool has_biases,
                                              int64_t num_layers, double dropout, bool train,
                                              bool bidirectional);
EMBER_API std::tuple<Tensor, Tensor> rnn_relu(const Tensor& data, const Tensor& batch_sizes,
                                              const Tensor& hx, TensorList params, bool has_biases,
                                              int64_t num_layers, double dropout, bool train,
                                              bool bidirectional);

// input [T, B, *] ([B, T, *] when batch_first) with lengths sorted longest first -> the packed
// (data, batch_sizes); and back, padded with padding_value to total_length steps (at least the
// longest), with each sequence's length.
EMBER_API std::tuple<Tensor, Tensor> _pack_padded_sequence(const Tensor& input,
                                                           const Tensor& lengths, bool batch_first);
EMBER_API std::tuple<Tensor, Tensor> _pad_packed_sequence(const Tensor& data,
                                                          const Tensor& batch_sizes,
                                                          bool batch_first,
                                                          const Scalar& padding_value,
                                                          int64_t total_length);

// One step: input [B, in], hx [B, H] (the LSTM's {h, c}); weights as above, biases optional.
EMBER_API std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, TensorList hx,
                                               const Tensor& w_ih, const Tensor& w_hh,
                                               const std::optional<Tensor>& b_ih = {},
                                               const std::optional<Tensor>& b_hh = {});
EMBER_API Tensor gru_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih,
                          const Tensor& w_hh, const std::optional<Tensor>& b_ih = {},
                          const std::optional<Tensor>& b_hh = {});
EMBER_API Tensor rnn_tanh_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih,
                               const Tensor& w_hh, const std::optional<Tensor>& b_ih = {},
                               const std::optional<Tensor>& b_hh = {});
EMBER_API Tensor rnn_relu_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih,
                               const Tensor& w_hh, const std::optional<Tensor>& b_ih = {},
                               const std::optional<Tensor>& b_hh = {});

}  // namespace ember
