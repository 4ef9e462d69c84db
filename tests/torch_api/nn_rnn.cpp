// Area 6 (issue 23): the recurrent layers and cells as LibTorch's C++ frontend defines them: their
// options, parameter names and shapes, printing, forward values and gradients in every mode
// (layers, directions, batch_first, proj_size, no bias, ReLU), default states, and the messages
// of their checks.
#include <sstream>
#include <string>
#include <tuple>

#include "torch_api.h"

namespace {

// Every parameter, in named_parameters() order, from 0.5 sin(0.37 k + 0.11 i): the same values
// in both libraries, whatever their generators draw.
void fill_parameters(torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  double i = 0;
  for (auto& item : module.named_parameters()) {
    torch::Tensor& p = item.value();
    const torch::Tensor k = torch::arange(p.numel(), torch::kDouble);
    p.copy_((torch::sin(k * 0.37 + 0.11 * i) * 0.5).reshape(p.sizes()));
    i += 1;
  }
}

torch::Tensor sequence(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return torch::cos(torch::arange(n, torch::kDouble) * 0.23).reshape(shape).requires_grad_();
}

std::string keys_and_shapes(torch::nn::Module& module) {
  std::string out;
  for (const auto& item : module.named_parameters())
    out += item.key() + torch_api::show(item.value().sizes()) + " ";
  return out;
}

std::string printed(const torch::nn::Module& module) {
  std::ostringstream os;
  module.pretty_print(os);
  return os.str();
}

void lstm_layers() {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(3, 2).num_layers(2).bidirectional(true));
  SHOW(keys_and_shapes(*lstm));
  SHOW(printed(*lstm));
  lstm->to(torch::kDouble);
  fill_parameters(*lstm);
  torch::Tensor x = sequence({3, 2, 3});
  auto out = lstm->forward(x);
  torch::Tensor output = std::get<0>(out);
  torch::Tensor h = std::get<0>(std::get<1>(out)), c = std::get<1>(std::get<1>(out));
  SHOW(output);
  SHOW(h);
  SHOW(c);
  (output.sum() + h.pow(2).sum() + c.sum()).backward();
  SHOW(x.grad());
  SHOW(lstm->named_parameters()["weight_hh_l1_reverse"].grad());
  SHOW(lstm->named_parameters()["bias_ih_l0"].grad());

  torch::nn::LSTM projected(torch::nn::LSTMOptions(3, 4).proj_size(2).batch_first(true));
  SHOW(keys_and_shapes(*projected));
  SHOW(printed(*projected));
  projected->to(torch::kDouble);
  fill_parameters(*projected);
  torch::Tensor y = sequence({2, 3, 3});
  auto state = std::make_tuple(torch::full({1, 2, 2}, 0.1, torch::kDouble),
                               torch::full({1, 2, 4}, -0.2, torch::kDouble));
  auto r = projected->forward(y, state);
  SHOW(std::get<0>(r));
  SHOW(std::get<1>(std::get<1>(r)));
  std::get<0>(r).sum().backward();
  SHOW(projected->named_parameters()["weight_hr_l0"].grad());
}

void gru_and_rnn_layers() {
  torch::nn::GRU gru(torch::nn::GRUOptions(3, 2).num_layers(2).batch_first(true));
  SHOW(printed(*gru));
  gru->to(torch::kDouble);
  fill_parameters(*gru);
  torch::Tensor x = sequence({2, 4, 3});
  torch::Tensor output, h;  // (no structured bindings: SHOW's lambda captures them)
  std::tie(output, h) = gru->forward(x);
  SHOW(output);
  SHOW(h);
  (output.sum() + h.sum()).backward();
  SHOW(x.grad());
  SHOW(gru->named_parameters()["bias_hh_l0"].grad());

  torch::nn::RNN rnn(torch::nn::RNNOptions(3, 2).nonlinearity(torch::kReLU).bias(false));
  SHOW(keys_and_shapes(*rnn));
  SHOW(printed(*rnn));
  rnn->to(torch::kDouble);
  fill_parameters(*rnn);
  torch::Tensor z = sequence({4, 1, 3});
  torch::Tensor r_out, r_h;
  std::tie(r_out, r_h) = rnn->forward(z, torch::full({1, 1, 2}, 0.5, torch::kDouble));
  SHOW(r_out);
  SHOW(r_h);
}

