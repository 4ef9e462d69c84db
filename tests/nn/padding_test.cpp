// F::pad in its four modes, constant_pad_nd, the padding layers and Conv padding_mode against
// PyTorch 1.13 (padding_reference.h, made by gen_padding_reference.py from the same cases):
// outputs and gradients in double, then gradchecks, the errors and the layers' printing.
#include <gtest/gtest.h>

#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ember/ember.h"
#include "nn/padding_reference.h"
#include "nn/reference_case.h"
#include "test_util.h"

namespace ember::test {
namespace {

namespace F = nn::functional;
using PadInputs = std::vector<Tensor>;

// A case of gen_padding_reference.py: every input requires grad.
void check_padding_case(const std::string& name, const std::vector<std::vector<int64_t>>& shapes,
                        const CaseOutputs& forward) {
  std::vector<size_t> grads(shapes.size());
  std::iota(grads.begin(), grads.end(), size_t{0});
  check_reference_case(padding_reference(), name, shapes, grads, forward);
}

// One padding case: F::pad of the case's one input.
void check_pad_case(const std::string& name, std::vector<int64_t> shape,
                    std::vector<int64_t> widths, F::PadFuncOptions::mode_t mode, double value = 0) {
  check_padding_case(name, {std::move(shape)}, [&](const PadInputs& v) {
    return PadInputs{F::pad(v[0], F::PadFuncOptions(widths).mode(mode).value(value))};
  });
}

std::vector<float> padded_values(const Tensor& t) { return t.contiguous().to_vector<float>(); }

TEST(Padding, ModesMatchPyTorch) {
  check_pad_case("constant_1d", {2, 3}, {2, 1}, kConstant, 0.5);
  check_pad_case("constant_crop", {2, 3, 4}, {1, -1, 2, 0, 0, 1}, kConstant, -1.5);
  check_pad_case("reflect_1d", {2, 3, 5}, {2, 1}, kReflect);
  check_pad_case("reflect_2d", {1, 2, 4, 5}, {1, 2, 3, 0}, kReflect);
  check_pad_case("reflect_3d_unbatched", {1, 3, 4, 3}, {1, 1, 2, 0, 1, 2}, kReflect);
  check_pad_case("replicate_1d_unbatched", {3, 4}, {3, 1}, kReplicate);
  check_pad_case("replicate_2d", {2, 1, 3, 3}, {2, 2, 1, 3}, kReplicate);
  check_pad_case("replicate_3d", {1, 2, 2, 3, 2}, {1, 0, 2, 1, 1, 1}, kReplicate);
  check_pad_case("circular_1d", {1, 2, 4}, {2, 3}, kCircular);
  check_pad_case("circular_2d", {1, 1, 3, 4}, {1, 2, 2, 1}, kCircular);
  check_pad_case("circular_3d", {1, 1, 2, 3, 3}, {1, 1, 0, 2, 2, 1}, kCircular);
}

// Conv's padding (H, W) = (2, 1) in a mode pads (left, right, top, bottom) = (1, 1, 2, 2).
TEST(Padding, ConvPaddingModeMatchesPyTorch) {
  check_padding_case("conv2d_reflect", {{2, 2, 5, 4}, {3, 2, 3, 2}, {3}}, [](const PadInputs& v) {
    nn::Conv2d conv(nn::Conv2dOptions(2, 3, {3, 2}).padding({2, 1}).padding_mode(kReflect));
    conv->weight = v[1];
    conv->bias = v[2];
    return PadInputs{conv(v[0])};
  });
  check_padding_case("conv1d_circular", {{2, 2, 5}, {3, 2, 3}, {3}}, [](const PadInputs& v) {
    nn::Conv1d conv(nn::Conv1dOptions(2, 3, 3).padding(2).padding_mode(kCircular));
    conv->weight = v[1];
    conv->bias = v[2];
    return PadInputs{conv(v[0])};
  });
}

TEST(Padding, SmallCasesByHand) {
  const Tensor x = tensor(std::vector<float>{1, 2, 3}).reshape({1, 1, 3});
  EXPECT_EQ(padded_values(F::pad(x, F::PadFuncOptions({2, 1}).mode(kReflect))),
            (std::vector<float>{3, 2, 1, 2, 3, 2}));
  EXPECT_EQ(padded_values(F::pad(x, F::PadFuncOptions({2, 1}).mode(kReplicate))),
            (std::vector<float>{1, 1, 1, 2, 3, 3}));
  EXPECT_EQ(padded_values(F::pad(x, F::PadFuncOptions({2, 1}).mode(kCircular))),
            (std::vector<float>{2, 3, 1, 2, 3, 1}));
  EXPECT_EQ(padded_values(F::pad(x, F::PadFuncOptions({1, -1}).value(5))),
            (std::vector<float>{5, 1, 2}));
  // An integer tensor pads with its own dtype; an empty result is allowed, as ATen's.
  const Tensor ints = arange(4, kInt64).view({2, 2});
  EXPECT_EQ(constant_pad_nd(ints, {1, 0}, 7).to_vector<int64_t>(),
            (std::vector<int64_t>{7, 0, 1, 7, 2, 3}));
  EXPECT_EQ(constant_pad_nd(ints, {-1, -1}).sizes(), IntArrayRef({2, 0}));
}

TEST(Padding, Gradchecks) {
  manual_seed(5);
  using V = std::vector<Tensor>;
  for (F::PadFuncOptions::mode_t mode :
       {F::PadFuncOptions::mode_t(kConstant), F::PadFuncOptions::mode_t(kReflect),
        F::PadFuncOptions::mode_t(kReplicate), F::PadFuncOptions::mode_t(kCircular)}) {
    gradcheck("pad " + enumtype::get_enum_name(mode),
              [mode](const V& v) {
                return F::pad(v[0], F::PadFuncOptions({1, 2, 2, 1}).mode(mode));
              },
              {randn({1, 2, 3, 3}, kFloat64)});
  }
  gradcheck("constant_pad_nd crop",
            [](const V& v) {
              return constant_pad_nd(v[0], {-1, 2, 1, -1}, 2);
            },
            {randn({3, 4}, kFloat64)});
}

TEST(Padding, ErrorsSayWhatToChange) {
  const Tensor x = ones({1, 2, 3});
  auto pad_error = [&](std::vector<int64_t> widths, F::PadFuncOptions::mode_t mode,
                       double value = 0) {
    return error_of<ValueError>(
        [&] { F::pad(x, F::PadFuncOptions(widths).mode(mode).value(value)); });
  };
  EXPECT_NE(pad_error({3, 0}, kReflect).find("[pad] reflect padding (3, 0) of dim 2"),
            std::string::npos);
  EXPECT_NE(pad_error({4, 0}, kCircular).find("must be at most that dim's size 3"),
            std::string::npos);
  EXPECT_NE(pad_error({1, 1, 1, 1, 1, 1}, kReplicate).find("got 6 entries for an input of shape"),
            std::string::npos);
  EXPECT_EQ(pad_error({1, 1}, kReflect, 2),
            "[pad] padding mode kReflect takes no value (got 2.000000); leave value at 0 or use "
            "kConstant");
  EXPECT_NE(pad_error({1}, kConstant).find("[constant_pad_nd] the pad list has 1 entries"),
            std::string::npos);
  EXPECT_NE(pad_error({-2, -2}, kConstant).find("crops more than the 3 entries of dim 2"),
            std::string::npos);
}

std::string padding_layer_printed(const nn::Module& module) {
  std::ostringstream os;
  module.pretty_print(os);
  return os.str();
}

TEST(Padding, LayersPadAndPrintAsLibTorch) {
  nn::ReflectionPad2d reflect(nn::ReflectionPad2dOptions({1, 1, 2, 0}));
  EXPECT_EQ(padding_layer_printed(*reflect), "torch::nn::ReflectionPad2d(padding=[1, 1, 2, 0])");
  EXPECT_EQ(reflect(ones({1, 1, 3, 3})).sizes(), IntArrayRef({1, 1, 5, 5}));
  nn::ConstantPad1d constant(nn::ConstantPad1dOptions(2, 3.5));
  EXPECT_EQ(padding_layer_printed(*constant),
            "torch::nn::ConstantPad1d(padding=[2, 2], value=3.5)");
  EXPECT_EQ(padded_values(constant(ones({1, 1}))), (std::vector<float>{3.5, 3.5, 1, 3.5, 3.5}));
  nn::ZeroPad2d zero(1);
  EXPECT_EQ(zero(ones({1, 2, 2})).sizes(), IntArrayRef({1, 4, 4}));
  nn::ReplicationPad3d replicate(nn::ReplicationPad3dOptions(1));
  EXPECT_EQ(replicate(ones({1, 1, 2, 2, 2})).sizes(), IntArrayRef({1, 1, 4, 4, 4}));
  nn::Conv2d conv(nn::Conv2dOptions(1, 2, 3).padding(1).padding_mode(kCircular));
  EXPECT_EQ(padding_layer_printed(*conv),
            "torch::nn::Conv2d(1, 2, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1], "
            "padding_mode=kCircular)");
}

}  // namespace
}  // namespace ember::test
