// The recurrent layers and cells against torch.nn 1.13 (rnn_reference.h, made by
// gen_rnn_reference.py from the same cases), their gradchecks, and their errors.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "nn/rnn_reference.h"

namespace ember::test {
namespace {

Tensor rnn_filled(IntArrayRef shape, const std::function<Tensor(const Tensor&)>& f) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return f(arange(n, TensorOptions(kFloat64))).reshape(shape);
}

using Forward =
    std::function<std::vector<Tensor>(nn::Module&, const Tensor&, const std::vector<Tensor>&)>;

// gen_rnn_reference.py's run(): the same fills, the same loss, then every expected value.
void check_case(const std::string& name, const std::shared_ptr<nn::Module>& module,
                std::vector<int64_t> input_shape, const Forward& forward,
                const std::vector<std::string>& grads,
                const std::vector<std::vector<int64_t>>& state_shapes = {}) {
  SCOPED_TRACE(name);
  module->to(kFloat64);
  double i = 0;
  for (auto& item : module->named_parameters()) {
    NoGradGuard no_grad;
    const double offset = 0.11 * i++;
    item.value().copy_(rnn_filled(item.value().sizes(),
                                  [&](const Tensor& k) { return 0.5 * sin(0.37 * k + offset); }));
  }
  Tensor x =
      rnn_filled(input_shape, [](const Tensor& k) { return cos(0.23 * k); }).requires_grad_();
  std::vector<Tensor> states;
  for (const auto& s : state_shapes)
    states.push_back(rnn_filled(s, [](const Tensor& k) { return 0.3 * sin(0.19 * k); }));
  const std::vector<Tensor> outputs = forward(*module, x, states);
  Tensor loss = zeros({}, kFloat64);
  for (size_t j = 0; j < outputs.size(); ++j) {
    const double offset = static_cast<double>(j);
    loss = loss + (outputs[j] * rnn_filled(outputs[j].sizes(), [&](const Tensor& k) {
                     return cos(0.31 * k + offset);
                   })).sum();
  }
  loss.backward();

  const auto& expected = rnn_reference().at(name);
  auto expect_values = [&](const std::string& key, const Tensor& actual) {
    const std::vector<double>& want = expected.at(key);
    ASSERT_EQ(actual.numel(), static_cast<int64_t>(want.size())) << key;
    const Tensor flat = actual.detach().reshape({-1}).contiguous();
    for (size_t e = 0; e < want.size(); ++e)
      EXPECT_NEAR(flat[static_cast<int64_t>(e)].item<double>(), want[e], 1e-12)
          << key << " element " << e;
  };
  for (size_t j = 0; j < outputs.size(); ++j)
    expect_values("output" + std::to_string(j), outputs[j]);
  expect_values("grad:input", x.grad());
  auto params = module->named_parameters();
  for (const std::string& p : grads) expect_values("grad:" + p, params[p].grad());
}

TEST(Rnn, LayersMatchPyTorch) {
  auto lstm_outputs = [](std::tuple<Tensor, std::tuple<Tensor, Tensor>> r) {
    return std::vector<Tensor>{std::get<0>(r), std::get<0>(std::get<1>(r)),
                               std::get<1>(std::get<1>(r))};
  };
  check_case("lstm_2layer_bidirectional",
             nn::LSTM(nn::LSTMOptions(3, 2).num_layers(2).bidirectional(true)).ptr(), {3, 2, 3},
             [&](nn::Module& m, const Tensor& x, const std::vector<Tensor>&) {
               return lstm_outputs(m.as<nn::LSTMImpl>()->forward(x));
             },
             {"weight_hh_l0", "weight_ih_l1_reverse", "bias_hh_l1"});
  check_case("lstm_proj_batch_first",
             nn::LSTM(nn::LSTMOptions(3, 4).proj_size(2).batch_first(true)).ptr(), {2, 3, 3},
             [&](nn::Module& m, const Tensor& x, const std::vector<Tensor>& s) {
               return lstm_outputs(m.as<nn::LSTMImpl>()->forward(x, std::make_tuple(s[0], s[1])));
             },
             {"weight_hr_l0", "weight_hh_l0", "bias_ih_l0"}, {{1, 2, 2}, {1, 2, 4}});
  check_case("gru_2layer_bidirectional",
             nn::GRU(nn::GRUOptions(3, 2).num_layers(2).bidirectional(true)).ptr(), {3, 2, 3},
             [](nn::Module& m, const Tensor& x, const std::vector<Tensor>&) {
               auto [out, h] = m.as<nn::GRUImpl>()->forward(x);
               return std::vector<Tensor>{out, h};
             },
             {"weight_hh_l0", "bias_hh_l0", "bias_ih_l1_reverse"});
  check_case("rnn_tanh_with_state", nn::RNN(3, 2).ptr(), {4, 2, 3},
             [](nn::Module& m, const Tensor& x, const std::vector<Tensor>& s) {
               auto [out, h] = m.as<nn::RNNImpl>()->forward(x, s[0]);
               return std::vector<Tensor>{out, h};
             },
             {"weight_hh_l0", "bias_ih_l0"}, {{1, 2, 2}});
  check_case("rnn_relu_2layer_nobias",
             nn::RNN(nn::RNNOptions(3, 2).num_layers(2).nonlinearity(kReLU).bias(false)).ptr(),
             {3, 2, 3},
             [](nn::Module& m, const Tensor& x, const std::vector<Tensor>&) {
               auto [out, h] = m.as<nn::RNNImpl>()->forward(x);
               return std::vector<Tensor>{out, h};
             },
             {"weight_hh_l1", "weight_ih_l0"});
}

TEST(Rnn, PackedSequencesMatchPyTorch) {
  namespace rnn = nn::utils::rnn;
  check_case("lstm_packed_bidirectional", nn::LSTM(nn::LSTMOptions(3, 2).bidirectional(true)).ptr(),
             {4, 3, 3},
             [](nn::Module& m, const Tensor& x, const std::vector<Tensor>&) {
               auto [out, state] =
                   m.as<nn::LSTMImpl>()->forward_with_packed_input(rnn::pack_padded_sequence(
                       x, tensor({2, 4, 3}), false, /*enforce_sorted=*/false));
               return std::vector<Tensor>{std::get<0>(rnn::pad_packed_sequence(out)),
                                          std::get<0>(state), std::get<1>(state)};
             },
             {"weight_hh_l0", "weight_ih_l0_reverse"});
  check_case(
      "gru_packed_2layer", nn::GRU(nn::GRUOptions(3, 2).num_layers(2)).ptr(), {4, 3, 3},
      [](nn::Module& m, const Tensor& x, const std::vector<Tensor>& s) {
        auto [out, h] = m.as<nn::GRUImpl>()->forward_with_packed_input(
            rnn::pack_padded_sequence(x, tensor({4, 3, 1})), s[0]);
        return std::vector<Tensor>{std::get<0>(rnn::pad_packed_sequence(out, false, 0.0, 5)), h};
      },
      {"weight_hh_l1", "bias_hh_l0"}, {{2, 3, 2}});
}

TEST(Rnn, PackAndPad) {
  namespace rnn = nn::utils::rnn;
  const Tensor a = tensor({1., 2., 3.}), b = tensor({4., 5.}), c = tensor({6.});
  EXPECT_TRUE(equal(rnn::pad_sequence({a, b, c}, /*batch_first=*/true, -1),
                    tensor({{1., 2., 3.}, {4., 5., -1.}, {6., -1., -1.}})));
  rnn::PackedSequence packed = rnn::pack_sequence({b, a, c}, /*enforce_sorted=*/false);
  EXPECT_TRUE(equal(packed.data(), tensor({1., 4., 6., 2., 5., 3.})));
  EXPECT_TRUE(equal(packed.batch_sizes(), tensor({3, 2, 1}, kInt64)));
  EXPECT_TRUE(equal(packed.sorted_indices(), tensor({1, 0, 2}, kInt64)));
  EXPECT_TRUE(equal(packed.unsorted_indices(), tensor({1, 0, 2}, kInt64)));
  auto [padded, lengths] = rnn::pad_packed_sequence(packed, /*batch_first=*/true);
  EXPECT_TRUE(equal(padded, tensor({{4., 5., 0.}, {1., 2., 3.}, {6., 0., 0.}})));
  EXPECT_TRUE(equal(lengths, tensor({2, 3, 1}, kInt64)));
  try {
    rnn::pack_sequence({b, a});
    ADD_FAILURE() << "unsorted lengths accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("`lengths` array must be sorted in decreasing order"),
              std::string::npos);
  }
}

