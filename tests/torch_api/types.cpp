// Area 1: the names a LibTorch program uses around tensors: ScalarType and its constants,
// TypeMeta (what dtype() returns), Scalar, Device, TensorOptions and its builders, ArrayRef,
// optional, and c10's macros and string helpers.
#include "torch_api.h"

namespace {

void scalar_types() {
  SHOW(torch::kFloat);
  SHOW(at::kLong);
  SHOW(c10::kBool);
  SHOW(torch::ScalarType::Half);
  SHOW(torch::Dtype::BFloat16);
  SHOW(torch::kFloat32 == torch::kFloat);
  SHOW(torch::kF64);
  SHOW(torch::kUInt8);
  SHOW(torch::kInt8);
  SHOW(torch::kFloat16);
  SHOW(c10::toString(torch::kDouble));
  SHOW(c10::elementSize(torch::kHalf));
  SHOW(c10::isFloatingType(torch::kBFloat16));
  SHOW(c10::isIntegralType(torch::kBool, false));
  SHOW(c10::isIntegralType(torch::kBool, true));
  SHOW(c10::isSignedType(torch::kByte));
  SHOW(c10::isComplexType(torch::kDouble));
  SHOW(c10::promoteTypes(torch::kInt, torch::kFloat));
  SHOW(c10::promoteTypes(torch::kByte, torch::kChar));
  SHOW(c10::promoteTypes(torch::kHalf, torch::kBFloat16));
  SHOW(c10::canCast(torch::kFloat, torch::kInt));
  SHOW(c10::canCast(torch::kInt, torch::kFloat));
  SHOW(at::result_type(torch::ones({2}, torch::kInt), torch::ones({}, torch::kDouble)));
  SHOW(c10::CppTypeToScalarType<float>::value);
  SHOW(c10::CppTypeToScalarType<int64_t>::value);
  SHOW(c10::CppTypeToScalarType<c10::Half>::value);
}

void type_metas() {
  const torch::Tensor x = torch::zeros({2}, torch::kInt);
  SHOW(x.dtype() == torch::kInt);
  SHOW(torch::kInt == x.dtype());
  SHOW(x.dtype() != torch::kFloat);
  SHOW(x.dtype().toScalarType());
  SHOW(x.dtype().itemsize());
  SHOW(x.dtype().isScalarType(torch::kInt));
  SHOW(x.dtype().Match<int>());
  SHOW(x.dtype() == caffe2::TypeMeta::Make<int>());
  SHOW(caffe2::TypeMeta::Make<double>().toScalarType());
  SHOW(caffe2::TypeMeta::fromScalarType(torch::kHalf).itemsize());
  SHOW(c10::scalarTypeToTypeMeta(torch::kLong) == torch::kLong);
  SHOW(x.scalar_type());
  SHOW(torch::zeros({2}).to(x.dtype()).scalar_type());
}

void scalars() {
  const c10::Scalar real = 2.5;
  SHOW(real.toDouble());
  SHOW(real.toFloat());
  SHOW(real.toLong());
  SHOW(real.isFloatingPoint());
  SHOW(real.type());
  SHOW(real.equal(2.5));
  const c10::Scalar integer = int64_t{7};
  SHOW(integer.type());
  SHOW(c10::Scalar(3).type());
  SHOW(c10::Scalar(1.5f).type());
  const c10::Scalar flag = true;
  SHOW(flag.isBoolean());
  SHOW(flag.toBool());
  SHOW(flag.type());
}

void devices() {
  const torch::Device cpu("cpu");
  const torch::Device gpu1(torch::kCUDA, 1);
  SHOW(cpu.is_cpu());
  SHOW(gpu1.index());
  SHOW(c10::str(gpu1));
  SHOW(c10::str(torch::Device("cuda")));
  SHOW(c10::str(torch::kCUDA));
  SHOW(torch::Device("cuda:0") == torch::Device(torch::kCUDA, 0));
  SHOW(torch::Device("cuda") == torch::Device("cuda:0"));
}

void options() {
  const torch::TensorOptions all =
      torch::dtype(torch::kDouble).device(torch::kCPU).layout(torch::kStrided).requires_grad(true);
  SHOW(all.dtype() == torch::kDouble);
  SHOW(all.device().is_cpu());
  SHOW(all.layout() == torch::kStrided);
  SHOW(all.requires_grad());
  SHOW(all.has_dtype());
  const torch::TensorOptions none;
  SHOW(none.has_dtype());
  SHOW(none.dtype() == torch::kFloat);
  SHOW(none.device().is_cpu());
  SHOW(none.requires_grad());
  SHOW(torch::zeros({2}, all));
  SHOW(torch::zeros({2}, all).requires_grad());
  SHOW(torch::zeros({2}, torch::requires_grad()).requires_grad());
  SHOW(torch::zeros({2}, torch::requires_grad(false)).requires_grad());
  SHOW(torch::ones({2}, torch::dtype<int64_t>()));
  SHOW(torch::TensorOptions().dtype<uint8_t>().dtype() == torch::kByte);
  SHOW(torch::ones({2}, torch::device(torch::kCPU).dtype(torch::kHalf)));
  SHOW(torch::ones({2}, torch::TensorOptions(torch::kLong)));
  SHOW(torch::ones({2}, torch::TensorOptions().dtype(torch::kInt).device(torch::Device("cpu"))));
  SHOW(torch::ones({2}, torch::layout(torch::kStrided)).layout() == torch::kStrided);
  const torch::Tensor x = torch::ones({2}, torch::kShort);
  SHOW(x.options().dtype() == torch::kShort);
  SHOW(x.options().requires_grad());
  SHOW(torch::zeros({3}, x.options()));
  SHOW(x.layout() == torch::kStrided);
}

void array_refs_and_optionals() {
  const std::vector<int64_t> v{2, 3, 4};
  const c10::IntArrayRef r(v);
  SHOW(r);
  SHOW(r.size());
  SHOW(r[1]);
  SHOW(r.front());
  SHOW(r.back());
  SHOW(r.at(2));
  SHOW(r.slice(1));
  SHOW(r.equals(v));
  SHOW(r == v);
  SHOW(r != c10::IntArrayRef(v).slice(1));
  SHOW(c10::IntArrayRef().empty());
  SHOW(c10::IntArrayRef({5, 6}));
  SHOW(c10::str(r));
  const std::vector<double> d{0.5, 1.5};
  SHOW(c10::ArrayRef<double>(d)[1]);
  SHOW(torch::zeros(r).sizes());
  SHOW(torch::ones(v).sizes().vec() == v);
  const std::vector<torch::Tensor> parts{torch::ones({1}), torch::zeros({2})};
  const at::TensorList list(parts);
  SHOW(list.size());
  SHOW(torch::cat(list));

  const c10::optional<int64_t> none;
  const c10::optional<int64_t> some = 4;
  SHOW(none.has_value());
  SHOW(*some);
  SHOW(some.value());
  SHOW(none.value_or(7));
  SHOW(c10::make_optional<int64_t>(3).value());
  SHOW(torch::arange(6).view({2, 3}).argmax(c10::nullopt));
  SHOW(torch::arange(6).view({2, 3}).argmax(c10::optional<int64_t>(1)));
}

// e.msg() of the c10::Error that `statement` throws.
template <class Statement>
std::string error_message(const Statement& statement) {
  try {
    statement();
  } catch (const c10::Error& e) {
    return e.msg();
  }
  return "no error";
}

// Which of c10's error classes `statement` throws.
template <class Statement>
std::string error_class(const Statement& statement) {
  try {
    statement();
  } catch (const c10::IndexError&) {
    return "IndexError";
  } catch (const c10::ValueError&) {
    return "ValueError";
  } catch (const c10::TypeError&) {
    return "TypeError";
  } catch (const c10::NotImplementedError&) {
    return "NotImplementedError";
  } catch (const c10::LinAlgError&) {
    return "LinAlgError";
  } catch (const c10::Error&) {
    return "Error";
  }
  return "no error";
}

void macros() {
  SHOW(error_message([] { TORCH_CHECK(1 + 1 == 3, "math is ", 2, " broken: ", 1.5); }));
  SHOW(error_message([] { TORCH_CHECK(1 + 1 == 2, "never"); }));
  SHOW(error_message([] { TORCH_CHECK(false, torch::kFloat, " ", c10::IntArrayRef({2, 3})); }));
  SHOW_THROWS("Expected 2 < 1 to be true, but got false", TORCH_CHECK(2 < 1));
  SHOW_THROWS("INTERNAL ASSERT FAILED", TORCH_INTERNAL_ASSERT(2 < 1, "detail ", 7));
  SHOW_THROWS("detail 7", TORCH_INTERNAL_ASSERT(2 < 1, "detail ", 7));
  SHOW(error_message([] { TORCH_INTERNAL_ASSERT(1 < 2); }));
  SHOW(error_class([] { TORCH_CHECK(false, "plain"); }));
  SHOW(error_class([] { TORCH_CHECK_INDEX(false, "index"); }));
  SHOW(error_class([] { TORCH_CHECK_VALUE(false, "value"); }));
  SHOW(error_class([] { TORCH_CHECK_TYPE(false, "type"); }));
  SHOW(error_class([] { TORCH_CHECK_NOT_IMPLEMENTED(false, "not implemented"); }));
  SHOW(error_class([] { TORCH_CHECK_LINALG(false, "linalg"); }));
  SHOW(error_class([] { TORCH_INTERNAL_ASSERT(false); }));
  try {
    TORCH_CHECK(false, "the message ", 42);
  } catch (const c10::Error& e) {
    SHOW(std::string(e.what()).find("the message 42") != std::string::npos);
    SHOW(std::string(e.what_without_backtrace()).find("the message 42") != std::string::npos);
  }
  // Warnings go to the default handler (stderr, not compared). A replaceable handler is left out:
  // LibTorch 1.13's WarningHandler::process and its c10::Warning namespace differ from 2.x's.
  for (int i = 0; i < 2; ++i) TORCH_WARN_ONCE("torch_api: TORCH_WARN_ONCE, shown once");
  TORCH_WARN("torch_api: TORCH_WARN with ", 2, " parts");
  torch_api::print("TORCH_WARN, TORCH_WARN_ONCE", "returned");

  SHOW(c10::str("a", 1, '-', 2.5, std::string("z")));
  SHOW(std::string(c10::str()));
  SHOW(c10::str(torch::kFloat, " ", c10::IntArrayRef({2, 3}), " ", torch::Device("cpu")));
  SHOW(c10::str(c10::Scalar(2.5), " ", c10::Scalar(3), " ", c10::Scalar(true)));
  SHOW(c10::Join(", ", std::vector<int>{1, 2, 3}));
  SHOW(c10::Join("-", std::vector<std::string>{"a", "b"}));
  SHOW(c10::Join(", ", std::vector<int>{}));
}

}  // namespace

void types_options_macros() {
  torch_api::section("types, options and macros");
  scalar_types();
  type_metas();
  scalars();
  devices();
  options();
  array_refs_and_optionals();
  macros();
}
