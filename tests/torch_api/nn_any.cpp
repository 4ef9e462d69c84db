// Area 5b (issue 22): AnyValue, AnyModule and Sequential as LibTorch's C++ frontend defines them:
// forwards of any arity and argument types, default arguments (FORWARD_HAS_DEFAULT_ARGS), the
// count and type checks' messages, chains of values other than tensors, and cloning.
#include <string>
#include <typeinfo>
#include <utility>

#include "torch_api.h"

namespace {

// a + alpha * b: three arguments of two types.
struct AxpyImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor a, const torch::Tensor& b, double alpha) {
    return a + b * alpha;
  }
};
TORCH_MODULE(Axpy);

// (x + shift) * scale, with both settings defaulted.
struct ShiftScaleImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, int shift = 1, double scale = 2.0) {
    return (x + static_cast<double>(shift)) * scale;
  }

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, torch::nn::AnyValue(1)}, {2, torch::nn::AnyValue(2.0)})
};
TORCH_MODULE(ShiftScale);

// A chain whose values are not all tensors: x -> (x, -x) -> x - (-x); and a tensor's sum.
struct SplitImpl : torch::nn::Module {
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x) { return {x, -x}; }
};
TORCH_MODULE(Split);
struct DifferenceImpl : torch::nn::Module {
  torch::Tensor forward(std::pair<torch::Tensor, torch::Tensor> pair) {
    return pair.first - pair.second;
  }
};
TORCH_MODULE(Difference);
struct TotalImpl : torch::nn::Module {
  double forward(const torch::Tensor& x) { return x.sum().item<double>(); }
};
TORCH_MODULE(Total);

// Cloneable modules: a parameterised affine map and a doubling.
struct AffineImpl : torch::nn::Cloneable<AffineImpl> {
  AffineImpl() { reset(); }
  void reset() override {
    weight = register_parameter("weight", torch::full({2}, 3.0));
    bias = register_parameter("bias", torch::full({2}, 0.5));
  }
  torch::Tensor forward(const torch::Tensor& x) { return x * weight + bias; }
  torch::Tensor weight, bias;
};
TORCH_MODULE(Affine);
struct TwiceImpl : torch::nn::Cloneable<TwiceImpl> {
  TwiceImpl() { reset(); }
  void reset() override {}
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
};
TORCH_MODULE(Twice);

