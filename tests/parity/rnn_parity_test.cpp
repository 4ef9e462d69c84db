// The recurrent layers on every visible GPU against the CPU: outputs, final states and every
// gradient of LSTM (with and without projections), GRU and both RNNs, bidirectional and
// multi-layer, for float32 and float64 (the fused cells of kernels/rnn_cell.h, cuBLAS for the
// products). Skips visibly without a GPU.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ember/ember.h"
#include "parity/parity_check.h"
#include "test_util.h"

namespace ember {
namespace {

using parity::expect_parity_each;
using parity::label;
using parity::leaf_on;

struct RnnCase {
  const char* name;
  std::function<std::shared_ptr<nn::Module>()> make;
  // Runs the layer on x, returns what it outputs.
  std::function<std::vector<Tensor>(nn::Module&, const Tensor&)> run;
};

std::vector<Tensor> lstm_outputs(nn::Module& m, const Tensor& x) {
  auto [out, state] = m.as<nn::LSTMImpl>()->forward(x);
  return {out, std::get<0>(state), std::get<1>(state)};
}

const std::vector<RnnCase> kRnnCases = {
    {"lstm 2 layers bidirectional",
     [] { return nn::LSTM(nn::LSTMOptions(5, 6).num_layers(2).bidirectional(true)).ptr(); },
     lstm_outputs},
    {"lstm proj_size", [] { return nn::LSTM(nn::LSTMOptions(5, 6).proj_size(3)).ptr(); },
     lstm_outputs},
    {"gru bidirectional", [] { return nn::GRU(nn::GRUOptions(5, 6).bidirectional(true)).ptr(); },
     [](nn::Module& m, const Tensor& x) {
       auto [out, h] = m.as<nn::GRUImpl>()->forward(x);
       return std::vector<Tensor>{out, h};
     }},
    {"rnn relu 2 layers",
     [] { return nn::RNN(nn::RNNOptions(5, 6).num_layers(2).nonlinearity(kReLU)).ptr(); },
     [](nn::Module& m, const Tensor& x) {
       auto [out, h] = m.as<nn::RNNImpl>()->forward(x);
       return std::vector<Tensor>{out, h};
     }},
};

TEST(RnnParity, LayersForwardAndBackward) {
  EMBER_SKIP_IF_NO_CUDA();
  for (Device device : parity::gpus())
    for (ScalarType t : {kFloat32, kFloat64})
      for (const RnnCase& c : kRnnCases) {
        manual_seed(41);
        const std::shared_ptr<nn::Module> reference = c.make();
        const Tensor x0 = randn({7, 3, 5});
        expect_parity_each(
            label(c.name, t, device), device,
            [&](Device d) {
              std::shared_ptr<nn::Module> m = reference->clone(d);
              m->to(t);
              Tensor x = leaf_on(x0.to(t), d);
              std::vector<Tensor> outputs = c.run(*m, x);
              Tensor loss = zeros({}, TensorOptions(t).device(d));
              for (const Tensor& o : outputs) loss = loss + (o * o).sum();
              loss.backward();
              std::vector<Tensor> all;
              for (const Tensor& o : outputs) all.push_back(o.detach());
              all.push_back(x.grad());
              for (const Tensor& p : m->parameters()) all.push_back(p.grad());
              return all;
            },
            [](ScalarType dtype) { return dtype == kFloat32 ? 1e-4 : 1e-10; });
      }
}

}  // namespace
}  // namespace ember