TEST(Rnn, CellsMatchPyTorch) {
  check_case("lstm_cell", nn::LSTMCell(3, 2).ptr(), {2, 3},
             [](nn::Module& m, const Tensor& x, const std::vector<Tensor>& s) {
               auto [h, c] = m.as<nn::LSTMCellImpl>()->forward(x, std::make_tuple(s[0], s[1]));
               return std::vector<Tensor>{h, c};
             },
             {"weight_hh", "bias_ih"}, {{2, 2}, {2, 2}});
  check_case("gru_cell", nn::GRUCell(3, 2).ptr(), {2, 3},
             [](nn::Module& m, const Tensor& x, const std::vector<Tensor>& s) {
               return std::vector<Tensor>{m.as<nn::GRUCellImpl>()->forward(x, s[0])};
             },
             {"weight_hh", "bias_hh"}, {{2, 2}});
  check_case("rnn_cell_relu_unbatched",
             nn::RNNCell(nn::RNNCellOptions(3, 2).nonlinearity(kReLU)).ptr(), {3},
             [](nn::Module& m, const Tensor& x, const std::vector<Tensor>&) {
               return std::vector<Tensor>{m.as<nn::RNNCellImpl>()->forward(x)};
             },
             {"weight_ih"});
}

TEST(Rnn, FloatCellsAgreeWithDouble) {
  // The float cells use vector_math.h's exp and tanh; the double ones std::'s.
  manual_seed(0);
  nn::LSTM lstm(nn::LSTMOptions(5, 8).num_layers(2).bidirectional(true));
  nn::GRU gru(nn::GRUOptions(5, 8).num_layers(2));
  const Tensor x = randn({6, 3, 5}) * 3;
  const Tensor lstm_float = std::get<0>(lstm->forward(x));
  const Tensor gru_float = std::get<0>(gru->forward(x));
  lstm->to(kFloat64);
  gru->to(kFloat64);
  const Tensor x64 = x.to(kFloat64);
  EXPECT_LT((lstm_float - std::get<0>(lstm->forward(x64))).abs().max().item<double>(), 2e-6);
  EXPECT_LT((gru_float - std::get<0>(gru->forward(x64))).abs().max().item<double>(), 2e-6);
}