void cells() {
  torch::nn::LSTMCell lstm(3, 2);
  torch::nn::GRUCell gru(torch::nn::GRUCellOptions(3, 2).bias(false));
  torch::nn::RNNCell rnn(torch::nn::RNNCellOptions(3, 2).nonlinearity(torch::kReLU));
  SHOW(keys_and_shapes(*lstm));
  SHOW(printed(*lstm));
  SHOW(printed(*gru));
  SHOW(printed(*rnn));
  for (torch::nn::Module* m :
       {static_cast<torch::nn::Module*>(lstm.get()), static_cast<torch::nn::Module*>(gru.get()),
        static_cast<torch::nn::Module*>(rnn.get())}) {
    m->to(torch::kDouble);
    fill_parameters(*m);
  }
  torch::Tensor x = sequence({2, 3});
  torch::Tensor h, c;
  std::tie(h, c) = lstm->forward(x);
  SHOW(h);
  SHOW(c);
  SHOW(gru->forward(x, torch::full({2, 2}, 0.3, torch::kDouble)));
  SHOW(rnn->forward(sequence({1, 3})));
  (h.sum() + c.sum()).backward();
  SHOW(lstm->weight_ih.grad());
}

void packed_sequences() {
  namespace rnn = torch::nn::utils::rnn;
  torch::Tensor a = torch::tensor({1., 2., 3.}), b = torch::tensor({4., 5.}),
                c = torch::tensor({6.});
  SHOW(rnn::pad_sequence({a, b, c}, true, -1.0));
  rnn::PackedSequence packed = rnn::pack_sequence({b, a, c}, false);
  SHOW(packed.data());
  SHOW(packed.batch_sizes());
  SHOW(packed.sorted_indices());
  SHOW(packed.unsorted_indices());
  SHOW(std::get<0>(rnn::pad_packed_sequence(packed, true)));
  SHOW(std::get<1>(rnn::pad_packed_sequence(packed, true)));

  torch::nn::LSTM lstm(torch::nn::LSTMOptions(3, 2).bidirectional(true));
  lstm->to(torch::kDouble);
  fill_parameters(*lstm);
  torch::Tensor x = sequence({4, 3, 3});
  auto out = lstm->forward_with_packed_input(
      rnn::pack_padded_sequence(x, torch::tensor({2, 4, 3}), false, false));
  torch::Tensor padded = std::get<0>(rnn::pad_packed_sequence(std::get<0>(out)));
  SHOW(padded);
  SHOW(std::get<0>(std::get<1>(out)));
  padded.sum().backward();
  SHOW(x.grad());
  SHOW_THROWS("`lengths` array must be sorted in decreasing order",
              rnn::pack_padded_sequence(x, torch::tensor({2, 4, 3})));
}

void checks() {
  torch::nn::LSTM lstm(3, 4);
  SHOW_THROWS("input.size(-1) must be equal to input_size. Expected 3, got 5",
              lstm->forward(torch::zeros({2, 1, 5})));
  SHOW_THROWS("Expected hidden[0] size",
              lstm->forward(torch::zeros({2, 1, 3}),
                            std::make_tuple(torch::zeros({1, 1, 3}), torch::zeros({1, 1, 4}))));
  SHOW_THROWS("proj_size has to be a positive integer, smaller than hidden_size",
              torch::nn::LSTM(torch::nn::LSTMOptions(3, 4).proj_size(4)));
  torch::nn::GRU gru(3, 4);
  SHOW_THROWS("proj_size argument is only supported for LSTM, not RNN or GRU",
              gru->options_base.proj_size(2);
              gru->reset());
  torch::nn::GRUCell cell(3, 4);
  SHOW_THROWS("input has inconsistent input_size: got 2 expected 3",
              cell->forward(torch::zeros({2, 2})));
  SHOW_THROWS("Input batch size 2 doesn't match hidden batch size 3",
              cell->forward(torch::zeros({2, 3}), torch::zeros({3, 4})));
}

}  // namespace

void nn_rnn() {
  torch_api::section("nn_rnn: layers");
  lstm_layers();
  gru_and_rnn_layers();
  torch_api::section("nn_rnn: cells");
  cells();
  torch_api::section("nn_rnn: packed sequences");
  packed_sequences();
  torch_api::section("nn_rnn: checks");
  checks();
}