// A Cloneable parent whose submodule is a Sequential.
struct BodyNetImpl : torch::nn::Cloneable<BodyNetImpl> {
  BodyNetImpl() { reset(); }
  void reset() override {
    body = register_module("body", torch::nn::Sequential(Affine{}, Twice{}));
  }
  torch::Tensor forward(const torch::Tensor& x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(BodyNet);

std::string keys_of(const torch::OrderedDict<std::string, torch::Tensor>& dict) {
  std::string out;
  for (const auto& item : dict) out += "[" + item.key() + "]";
  return out;
}

void any_value() {
  torch::nn::AnyValue number(3);
  SHOW(number.get<int>());
  SHOW(number.type_info() == typeid(int));
  SHOW(number.try_get<double>() == nullptr);
  *number.try_get<int>() = 4;
  SHOW(number.get<int>());
  SHOW_THROWS("Attempted to cast AnyValue to double, but its actual type is int",
              number.get<double>());
  torch::nn::AnyValue text("abc");
  SHOW(text.type_info() == typeid(const char*));
  torch::nn::AnyValue word(std::string("ab"));
  torch::nn::AnyValue copy = word;
  *copy.try_get<std::string>() += "c";
  SHOW(word.get<std::string>());
  SHOW(copy.get<std::string>());
}

void any_module() {
  const torch::Tensor a = torch::tensor({1.0f, 2.0f}), b = torch::tensor({10.0f, 20.0f});
  torch::nn::AnyModule axpy(Axpy{});
  SHOW(axpy.forward(a, b, 0.5));
  SHOW(axpy.any_forward(a, b, 2.0).get<torch::Tensor>());
  SHOW(axpy.any_forward(a, b, 2.0).type_info() == typeid(torch::Tensor));
  SHOW_THROWS("Expected argument #2 to be of type double, but received value of type int",
              axpy.forward(a, b, 1));
  SHOW_THROWS("Expected argument #0 to be of type", axpy.forward(1.0, b, 1.0));
  SHOW_THROWS(
      "(anonymous namespace)::AxpyImpl's forward() method expects 3 argument(s), but received 1. "
      "If (anonymous namespace)::AxpyImpl's forward() method has default arguments, please make "
      "sure the forward() method is declared with a corresponding `FORWARD_HAS_DEFAULT_ARGS` "
      "macro.",
      axpy.forward(a));
  SHOW_THROWS(
      "(anonymous namespace)::AxpyImpl's forward() method expects 3 argument(s), but "
      "received 4.",
      axpy.forward(a, b, 1.0, 1.0));
  torch::nn::AnyModule total(Total{});
  SHOW(total.forward<double>(a));
  SHOW_THROWS(", but its actual type is double", total.forward(a));

  torch::nn::AnyModule shift(ShiftScale{});
  const torch::Tensor x = torch::tensor({0.0f, 1.0f});
  SHOW(shift.forward(x));
  SHOW(shift.forward(x, 3));
  SHOW(shift.forward(x, 3, 0.5));
  SHOW_THROWS("Expected argument #1 to be of type int, but received value of type double",
              shift.forward(x, 1.5));
  SHOW_THROWS(
      "(anonymous namespace)::ShiftScaleImpl's forward() method expects at least 1 "
      "argument(s) and at most 3 argument(s), but received 0.",
      shift.forward());
  SHOW_THROWS("expects at least 1 argument(s) and at most 3 argument(s), but received 4.",
              shift.forward(x, 1, 1.0, 2));

  torch::nn::AnyModule twice(Twice{});
  SHOW(twice.type_info() == typeid(TwiceImpl));
  SHOW(twice.ptr<TwiceImpl>() == twice.ptr());
  SHOW(twice.get<Twice>().ptr() == twice.ptr());
  SHOW(&twice.get<TwiceImpl>() == twice.ptr().get());
  SHOW_THROWS(
      "Attempted to cast module of type (anonymous namespace)::TwiceImpl to type "
      "(anonymous namespace)::AffineImpl",
      twice.ptr<AffineImpl>());
  torch::nn::AnyModule shared = twice;
  SHOW(shared.ptr() == twice.ptr());
  torch::nn::AnyModule empty;
  SHOW(empty.is_empty());
  SHOW(empty.clone().is_empty());
  SHOW_THROWS("Cannot call ptr() on an empty AnyModule", empty.ptr());
  SHOW_THROWS("Cannot call forward() on an empty AnyModule", empty.forward(x));

  torch::nn::AnyModule affine(Affine{});
  torch::nn::AnyModule cloned = affine.clone();
  SHOW(cloned.ptr() != affine.ptr());
  SHOW(torch::equal(cloned.get<AffineImpl>().weight, affine.get<AffineImpl>().weight));
  cloned.get<AffineImpl>().weight.detach().fill_(1.0);
  SHOW(affine.get<AffineImpl>().weight);
  SHOW(cloned.forward(torch::ones({2})));
}

void sequential_of_any() {
  const torch::Tensor a = torch::tensor({1.0f, 2.0f}), b = torch::tensor({10.0f, 20.0f});
  torch::nn::Sequential seq(Axpy{}, Twice{}, Total{});
  SHOW(seq->forward<double>(a, b, 0.5));
  SHOW_THROWS("The type of the return value is double, but you asked for type",
              seq->forward(a, b, 0.5));
  SHOW_THROWS(
      "(anonymous namespace)::AxpyImpl's forward() method expects 3 argument(s), but "
      "received 1.",
      seq->forward(a));
  SHOW_THROWS("Cannot call forward() on an empty Sequential", torch::nn::Sequential()->forward(a));
  torch::nn::Sequential mixed(Twice{}, Split{}, Difference{}, Twice{});
  SHOW(mixed->forward(torch::tensor({1.0f, -2.0f})));
  SHOW_THROWS("Expected argument #0 to be of type",
              torch::nn::Sequential(Split{}, Twice{})->forward(a));
  SHOW_THROWS("but received value of type double", torch::nn::Sequential(Twice{})->forward(1.0));
  torch::nn::Sequential defaults(ShiftScale{}, Twice{});
  SHOW(defaults->forward(torch::tensor({0.0f, 1.0f})));
}

void sequential_clone() {
  torch::nn::Sequential seq(Affine{}, Twice{});
  auto copy = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(seq->clone());
  SHOW(copy != nullptr);
  SHOW(keys_of(copy->named_parameters()));
  SHOW(copy->ptr(0) != seq->ptr(0));
  SHOW(torch::equal(copy->ptr<AffineImpl>(0)->weight, seq->ptr<AffineImpl>(0)->weight));
  copy->at<AffineImpl>(0).bias.detach().fill_(-1.0);
  SHOW(seq->forward(torch::ones({2})));
  SHOW(copy->forward(torch::ones({2})));
  SHOW(copy->ptr<AffineImpl>(0)->weight.requires_grad());

  BodyNet net;
  auto net_copy = std::dynamic_pointer_cast<BodyNetImpl>(net->clone());
  SHOW(keys_of(net_copy->named_parameters()));
  net_copy->body->at<AffineImpl>(0).weight.detach().fill_(0.0);
  SHOW(net->forward(torch::ones({2})));
  SHOW(net_copy->forward(torch::ones({2})));
}

}  // namespace

void nn_any() {
  torch_api::section("nn any");
  any_value();
  any_module();
  sequential_of_any();
  sequential_clone();
}