TEST(Rnn, ParametersAndPrinting) {
  nn::LSTM lstm(nn::LSTMOptions(5, 4).num_layers(2).bidirectional(true).proj_size(3));
  std::vector<std::string> names;
  for (const auto& item : lstm->named_parameters()) names.push_back(item.key());
  EXPECT_EQ(names.size(), 20U);
  EXPECT_EQ(names[0], "weight_ih_l0");
  EXPECT_EQ(names[4], "weight_hr_l0");
  EXPECT_EQ(names[5], "weight_ih_l0_reverse");
  EXPECT_EQ(lstm->named_parameters()["weight_ih_l1"].sizes(), IntArrayRef({16, 6}));
  EXPECT_EQ(lstm->named_parameters()["weight_hh_l1"].sizes(), IntArrayRef({16, 3}));
  EXPECT_EQ(lstm->all_weights().size(), 20U);
  const double bound = 0.5;  // 1 / sqrt(hidden_size)
  for (const Tensor& w : lstm->parameters()) EXPECT_LE(w.abs().max().item<double>(), bound);
  std::ostringstream os;
  os << *lstm;
  EXPECT_EQ(os.str(),
            "torch::nn::LSTM(input_size=5, hidden_size=4, num_layers=2, bias=true, "
            "batch_first=false, dropout=0, bidirectional=true, proj_size=3)");
  std::ostringstream cell;
  cell << *nn::RNNCell(nn::RNNCellOptions(3, 2).nonlinearity(kReLU).bias(false));
  EXPECT_EQ(cell.str(), "torch::nn::RNNCell(3, 2, bias=false, nonlinearity=kReLU)");

  // The module's to() converts in place: forward still reaches the same parameters.
  lstm->to(kFloat64);
  auto [out, state] = lstm->forward(randn({2, 1, 5}, kFloat64));
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 1, 6}));
  EXPECT_EQ(std::get<0>(state).sizes(), IntArrayRef({4, 1, 3}));
  EXPECT_EQ(std::get<1>(state).sizes(), IntArrayRef({4, 1, 4}));
}

