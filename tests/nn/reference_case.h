// The C++ half of the PyTorch golden cases of tests/nn (gen_*_reference.py with the run() of
// reference_header.py): the same fills, the same backward, then every expected value to 1e-10.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ember/ember.h"

namespace ember::test {

// A generated header's cases: name -> ("output<j>" | "grad<i>" -> values in row-major order).
using ReferenceCases = std::map<std::string, std::map<std::string, std::vector<double>>>;

// reference_header.py's filled(): cos(0.23 k + 0.7 i) for the i-th tensor of a case.
inline Tensor filled(IntArrayRef shape, int64_t i) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return cos(0.23 * arange(n, TensorOptions(kFloat64)) + 0.7 * static_cast<double>(i))
      .reshape(shape);
}

using CaseOutputs = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

// reference_header.py's run(): fills the case's tensors (those in `grads` require grad), calls
// forward, backpropagates the sum of floating output j times cos(0.31 k + j) (integer outputs,
// a pool's indices, are only compared), and checks every output and gradient against
// reference.at(name).
inline void check_reference_case(const ReferenceCases& reference, const std::string& name,
                                 const std::vector<std::vector<int64_t>>& shapes,
                                 const std::vector<size_t>& grads, const CaseOutputs& forward) {
  SCOPED_TRACE(name);
  std::vector<Tensor> xs;
  for (size_t i = 0; i < shapes.size(); ++i) xs.push_back(filled(shapes[i], int64_t(i)));
  for (size_t i : grads) xs[i].requires_grad_();
  const std::vector<Tensor> outputs = forward(xs);
  Tensor loss = zeros({}, kFloat64);
  for (size_t j = 0; j < outputs.size(); ++j) {
    if (!isFloatingType(outputs[j].scalar_type())) continue;
    Tensor k = arange(outputs[j].numel(), TensorOptions(kFloat64)).reshape(outputs[j].sizes());
    loss = loss + (outputs[j] * cos(0.31 * k + static_cast<double>(j))).sum();
  }
  loss.backward();

  const auto& expected = reference.at(name);
  auto expect_values = [&](const std::string& key, const Tensor& actual) {
    const std::vector<double>& want = expected.at(key);
    ASSERT_TRUE(actual.defined()) << key;
    ASSERT_EQ(actual.numel(), static_cast<int64_t>(want.size())) << key;
    const std::vector<double> got = actual.detach().to(kFloat64).contiguous().to_vector<double>();
    for (size_t e = 0; e < want.size(); ++e)
      EXPECT_NEAR(got[e], want[e], 1e-10) << key << " element " << e;
  };
  for (size_t j = 0; j < outputs.size(); ++j)
    expect_values("output" + std::to_string(j), outputs[j]);
  for (size_t i : grads) expect_values("grad" + std::to_string(i), xs[i].grad());
}

}  // namespace ember::test
