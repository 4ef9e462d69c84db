// The recurrent layers, as LibTorch's torch/nn/modules/rnn.h: RNN, LSTM (with proj_size) and GRU,
// multi-layer and bidirectional, and their single-step cells RNNCell, LSTMCell and GRUCell. The
// layers run through ember::lstm / gru / rnn_tanh / rnn_relu (ember/rnn_ops.h).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "ember/nn/any_module.h"
#include "ember/nn/module.h"
#include "ember/nn/options/rnn.h"
#include "ember/nn/utils/rnn.h"

namespace ember::nn {

namespace detail {
// Registers weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k}, bias_hh_l{k} (and weight_hr_l{k} with
// proj_size) for each layer k, with "_reverse" for the second direction, in PyTorch's order, all
// drawn from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)).
template <class Derived>
class EMBER_API RNNImplBase : public Cloneable<Derived> {
 public:
  explicit RNNImplBase(const RNNOptionsBase& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  // The weights of each layer and direction, in the order above.
  std::vector<Tensor> all_weights() const;

  RNNOptionsBase options_base;

 protected:
  // A 3-D input whose last dim is input_size.
  void check_input(const Tensor& input) const;
  // (layers * directions, batch, hidden or proj_size) for this input.
  std::tuple<int64_t, int64_t, int64_t> get_expected_hidden_size(const Tensor& input) const;
  void check_hidden_size(const Tensor& hx, std::tuple<int64_t, int64_t, int64_t> expected,
                         std::string msg = "Expected hidden size {1}, got {2}") const;
  // Zeros [layers * directions, batch, size] like `like`, for an hx not given.
  Tensor zero_state(const Tensor& like, int64_t batch, int64_t size) const;
  // hx with its batch (dim 1) in the order `permutation` gives (undefined: unchanged), for
  // packed sequences sorted by length.
  Tensor permute_hidden(Tensor hx, const Tensor& permutation) const;

  std::vector<std::string> flat_weights_names_;
  std::vector<Tensor> flat_weights_;
};
}  // namespace detail

class EMBER_API RNNImpl : public detail::RNNImplBase<RNNImpl> {
 public:
  RNNImpl(int64_t input_size, int64_t hidden_size) : RNNImpl(RNNOptions(input_size, hidden_size)) {}
  explicit RNNImpl(const RNNOptions& options_);
  // output [T, B, directions * hidden_size] and h_n [layers * directions, B, hidden_size].
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  // The packed output and h_n, for a packed input (hx in the original batch order).
  std::tuple<utils::rnn::PackedSequence, Tensor> forward_with_packed_input(
      const utils::rnn::PackedSequence& packed_input, Tensor hx = {});
  RNNOptions options;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())})
};
EMBER_MODULE(RNN);

class EMBER_API LSTMImpl : public detail::RNNImplBase<LSTMImpl> {
 public:
  LSTMImpl(int64_t input_size, int64_t hidden_size)
      : LSTMImpl(LSTMOptions(input_size, hidden_size)) {}
  explicit LSTMImpl(const LSTMOptions& options_);
  // output and (h_n, c_n); h has proj_size features when proj_size > 0.
  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward(
      const Tensor& input, std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  std::tuple<utils::rnn::PackedSequence, std::tuple<Tensor, Tensor>> forward_with_packed_input(
      const utils::rnn::PackedSequence& packed_input,
      std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  LSTMOptions options;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(std::optional<std::tuple<Tensor, Tensor>>())})
};
EMBER_MODULE(LSTM);

class EMBER_API GRUImpl : public detail::RNNImplBase<GRUImpl> {
 public:
  GRUImpl(int64_t input_size, int64_t hidden_size) : GRUImpl(GRUOptions(input_size, hidden_size)) {}
  explicit GRUImpl(const GRUOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  std::tuple<utils::rnn::PackedSequence, Tensor> forward_with_packed_input(
      const utils::rnn::PackedSequence& packed_input, Tensor hx = {});
  GRUOptions options;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())})
};
EMBER_MODULE(GRU);

namespace detail {
// weight_ih [G*H, input_size], weight_hh [G*H, H], bias_ih and bias_hh [G*H] (with bias).
// Inputs are [B, input_size] or one unbatched [input_size].
template <class Derived>
class EMBER_API RNNCellImplBase : public Cloneable<Derived> {
 public:
  explicit RNNCellImplBase(const RNNCellOptionsBase& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  RNNCellOptionsBase options_base;
  Tensor weight_ih, weight_hh, bias_ih, bias_hh;

 protected:
  // 1-D or 2-D with input_size features; a batched input's hidden state has its batch size.
  void check_forward_input(const Tensor& input, const std::string& name) const;
  void check_forward_hidden(const Tensor& input, const Tensor& hx,
                            const std::string& hidden_label) const;
  // "kTanh" or "kReLU" for RNNCell (printed unless kTanh), empty for the others.
  virtual std::string get_nonlinearity_str() const;
};
}  // namespace detail

class EMBER_API RNNCellImpl : public detail::RNNCellImplBase<RNNCellImpl> {
 public:
  RNNCellImpl(int64_t input_size, int64_t hidden_size)
      : RNNCellImpl(RNNCellOptions(input_size, hidden_size)) {}
  explicit RNNCellImpl(const RNNCellOptions& options_);
  Tensor forward(const Tensor& input, Tensor hx = {});
  RNNCellOptions options;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())})
  std::string get_nonlinearity_str() const override;
};
EMBER_MODULE(RNNCell);

class EMBER_API LSTMCellImpl : public detail::RNNCellImplBase<LSTMCellImpl> {
 public:
  LSTMCellImpl(int64_t input_size, int64_t hidden_size)
      : LSTMCellImpl(LSTMCellOptions(input_size, hidden_size)) {}
  explicit LSTMCellImpl(const LSTMCellOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input,
                                     std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  LSTMCellOptions options;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(std::optional<std::tuple<Tensor, Tensor>>())})
};
EMBER_MODULE(LSTMCell);

class EMBER_API GRUCellImpl : public detail::RNNCellImplBase<GRUCellImpl> {
 public:
  GRUCellImpl(int64_t input_size, int64_t hidden_size)
      : GRUCellImpl(GRUCellOptions(input_size, hidden_size)) {}
  explicit GRUCellImpl(const GRUCellOptions& options_);
  Tensor forward(const Tensor& input, Tensor hx = {});
  GRUCellOptions options;

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())})
};
EMBER_MODULE(GRUCell);

}  // namespace ember::nn
