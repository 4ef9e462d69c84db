// The recurrent layers and cells (ember/nn/rnn.h): parameters, checks and printing as LibTorch's;
// the math is ember::lstm and its siblings (ops/rnn.cpp).
#include "ember/nn/rnn.h"

#include <cmath>
#include <sstream>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/nn/init.h"
#include "ember/rnn_ops.h"
#include "ember/string_util.h"
#include "ember/warning.h"

namespace ember::nn {
namespace detail {
namespace {

// "LSTM" for the module's messages and printing.
const char* mode_name(const RNNOptionsBase::rnn_options_base_mode_t& mode) {
  if (std::holds_alternative<enumtype::kLSTM>(mode)) return "LSTM";
  if (std::holds_alternative<enumtype::kGRU>(mode)) return "GRU";
  return "RNN";
}

int64_t gate_count(const RNNOptionsBase::rnn_options_base_mode_t& mode) {
  if (std::holds_alternative<enumtype::kLSTM>(mode)) return 4;
  if (std::holds_alternative<enumtype::kGRU>(mode)) return 3;
  return 1;
}

std::string sizes_string(std::tuple<int64_t, int64_t, int64_t> s) {
  std::ostringstream os;
  os << "(" << std::get<0>(s) << ", " << std::get<1>(s) << ", " << std::get<2>(s) << ")";
  return os.str();
}

// All of a layer's (or cell's) parameters from U(-1/sqrt(hidden), 1/sqrt(hidden)), as PyTorch.
void uniform_by_hidden_size(const std::vector<Tensor>& parameters, int64_t hidden_size) {
  const double bound = hidden_size > 0 ? 1.0 / std::sqrt(static_cast<double>(hidden_size)) : 0;
  NoGradGuard no_grad;
  for (const Tensor& p : parameters) init::uniform_(p, -bound, bound);
}

}  // namespace

template <class Derived>
RNNImplBase<Derived>::RNNImplBase(const RNNOptionsBase& options_)
    : Cloneable<Derived>(mode_name(options_.mode())), options_base(options_) {
  reset();
}

template <class Derived>
void RNNImplBase<Derived>::reset() {
  const RNNOptionsBase& o = options_base;
  const bool lstm = std::holds_alternative<enumtype::kLSTM>(o.mode());
  EMBER_CHECK_T(ValueError, o.dropout() >= 0 && o.dropout() <= 1,
                "dropout should be a number in range [0, 1] representing the probability of an "
                "element being zeroed");
  if (o.dropout() > 0 && o.num_layers() == 1) {
    warn(Warning(UserWarning(), {mode_name(o.mode()), __FILE__, __LINE__},
                 str("dropout option adds dropout after all but last recurrent layer, so "
                     "non-zero dropout expects num_layers greater than 1, but got dropout=",
                     o.dropout(), " and num_layers=", o.num_layers()),
                 false));
  }
  EMBER_CHECK_T(ValueError, o.proj_size() >= 0 && o.proj_size() < o.hidden_size(),
                "proj_size has to be a positive integer, smaller than hidden_size or zero to "
                "disable projections");
  EMBER_CHECK_T(ValueError, o.proj_size() == 0 || lstm,
                "proj_size argument is only supported for LSTM, not RNN or GRU");
  EMBER_CHECK_T(ValueError, o.input_size() > 0 && o.hidden_size() > 0 && o.num_layers() > 0, "[",
                mode_name(o.mode()),
                "] input_size, hidden_size and num_layers must be positive, got ", o.input_size(),
                ", ", o.hidden_size(), " and ", o.num_layers());

  const int64_t gates = gate_count(o.mode()) * o.hidden_size();
  const int64_t state_size = o.proj_size() > 0 ? o.proj_size() : o.hidden_size();
  const int64_t directions = o.bidirectional() ? 2 : 1;
  flat_weights_names_.clear();
  flat_weights_.clear();
  for (int64_t layer = 0; layer < o.num_layers(); ++layer) {
    for (int64_t direction = 0; direction < directions; ++direction) {
      const int64_t in = layer == 0 ? o.input_size() : state_size * directions;
      const std::string suffix = "_l" + std::to_string(layer) + (direction == 1 ? "_reverse" : "");
      auto add = [&](const std::string& name, std::vector<int64_t> shape) {
        flat_weights_names_.push_back(name + suffix);
        flat_weights_.push_back(this->register_parameter(name + suffix, ember::empty(shape)));
      };
      add("weight_ih", {gates, in});
      add("weight_hh", {gates, state_size});
      if (o.bias()) {
        add("bias_ih", {gates});
        add("bias_hh", {gates});
      }
      if (o.proj_size() > 0) add("weight_hr", {o.proj_size(), o.hidden_size()});
    }
  }
  reset_parameters();
}

template <class Derived>
void RNNImplBase<Derived>::reset_parameters() {
  uniform_by_hidden_size(flat_weights_, options_base.hidden_size());
}

template <class Derived>
std::vector<Tensor> RNNImplBase<Derived>::all_weights() const {
  return flat_weights_;
}

template <class Derived>
void RNNImplBase<Derived>::pretty_print(std::ostream& stream) const {
  const RNNOptionsBase& o = options_base;
  stream << std::boolalpha << "torch::nn::" << mode_name(o.mode())
         << "(input_size=" << o.input_size() << ", hidden_size=" << o.hidden_size()
         << ", num_layers=" << o.num_layers() << ", bias=" << o.bias()
         << ", batch_first=" << o.batch_first() << ", dropout=" << o.dropout()
         << ", bidirectional=" << o.bidirectional();
  if (o.proj_size() > 0) stream << ", proj_size=" << o.proj_size();
  stream << ")";
}

template <class Derived>
void RNNImplBase<Derived>::check_input(const Tensor& input) const {
  EMBER_CHECK_T(ValueError, input.dim() == 3, "input must have 3 dimensions, got ", input.dim());
  EMBER_CHECK_T(ValueError, input.size(-1) == options_base.input_size(),
                "input.size(-1) must be equal to input_size. Expected ", options_base.input_size(),
                ", got ", input.size(-1));
}

template <class Derived>
std::tuple<int64_t, int64_t, int64_t> RNNImplBase<Derived>::get_expected_hidden_size(
    const Tensor& input) const {
  const RNNOptionsBase& o = options_base;
  const int64_t batch = o.batch_first() ? input.size(0) : input.size(1);
  return {o.num_layers() * (o.bidirectional() ? 2 : 1), batch,
          o.proj_size() > 0 ? o.proj_size() : o.hidden_size()};
}

template <class Derived>
void RNNImplBase<Derived>::check_hidden_size(const Tensor& hx,
                                             std::tuple<int64_t, int64_t, int64_t> expected,
                                             std::string msg) const {
  const std::vector<int64_t> want{std::get<0>(expected), std::get<1>(expected),
                                  std::get<2>(expected)};
  if (hx.sizes() == IntArrayRef(want)) return;
  std::ostringstream got;
  got << hx.sizes();
  msg.replace(msg.find("{1}"), 3, sizes_string(expected));
  msg.replace(msg.find("{2}"), 3, got.str());
  ::ember::detail::fail<ValueError>(msg);
}

template <class Derived>
Tensor RNNImplBase<Derived>::zero_state(const Tensor& like, int64_t batch, int64_t size) const {
  const int64_t layers = options_base.num_layers() * (options_base.bidirectional() ? 2 : 1);
  return zeros({layers, batch, size}, like.options());
}

template <class Derived>
Tensor RNNImplBase<Derived>::permute_hidden(Tensor hx, const Tensor& permutation) const {
  if (!permutation.defined()) return hx;
  return hx.index_select(1, permutation);
}

template class RNNImplBase<RNNImpl>;
template class RNNImplBase<LSTMImpl>;
template class RNNImplBase<GRUImpl>;

}  // namespace detail

namespace {

// The options every layer shares, in the form the base keeps.
template <class Options>
detail::RNNOptionsBase base_options(detail::RNNOptionsBase::rnn_options_base_mode_t mode,
                                    const Options& o) {
  return detail::RNNOptionsBase(mode, o.input_size(), o.hidden_size())
      .num_layers(o.num_layers())
      .bias(o.bias())
      .batch_first(o.batch_first())
      .dropout(o.dropout())
      .bidirectional(o.bidirectional());
}

}  // namespace

RNNImpl::RNNImpl(const RNNOptions& options_)
    : RNNImplBase(base_options(std::holds_alternative<enumtype::kTanh>(options_.nonlinearity())
                                   ? detail::RNNOptionsBase::rnn_options_base_mode_t(kRNN_TANH)
                                   : kRNN_RELU,
                               options_)),
      options(options_) {}

std::tuple<Tensor, Tensor> RNNImpl::forward(const Tensor& input, Tensor hx) {
  check_input(input);
  if (hx.defined()) {
    check_hidden_size(hx, get_expected_hidden_size(input));
  } else {
    hx = zero_state(input, std::get<1>(get_expected_hidden_size(input)), options.hidden_size());
  }
  using Run = std::tuple<Tensor, Tensor> (*)(const Tensor&, const Tensor&, TensorList, bool,
                                             int64_t, double, bool, bool, bool);
  const Run run = std::holds_alternative<enumtype::kTanh>(options.nonlinearity()) ? Run{&rnn_tanh}
                                                                                  : Run{&rnn_relu};
  return run(input, hx, flat_weights_, options.bias(), options.num_layers(), options.dropout(),
             is_training(), options.bidirectional(), options.batch_first());
}

LSTMImpl::LSTMImpl(const LSTMOptions& options_)
    : RNNImplBase(base_options(kLSTM, options_).proj_size(options_.proj_size())),
      options(options_) {}

std::tuple<Tensor, std::tuple<Tensor, Tensor>> LSTMImpl::forward(
    const Tensor& input, std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  check_input(input);
  Tensor h, c;
  if (hx_opt) {
    std::tie(h, c) = *hx_opt;
    const auto expected = get_expected_hidden_size(input);
    check_hidden_size(h, expected, "Expected hidden[0] size {1}, got {2}");
    check_hidden_size(c, {std::get<0>(expected), std::get<1>(expected), options.hidden_size()},
                      "Expected hidden[1] size {1}, got {2}");
  } else {
    const auto [layers, batch, state_size] = get_expected_hidden_size(input);
    h = zero_state(input, batch, state_size);
    c = zero_state(input, batch, options.hidden_size());
  }
  auto [output, h_n, c_n] =
      lstm(input, {h, c}, flat_weights_, options.bias(), options.num_layers(), options.dropout(),
           is_training(), options.bidirectional(), options.batch_first());
  return {output, {h_n, c_n}};
}

GRUImpl::GRUImpl(const GRUOptions& options_)
    : RNNImplBase(base_options(kGRU, options_)), options(options_) {}

std::tuple<Tensor, Tensor> GRUImpl::forward(const Tensor& input, Tensor hx) {
  check_input(input);
  if (hx.defined()) {
    check_hidden_size(hx, get_expected_hidden_size(input));
  } else {
    hx = zero_state(input, std::get<1>(get_expected_hidden_size(input)), options.hidden_size());
  }
  return gru(input, hx, flat_weights_, options.bias(), options.num_layers(), options.dropout(),
             is_training(), options.bidirectional(), options.batch_first());
}

// ---- packed sequences: the ATen ops' packed forms, hx reordered as the packed batch is

namespace {
int64_t largest_batch(const utils::rnn::PackedSequence& packed) {
  return packed.batch_sizes().numel() > 0 ? packed.batch_sizes()[0].item<int64_t>() : 0;
}
}  // namespace

std::tuple<utils::rnn::PackedSequence, Tensor> RNNImpl::forward_with_packed_input(
    const utils::rnn::PackedSequence& packed_input, Tensor hx) {
  const Tensor& data = packed_input.data();
  hx = hx.defined() ? permute_hidden(hx, packed_input.sorted_indices())
                    : zero_state(data, largest_batch(packed_input), options.hidden_size());
  using Run = std::tuple<Tensor, Tensor> (*)(const Tensor&, const Tensor&, const Tensor&,
                                             TensorList, bool, int64_t, double, bool, bool);
  const Run run = std::holds_alternative<enumtype::kTanh>(options.nonlinearity()) ? Run{&rnn_tanh}
                                                                                  : Run{&rnn_relu};
  auto [output, h_n] =
      run(data, packed_input.batch_sizes(), hx, flat_weights_, options.bias(), options.num_layers(),
          options.dropout(), is_training(), options.bidirectional());
  return {
      utils::rnn::PackedSequence(output, packed_input.batch_sizes(), packed_input.sorted_indices(),
                                 packed_input.unsorted_indices()),
      permute_hidden(h_n, packed_input.unsorted_indices())};
}

std::tuple<utils::rnn::PackedSequence, std::tuple<Tensor, Tensor>>
LSTMImpl::forward_with_packed_input(const utils::rnn::PackedSequence& packed_input,
                                    std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  const Tensor& data = packed_input.data();
  Tensor h, c;
  if (hx_opt) {
    h = permute_hidden(std::get<0>(*hx_opt), packed_input.sorted_indices());
    c = permute_hidden(std::get<1>(*hx_opt), packed_input.sorted_indices());
  } else {
    const int64_t batch = largest_batch(packed_input);
    h = zero_state(data, batch,
                   options.proj_size() > 0 ? options.proj_size() : options.hidden_size());
    c = zero_state(data, batch, options.hidden_size());
  }
  auto [output, h_n, c_n] =
      lstm(data, packed_input.batch_sizes(), {h, c}, flat_weights_, options.bias(),
           options.num_layers(), options.dropout(), is_training(), options.bidirectional());
  const Tensor& unsorted = packed_input.unsorted_indices();
  return {utils::rnn::PackedSequence(output, packed_input.batch_sizes(),
                                     packed_input.sorted_indices(), unsorted),
          {permute_hidden(h_n, unsorted), permute_hidden(c_n, unsorted)}};
}

std::tuple<utils::rnn::PackedSequence, Tensor> GRUImpl::forward_with_packed_input(
    const utils::rnn::PackedSequence& packed_input, Tensor hx) {
  const Tensor& data = packed_input.data();
  hx = hx.defined() ? permute_hidden(hx, packed_input.sorted_indices())
                    : zero_state(data, largest_batch(packed_input), options.hidden_size());
  auto [output, h_n] =
      gru(data, packed_input.batch_sizes(), hx, flat_weights_, options.bias(), options.num_layers(),
          options.dropout(), is_training(), options.bidirectional());
  return {
      utils::rnn::PackedSequence(output, packed_input.batch_sizes(), packed_input.sorted_indices(),
                                 packed_input.unsorted_indices()),
      permute_hidden(h_n, packed_input.unsorted_indices())};
}

// ---- cells

namespace detail {

template <class Derived>
RNNCellImplBase<Derived>::RNNCellImplBase(const RNNCellOptionsBase& options_)
    : Cloneable<Derived>(options_.num_chunks() == 4   ? "LSTMCell"
                         : options_.num_chunks() == 3 ? "GRUCell"
                                                      : "RNNCell"),
      options_base(options_) {
  reset();
}

template <class Derived>
void RNNCellImplBase<Derived>::reset() {
  const RNNCellOptionsBase& o = options_base;
  const int64_t gates = o.num_chunks() * o.hidden_size();
  weight_ih = this->register_parameter("weight_ih", ember::empty({gates, o.input_size()}));
  weight_hh = this->register_parameter("weight_hh", ember::empty({gates, o.hidden_size()}));
  if (o.bias()) {
    bias_ih = this->register_parameter("bias_ih", ember::empty({gates}));
    bias_hh = this->register_parameter("bias_hh", ember::empty({gates}));
  } else {
    bias_ih = this->register_parameter("bias_ih", Tensor(), /*requires_grad=*/false);
    bias_hh = this->register_parameter("bias_hh", Tensor(), /*requires_grad=*/false);
  }
  reset_parameters();
}

template <class Derived>
void RNNCellImplBase<Derived>::reset_parameters() {
  std::vector<Tensor> parameters{weight_ih, weight_hh};
  if (bias_ih.defined()) parameters.insert(parameters.end(), {bias_ih, bias_hh});
  uniform_by_hidden_size(parameters, options_base.hidden_size());
}

template <class Derived>
void RNNCellImplBase<Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::" << this->name() << "(" << options_base.input_size() << ", "
         << options_base.hidden_size();
  if (!options_base.bias()) stream << ", bias=" << std::boolalpha << false;
  const std::string nonlinearity = get_nonlinearity_str();
  if (!nonlinearity.empty() && nonlinearity != "kTanh") stream << ", nonlinearity=" << nonlinearity;
  stream << ")";
}

template <class Derived>
void RNNCellImplBase<Derived>::check_forward_input(const Tensor& input,
                                                   const std::string& name) const {
  EMBER_CHECK_T(ValueError, input.dim() == 1 || input.dim() == 2, this->name(), ": Expected ", name,
                " to be 1-D or 2-D but received ", input.dim(), "-D tensor");
  EMBER_CHECK_T(ValueError, input.size(-1) == options_base.input_size(),
                "input has inconsistent input_size: got ", input.size(-1), " expected ",
                options_base.input_size());
}

template <class Derived>
void RNNCellImplBase<Derived>::check_forward_hidden(const Tensor& input, const Tensor& hx,
                                                    const std::string& hidden_label) const {
  EMBER_CHECK_T(ValueError, hx.dim() == input.dim(), this->name(), ": Expected ", hidden_label,
                " to be ", input.dim(), "-D (as the input), got ", hx.dim(), "-D");
  EMBER_CHECK_T(ValueError, input.size(0) == hx.size(0) || input.dim() == 1, "Input batch size ",
                input.size(0), " doesn't match hidden", hidden_label, " batch size ", hx.size(0));
  EMBER_CHECK_T(ValueError, hx.size(-1) == options_base.hidden_size(), "hidden", hidden_label,
                " has inconsistent hidden_size: got ", hx.size(-1), ", expected ",
                options_base.hidden_size());
}

template <class Derived>
std::string RNNCellImplBase<Derived>::get_nonlinearity_str() const {
  return "";
}

template class RNNCellImplBase<RNNCellImpl>;
template class RNNCellImplBase<LSTMCellImpl>;
template class RNNCellImplBase<GRUCellImpl>;

}  // namespace detail

namespace {

// A cell's input and hidden state as a batch of one when unbatched; `unbatch` undoes it.
struct Batched {
  bool batched;
  Tensor operator()(const Tensor& t) const { return batched ? t : t.unsqueeze(0); }
  Tensor unbatch(const Tensor& t) const { return batched ? t : t.squeeze(0); }
};

Tensor zero_hidden(const Tensor& input, int64_t hidden_size) {
  return zeros({input.size(0), hidden_size}, input.options());
}

}  // namespace

RNNCellImpl::RNNCellImpl(const RNNCellOptions& options_)
    : RNNCellImplBase(detail::RNNCellOptionsBase(options_.input_size(), options_.hidden_size(),
                                                 options_.bias(), 1)),
      options(options_) {}

std::string RNNCellImpl::get_nonlinearity_str() const {
  return enumtype::get_enum_name(options.nonlinearity());
}

Tensor RNNCellImpl::forward(const Tensor& input, Tensor hx) {
  check_forward_input(input, "input");
  if (hx.defined()) check_forward_hidden(input, hx, "");
  const Batched b{input.dim() == 2};
  const Tensor x = b(input);
  const Tensor h = hx.defined() ? b(hx) : zero_hidden(x, options.hidden_size());
  const auto step = std::holds_alternative<enumtype::kTanh>(options.nonlinearity())
                        ? &rnn_tanh_cell
                        : &rnn_relu_cell;
  return b.unbatch(step(x, h, weight_ih, weight_hh, bias_ih, bias_hh));
}

LSTMCellImpl::LSTMCellImpl(const LSTMCellOptions& options_)
    : RNNCellImplBase(detail::RNNCellOptionsBase(options_.input_size(), options_.hidden_size(),
                                                 options_.bias(), 4)),
      options(options_) {}

std::tuple<Tensor, Tensor> LSTMCellImpl::forward(const Tensor& input,
                                                 std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  check_forward_input(input, "input");
  if (hx_opt) {
    check_forward_hidden(input, std::get<0>(*hx_opt), "[0]");
    check_forward_hidden(input, std::get<1>(*hx_opt), "[1]");
  }
  const Batched b{input.dim() == 2};
  const Tensor x = b(input);
  const Tensor h = hx_opt ? b(std::get<0>(*hx_opt)) : zero_hidden(x, options.hidden_size());
  const Tensor c = hx_opt ? b(std::get<1>(*hx_opt)) : zero_hidden(x, options.hidden_size());
  auto [h1, c1] = lstm_cell(x, {h, c}, weight_ih, weight_hh, bias_ih, bias_hh);
  return {b.unbatch(h1), b.unbatch(c1)};
}

GRUCellImpl::GRUCellImpl(const GRUCellOptions& options_)
    : RNNCellImplBase(detail::RNNCellOptionsBase(options_.input_size(), options_.hidden_size(),
                                                 options_.bias(), 3)),
      options(options_) {}

Tensor GRUCellImpl::forward(const Tensor& input, Tensor hx) {
  check_forward_input(input, "input");
  if (hx.defined()) check_forward_hidden(input, hx, "");
  const Batched b{input.dim() == 2};
  const Tensor x = b(input);
  const Tensor h = hx.defined() ? b(hx) : zero_hidden(x, options.hidden_size());
  return b.unbatch(gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh));
}

}  // namespace ember::nn
