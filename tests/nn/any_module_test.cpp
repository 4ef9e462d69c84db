// nn::AnyValue, nn::AnyModule and nn::Sequential as LibTorch's: forwards of any arity and types,
// default arguments, the count and type checks' messages, chaining through Sequential, cloning.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ember/nn.h"
#include "test_util.h"

namespace ember::test {
namespace {

// a + alpha * b: three arguments of two types.
struct AxpyImpl : nn::Module {
  Tensor forward(Tensor a, const Tensor& b, double alpha) { return a + b * alpha; }
};
EMBER_MODULE(Axpy);

// (x + shift) * scale, with both settings defaulted.
struct ShiftScaleImpl : nn::Module {
  Tensor forward(Tensor x, int shift = 1, double scale = 2.0) {
    return (x + static_cast<double>(shift)) * scale;
  }

 protected:
  EMBER_FORWARD_HAS_DEFAULT_ARGS({1, nn::AnyValue(1)}, {2, nn::AnyValue(2.0)})
};
EMBER_MODULE(ShiftScale);

// Modules of a chain whose values are not all tensors: x -> (x, -x) -> x - (-x) -> sum.
struct SplitImpl : nn::Module {
  std::pair<Tensor, Tensor> forward(Tensor x) { return {x, -x}; }
};
EMBER_MODULE(Split);
struct DifferenceImpl : nn::Module {
  Tensor forward(std::pair<Tensor, Tensor> pair) { return pair.first - pair.second; }
};
EMBER_MODULE(Difference);
struct TotalImpl : nn::Module {
  double forward(const Tensor& x) { return x.sum().item<double>(); }
};
EMBER_MODULE(Total);

// Cloneable modules: a parameterised affine map and a doubling.
struct AffineImpl : nn::Cloneable<AffineImpl> {
  AffineImpl() { reset(); }
  void reset() override {
    weight = register_parameter("weight", full({2}, 3.0));
    bias = register_parameter("bias", full({2}, 0.5));
  }
  Tensor forward(const Tensor& x) { return x * weight + bias; }
  Tensor weight, bias;
};
EMBER_MODULE(Affine);
struct TwiceImpl : nn::Cloneable<TwiceImpl> {
  TwiceImpl() { reset(); }
  void reset() override {}
  Tensor forward(Tensor x) { return x * 2; }
};
EMBER_MODULE(Twice);

// A Cloneable parent whose submodule is a Sequential.
struct NetImpl : nn::Cloneable<NetImpl> {
  NetImpl() { reset(); }
  void reset() override { body = register_module("body", nn::Sequential(Affine(), Twice())); }
  Tensor forward(const Tensor& x) { return body->forward(x); }
  nn::Sequential body{nullptr};
};
EMBER_MODULE(Net);

const std::string kPrefix = "ember::test::(anonymous namespace)::";

TEST(NnAnyValue, HoldsOneValueOfItsDecayedType) {
  nn::AnyValue number(3);
  EXPECT_EQ(number.get<int>(), 3);
  EXPECT_EQ(number.type_info(), typeid(int));
  EXPECT_EQ(number.try_get<double>(), nullptr);
  ASSERT_NE(number.try_get<int>(), nullptr);
  *number.try_get<int>() = 4;
  EXPECT_EQ(number.get<int>(), 4);
  EXPECT_EQ(error_of<TypeError>([&] { (void)number.get<double>(); }),
            "[AnyValue] Attempted to cast AnyValue to double, but its actual type is int");

  nn::AnyValue text("abc");
  EXPECT_EQ(text.type_info(), typeid(const char*));
  nn::AnyValue word(std::string("ab"));
  nn::AnyValue copy = word;
  *copy.try_get<std::string>() += "c";
  EXPECT_EQ(word.get<std::string>(), "ab");
  EXPECT_EQ(copy.get<std::string>(), "abc");
}

TEST(NnAnyModule, ForwardTakesAnyArgumentsAndReturnsAnyValue) {
  nn::AnyModule axpy(Axpy{});
  const Tensor a = tensor({1.0f, 2.0f}), b = tensor({10.0f, 20.0f});
  expect_values<float>(axpy.forward(a, b, 0.5), {2}, {6.0f, 12.0f});
  nn::AnyValue result = axpy.any_forward(a, b, 2.0);
  EXPECT_EQ(result.type_info(), typeid(Tensor));
  expect_values<float>(result.get<Tensor>(), {2}, {21.0f, 42.0f});
  nn::AnyModule total(Total{});
  EXPECT_DOUBLE_EQ(total.forward<double>(a), 3.0);
  EXPECT_EQ(error_of<TypeError>([&] { (void)total.forward(a); }),
            "[AnyValue] Attempted to cast AnyValue to ember::Tensor, but its actual type is "
            "double");
}

TEST(NnAnyModule, ChecksTheCountAndTypesOfArguments) {
  nn::AnyModule axpy(Axpy{});
  const Tensor a = tensor({1.0f, 2.0f});
  EXPECT_EQ(error_of<TypeError>([&] { (void)axpy.forward(a, a, 1); }),
            "[AnyModule] Expected argument #2 to be of type double, but received value of type "
            "int");
  EXPECT_EQ(error_of<TypeError>([&] { (void)axpy.forward(1.0, a, 1.0); }),
            "[AnyModule] Expected argument #0 to be of type ember::Tensor, but received value of "
            "type double");
  const std::string name = kPrefix + "AxpyImpl";
  EXPECT_EQ(error_of<TypeError>([&] { (void)axpy.forward(a); }),
            "[AnyModule] " + name +
                "'s forward() method expects 3 argument(s), but received 1. If " + name +
                "'s forward() method has default arguments, please make sure the forward() "
                "method is declared with a corresponding `FORWARD_HAS_DEFAULT_ARGS` macro.");
  EXPECT_EQ(error_of<TypeError>([&] { (void)axpy.forward(a, a, 1.0, 1.0); }),
            "[AnyModule] " + name + "'s forward() method expects 3 argument(s), but received 4.");
}

TEST(NnAnyModule, FillsInDefaultArguments) {
  nn::AnyModule shift(ShiftScale{});
  const Tensor x = tensor({0.0f, 1.0f});
  expect_values<float>(shift.forward(x), {2}, {2.0f, 4.0f});
  expect_values<float>(shift.forward(x, 3), {2}, {6.0f, 8.0f});
  expect_values<float>(shift.forward(x, 3, 0.5), {2}, {1.5f, 2.0f});
  EXPECT_EQ(error_of<TypeError>([&] { (void)shift.forward(x, 1.5); }),
            "[AnyModule] Expected argument #1 to be of type int, but received value of type "
            "double");
  EXPECT_EQ(error_of<TypeError>([&] { (void)shift.any_forward(); }),
            "[AnyModule] " + kPrefix +
                "ShiftScaleImpl's forward() method expects at least 1 argument(s) and at most 3 "
                "argument(s), but received 0.");
  nn::Sequential seq(ShiftScale{}, Twice{});
  expect_values<float>(seq->forward(x), {2}, {4.0f, 8.0f});
}

TEST(NnAnyModule, ReachesTheModuleByItsExactType) {
  nn::AnyModule twice(Twice{});
  EXPECT_FALSE(twice.is_empty());
  EXPECT_EQ(twice.type_info(), typeid(TwiceImpl));
  EXPECT_EQ(twice.ptr<TwiceImpl>(), twice.ptr());
  EXPECT_EQ(twice.get<Twice>().ptr(), twice.ptr());
  EXPECT_EQ(&twice.get<TwiceImpl>(), twice.ptr().get());
  EXPECT_EQ(error_of<TypeError>([&] { (void)twice.ptr<AffineImpl>(); }),
            "[AnyModule] Attempted to cast module of type " + kPrefix + "TwiceImpl to type " +
                kPrefix + "AffineImpl");
  nn::AnyModule copy = twice;
  EXPECT_EQ(copy.ptr(), twice.ptr());

  nn::AnyModule empty;
  EXPECT_TRUE(empty.is_empty());
  EXPECT_TRUE(empty.clone().is_empty());
  EXPECT_EQ(error_of<ValueError>([&] { (void)empty.ptr(); }),
            "[AnyModule] Cannot call ptr() on an empty AnyModule");
  EXPECT_EQ(error_of<ValueError>([&] { (void)empty.forward(ones({1})); }),
            "[AnyModule] Cannot call forward() on an empty AnyModule");
}

TEST(NnAnyModule, CloneCopiesTheModuleDeeply) {
  nn::AnyModule affine(Affine{});
  nn::AnyModule copy = affine.clone();
  ASSERT_NE(copy.ptr(), affine.ptr());
  AffineImpl& cloned = copy.get<AffineImpl>();
  EXPECT_TRUE(equal(cloned.weight, affine.get<AffineImpl>().weight));
  cloned.weight.detach().fill_(1.0);
  expect_values<float>(affine.get<AffineImpl>().weight, {2}, {3.0f, 3.0f});
  expect_values<float>(copy.forward(ones({2})), {2}, {1.5f, 1.5f});
}

TEST(NnSequential, FirstModuleTakesTheInputsAndTheRestThePreviousOutput) {
  nn::Sequential seq(Axpy{}, Twice{}, Total{});
  const Tensor a = tensor({1.0f, 2.0f}), b = tensor({10.0f, 20.0f});
  EXPECT_DOUBLE_EQ(seq->forward<double>(a, b, 0.5), 36.0);
  EXPECT_EQ(error_of<TypeError>([&] { (void)seq->forward(a, b, 0.5); }),
            "[Sequential] The type of the return value is double, but you asked for type "
            "ember::Tensor");
  EXPECT_EQ(error_of<TypeError>([&] { (void)seq->forward(a); }),
            "[AnyModule] " + kPrefix + "AxpyImpl's forward() method expects 3 argument(s), " +
                "but received 1. If " + kPrefix + "AxpyImpl's forward() method has default " +
                "arguments, please make sure the forward() method is declared with a " +
                "corresponding `FORWARD_HAS_DEFAULT_ARGS` macro.");
  EXPECT_EQ(error_of<ValueError>([&] { (void)nn::Sequential()->forward(a); }),
            "[Sequential] Cannot call forward() on an empty Sequential");
}

// Tensors pass between modules directly until a module takes or returns something else.
TEST(NnSequential, ChainsTensorsAndOtherValuesAlike) {
  nn::Sequential seq(Twice{}, Split{}, Difference{}, Twice{});
  expect_values<float>(seq->forward(tensor({1.0f, -2.0f})), {2}, {8.0f, -16.0f});
  nn::Sequential to_double(Twice{}, Total{});
  EXPECT_EQ(error_of<TypeError>([&] { (void)to_double->forward(tensor({1.0f})); }),
            "[Sequential] The type of the return value is double, but you asked for type "
            "ember::Tensor");
  nn::Sequential mismatched(Split{}, Twice{});
  EXPECT_EQ(error_of<TypeError>([&] { (void)mismatched->forward(tensor({1.0f})); }),
            "[AnyModule] Expected argument #0 to be of type ember::Tensor, but received value of "
            "type std::pair<ember::Tensor, ember::Tensor>");
  EXPECT_EQ(error_of<TypeError>([&] { (void)nn::Sequential(Twice{})->forward(1.0); }),
            "[AnyModule] Expected argument #0 to be of type ember::Tensor, but received value of "
            "type double");
}

TEST(NnSequential, TakesNamedModulesFromAnOrderedDict) {
  OrderedDict<std::string, nn::AnyModule> modules;
  modules.insert("split", nn::AnyModule(Split{}));
  modules.insert("difference", nn::AnyModule(Difference{}));
  nn::Sequential seq(std::move(modules));
  EXPECT_EQ(seq->named_children().keys(), (std::vector<std::string>{"split", "difference"}));
  expect_values<float>(seq->forward(tensor({1.5f})), {1}, {3.0f});
}

TEST(NnSequential, CloneGivesIndependentParametersWithEqualValues) {
  nn::Sequential seq({{"affine", Affine()}, {"twice", Twice()}});
  auto copy = std::dynamic_pointer_cast<nn::SequentialImpl>(seq->clone());
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->named_children().keys(), (std::vector<std::string>{"affine", "twice"}));
  EXPECT_EQ(copy->named_parameters().keys(),
            (std::vector<std::string>{"affine.weight", "affine.bias"}));
  EXPECT_NE(copy->ptr(0), seq->ptr(0));
  EXPECT_TRUE(equal(copy->ptr<AffineImpl>(0)->weight, seq->ptr<AffineImpl>(0)->weight));
  copy->at<AffineImpl>(0).bias.detach().fill_(-1.0);
  expect_values<float>(seq->forward(ones({2})), {2}, {7.0f, 7.0f});
  expect_values<float>(copy->forward(ones({2})), {2}, {4.0f, 4.0f});
  EXPECT_EQ(copy->at<AffineImpl>(0).weight.requires_grad(), true);
}

TEST(NnSequential, ClonesAsASubmoduleOfACloneableParent) {
  Net net;
  auto copy = std::dynamic_pointer_cast<NetImpl>(net->clone());
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->named_parameters().keys(),
            (std::vector<std::string>{"body.0.weight", "body.0.bias"}));
  copy->body->at<AffineImpl>(0).weight.detach().fill_(0.0);
  expect_values<float>(net->forward(ones({2})), {2}, {7.0f, 7.0f});
  expect_values<float>(copy->forward(ones({2})), {2}, {1.0f, 1.0f});
}

}  // namespace
}  // namespace ember::test
