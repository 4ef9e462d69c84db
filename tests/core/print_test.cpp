// Printing: every case rebuilds a tensor from gen_print_goldens.py and compares its repr with the
// string PyTorch printed (print_goldens.inc), so the tests need no torch.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/print.h"
#include "ember/ember.h"

namespace ember {
namespace {

const std::map<std::string, std::string>& goldens() {
  static const std::map<std::string, std::string> table = {
#include "core/print_goldens.inc"
  };
  return table;
}

struct Case {
  std::string name;
  std::function<std::string()> repr;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// As if the values lived on `device` (these machines may have no GPU; printing copies to the
// host anyway) or carried autograd state that does not exist yet.
std::string repr_as(const Tensor& values, Device device, std::string grad_fn = "",
                    bool requires_grad = false) {
  return detail::tensor_repr(values, detail::ReprInfo{device, std::move(grad_fn), requires_grad});
}

std::vector<Case> cases() {
  const double nan = std::nan("");
  const double inf = INFINITY;
  // Built lazily: a failing factory then fails its own case, not the whole suite.
  auto lazy = [](std::function<Tensor()> make) { return [make] { return make().str(); }; };
  return {
      // integers and bools
      {"int_1d", lazy([] {
         return tensor({1, 4, 9});
       })},
      {"int_negative_widths", lazy([] {
         return tensor({int64_t{-123456789012}, int64_t{5}, int64_t{0}});
       })},
      {"int32", lazy([] {
         return tensor({1, -2, 3}, kInt32);
       })},
      {"int16", lazy([] {
         return tensor({300, -2}, kInt16);
       })},
      {"int8", lazy([] {
         return tensor({-128, 127}, kInt8);
       })},
      {"uint8", lazy([] { return arange(5, kUInt8); })},
      {"int_3d", lazy([] {
         return arange(24).reshape({2, 3, 4});
       })},
      {"int_4d", lazy([] {
         return arange(16).reshape({2, 2, 2, 2});
       })},
      {"int_wrap", lazy([] { return arange(40); })},
      {"int_transposed", lazy([] {
         return arange(6).reshape({2, 3}).t();
       })},
      {"bool_1d", lazy([] {
         return tensor({true, false});
       })},
      {"bool_2d", lazy([] {
         return tensor({{true, true}, {false, true}});
       })},
      {"bool_scalar", lazy([] { return tensor(true); })},
      // float modes
      {"float_ones_2x3", lazy([] {
         return ones({2, 3});
       })},
      {"float_fraction", lazy([] {
         return tensor({1.5, -2.25, 3.0});
       })},
      {"float_tenths", lazy([] {
         return tensor({0.1, 0.2, 0.3});
       })},
      {"float_mixed_2d", lazy([] {
         return tensor({{1.5, -100.25}, {0.001, 3.0}});
       })},
      {"float_zeros", lazy([] { return zeros({3}); })},
      {"float_negative_zero", lazy([] {
         return tensor({-0.0, 1.0});
       })},
      {"float_int_mode_big", lazy([] {
         return tensor({1.0, 10000.0});
       })},
      {"float_int_mode_over_1e8", lazy([] {
         return tensor({1e9, 2e9});
       })},
      {"float_sci_small", lazy([] {
         return tensor({1e-5, 2e-5});
       })},
      {"float_sci_ratio", lazy([] {
         return tensor({0.5, 1e-5, -3.0});
       })},
      {"float_sci_large", lazy([] {
         return tensor({1.5e9, -2.0});
       })},
      {"float_nan_inf_int", lazy([=] {
         return tensor({nan, 1.0, inf, -inf});
       })},
      {"float_nan_inf_frac", lazy([=] {
         return tensor({nan, 1.5, -inf});
       })},
      {"float_nan_sci", lazy([=] {
         return tensor({1e-8, -1e8, nan});
       })},
      {"float_all_nan", lazy([=] {
         return tensor({nan, nan});
       })},
      {"float_wrap", lazy([] { return arange(30.0) / 7; })},
      {"float_wrap_2d", lazy([] {
         return (arange(60.0) / 8).reshape({2, 30});
       })},
      {"float_3d", lazy([] {
         return (arange(12.0) / 4).reshape({2, 3, 2});
       })},
      {"float64", lazy([] {
         return tensor({0.1, 0.2}, kFloat64);
       })},
      {"float16", lazy([] {
         return tensor({1.0, 2.0}, kFloat16);
       })},
      {"float16_fraction", lazy([] {
         return tensor({0.1, 1.0 / 3, 65504.0}, kFloat16);
       })},
      {"bfloat16_2d", lazy([] {
         return tensor({{0.1, 0.2}, {3.0, -4.5}}, kBFloat16);
       })},
      // 0-dim
      {"scalar_float", lazy([] { return scalar_tensor(3.5); })},
      {"scalar_int_mode", lazy([] { return scalar_tensor(2.0); })},
      {"scalar_int", lazy([] { return tensor(7); })},
      {"scalar_sci", lazy([] { return scalar_tensor(1e-10); })},
      {"scalar_nan", lazy([=] { return scalar_tensor(nan); })},
      {"scalar_float64", lazy([] { return scalar_tensor(2.5, kFloat64); })},
      {"one_element_2d", lazy([] { return tensor({{7.0}}); })},
      // empty
      {"empty_1d", lazy([] { return zeros({0}); })},
      {"empty_0x3", lazy([] {
         return zeros({0, 3});
       })},
      {"empty_int64", lazy([] { return zeros({0}, kInt64); })},
      {"empty_int32_3d", lazy([] {
         return zeros({2, 0, 3}, kInt32);
       })},
      {"empty_bool", lazy([] { return zeros({0}, kBool); })},
      // summarisation (more than 1000 elements)
      {"summary_1d", lazy([] { return arange(2000); })},
      {"summary_1001", lazy([] { return arange(1001.0) / 4; })},
      {"summary_2d", lazy([] {
         return arange(2000).reshape({40, 50});
       })},
      {"summary_2d_float", lazy([] {
         return (arange(2000.0) / 3).reshape({40, 50});
       })},
      {"summary_rows_only", lazy([] {
         return arange(1200).reshape({600, 2});
       })},
      {"summary_cols_only", lazy([] {
         return (arange(3000.0) / 7).reshape({3, 1000});
       })},
      {"summary_3d", lazy([] {
         return arange(1200).reshape({10, 10, 12});
       })},
      // suffixes and their wrapping
      {"suffix_dtype_wraps", lazy([] { return arange(9, kFloat64) / 8; })},
      {"suffix_dtype_after_rows", lazy([] {
         return (arange(6, kFloat16) / 4).reshape({2, 3});
       })},
      {"requires_grad", lazy([] { return ones({2}).requires_grad_(); })},
      {"requires_grad_dtype", lazy([] {
         return tensor({0.5, 1.5}, kFloat64).requires_grad_();
       })},
      {"requires_grad_wraps", lazy([] { return (arange(11.0) / 8).requires_grad_(); })},
      {"cuda_float",
       [] {
         return repr_as(tensor({1.0, 2.0}), Device::cuda(0));
       }},
      {"cuda_int",
       [] {
         return repr_as(tensor({1, 4, 9}), Device::cuda(1));
       }},
      {"cuda_half",
       [] {
         return repr_as(tensor({1.0, 2.0}, kFloat16), Device::cuda(0));
       }},
      {"cuda_scalar", [] { return repr_as(scalar_tensor(3.5), Device::cuda(0)); }},
      {"cuda_empty_2d",
       [] {
         return repr_as(zeros({0, 3}, kInt64), Device::cuda(0));
       }},
      {"cuda_requires_grad",
       [] {
         return repr_as(ones({2, 2}), Device::cuda(0), "", /*requires_grad=*/true);
       }},
      {"cuda_grad_fn",
       [] { return repr_as(tensor({{-0.0249}}), Device::cuda(0), "AddmmBackward0", true); }},
      {"cuda_suffixes_wrap",
       [] { return repr_as(arange(9, kFloat64) / 8, Device::cuda(0), "DivBackward0", true); }},
      {"grad_fn",
       [] {
         return repr_as(tensor({2.0, 2.0}), Device::cpu(), "MulBackward0", true);
       }},
  };
}

class PrintGolden : public ::testing::TestWithParam<Case> {};

TEST_P(PrintGolden, MatchesPyTorch) {
  auto it = goldens().find(GetParam().name);
  ASSERT_NE(it, goldens().end()) << "no golden named " << GetParam().name;
  EXPECT_EQ(GetParam().repr(), it->second);
}

INSTANTIATE_TEST_SUITE_P(Print, PrintGolden, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

TEST(PrintTest, EveryGoldenHasACase) {
  std::set<std::string> names;
  for (const Case& c : cases()) names.insert(c.name);
  for (const auto& [name, text] : goldens()) EXPECT_TRUE(names.count(name)) << name;
}

TEST(PrintTest, StreamMatchesStr) {
  Tensor t = tensor({{1.5, 2.0}, {3.0, 4.0}});
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), t.str());
}

TEST(PrintTest, NonContiguousViewPrintsItsElements) {
  EXPECT_EQ(arange(12).reshape({3, 4}).t().str(),
            "tensor([[ 0,  4,  8],\n        [ 1,  5,  9],\n        [ 2,  6, 10],\n"
            "        [ 3,  7, 11]])");
}

TEST(PrintTest, UndefinedTensor) { EXPECT_EQ(Tensor().str(), "[ Tensor (undefined) ]"); }

}  // namespace
}  // namespace ember