TEST(Rnn, ErrorsNameTheProblem) {
  // Fails unless f throws an ember::Error whose message contains `words`.
  auto expect_error = [](const std::function<void()>& f, const std::string& words) {
    try {
      f();
      ADD_FAILURE() << "no error; expected one saying: " << words;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  nn::LSTM lstm(3, 4);
  expect_error(
      [&] {
        lstm->forward(zeros({2, 1, 5}));
      },
      "input.size(-1) must be equal to input_size. Expected 3, got 5");
  expect_error([&] { lstm->forward(zeros({2, 5})); }, "input must have 3 dimensions, got 2");
  expect_error(
      [&] {
        lstm->forward(zeros({2, 1, 3}), std::make_tuple(zeros({1, 1, 3}), zeros({1, 1, 4})));
      },
      "Expected hidden[0] size (1, 1, 4), got [1, 1, 3]");
  expect_error([] { nn::LSTM(nn::LSTMOptions(3, 4).proj_size(4)); },
               "proj_size has to be a positive integer, smaller than hidden_size");
  expect_error(
      [&] {
        lstm->forward(zeros({2, 1, 3}),
                      std::make_tuple(zeros({1, 1, 4}, kFloat64), zeros({1, 1, 4})));
      },
      "[lstm] expected every weight and state to have the input's dtype Float, got Double; convert "
      "them with .to(kFloat)");
  nn::LSTMCell cell(3, 4);
  expect_error(
      [&] {
        cell->forward(zeros({2, 3}), std::make_tuple(zeros({3, 4}), zeros({3, 4})));
      },
      "Input batch size 2 doesn't match hidden[0] batch size 3");

  // The layer's gradient is not differentiable again (as cuDNN's): it says so.
  Tensor x = randn({2, 1, 3}).requires_grad_();
  Tensor out = std::get<0>(lstm->forward(x)).sum();
  expect_error([&] { autograd::grad({out}, {x}, {}, true, /*create_graph=*/true); },
               "[LstmBackward0] the gradient of a recurrent layer is not differentiable again");
}

// First order only: the layer node's backward is not differentiable again (above).
TEST(GradcheckRnn, EveryCellKind) {
  manual_seed(0);
  const Tensor x = randn({3, 2, 3}, kFloat64), h = randn({1, 2, 2}, kFloat64);
  const Tensor c = randn({1, 2, 2}, kFloat64);
  auto weights = [](int64_t gates) {
    return std::vector<Tensor>{randn({gates * 2, 3}, kFloat64), randn({gates * 2, 2}, kFloat64),
                               randn({gates * 2}, kFloat64), randn({gates * 2}, kFloat64)};
  };
  auto with = [](std::vector<Tensor> a, const std::vector<Tensor>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  first_order_check(
      "lstm",
      [](const std::vector<Tensor>& v) {
        auto [out, hn, cn] =
            lstm(v[0], {v[1], v[2]}, {v[3], v[4], v[5], v[6]}, true, 1, 0, false, false, false);
        return cat({out.reshape({-1}), hn.reshape({-1}), cn.reshape({-1})});
      },
      with({x, h, c}, weights(4)), Device::cpu(), 1e-6, false);
  using Run = std::tuple<Tensor, Tensor> (*)(const Tensor&, const Tensor&, TensorList, bool,
                                             int64_t, double, bool, bool, bool);
  const std::vector<std::pair<const char*, Run>> single{
      {"gru", &gru}, {"rnn_tanh", &rnn_tanh}, {"rnn_relu", &rnn_relu}};
  for (const auto& [name, op] : single) {
    const Run run = op;
    first_order_check(
        name,
        [run](const std::vector<Tensor>& v) {
          auto [out, hn] =
              run(v[0], v[1], {v[2], v[3], v[4], v[5]}, true, 1, 0, false, false, false);
          return cat({out.reshape({-1}), hn.reshape({-1})});
        },
        with({x, h}, weights(std::string(name) == "gru" ? 3 : 1)), Device::cpu(), 1e-6, false);
  }
}

}  // namespace
}  // namespace ember::test
