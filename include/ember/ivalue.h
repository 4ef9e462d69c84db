// IValue: one value of the kinds LibTorch passes around untyped (c10::IValue): None, a tensor, a
// double, an int, a bool, a string, a list of ints, doubles or tensors, or the containers of
// values a pickled file holds: a dictionary, a list and a tuple. Custom autograd functions keep
// their non-tensor data in one (AutogradContext::saved_data); torch::pickle_load returns one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ember/dict.h"
#include "ember/list.h"
#include "ember/macros.h"
#include "ember/scalar.h"
#include "ember/tensor.h"

namespace ember {

namespace ivalue {
struct Tuple;
}

class EMBER_API IValue {
 public:
  IValue() = default;  // None
  IValue(Tensor t) : value_(std::move(t)) {}
  IValue(double d) : value_(d) {}
  IValue(int64_t i) : value_(i) {}
  IValue(int32_t i) : value_(static_cast<int64_t>(i)) {}
  IValue(bool b) : value_(b) {}
  IValue(std::string s) : value_(std::move(s)) {}
  IValue(const char* s) : value_(std::string(s)) {}
  IValue(const Scalar& s);  // a double, an int or a bool, as the Scalar holds it
  IValue(std::vector<int64_t> v) : value_(std::move(v)) {}
  IValue(std::vector<double> v) : value_(std::move(v)) {}
  IValue(std::vector<Tensor> v) : value_(std::move(v)) {}
  IValue(Dict<IValue, IValue> d) : value_(std::move(d)) {}
  IValue(List<IValue> l) : value_(std::move(l)) {}
  IValue(std::shared_ptr<ivalue::Tuple> t);

  bool isNone() const { return holds<std::monostate>(); }
  bool isTensor() const { return holds<Tensor>(); }
  bool isDouble() const { return holds<double>(); }
  bool isInt() const { return holds<int64_t>(); }
  bool isBool() const { return holds<bool>(); }
  bool isString() const { return holds<std::string>(); }
  bool isIntList() const { return holds<std::vector<int64_t>>(); }
  bool isDoubleList() const { return holds<std::vector<double>>(); }
  bool isTensorList() const { return holds<std::vector<Tensor>>(); }
  bool isScalar() const { return isDouble() || isInt() || isBool(); }
  bool isGenericDict() const { return holds<Dict<IValue, IValue>>(); }
  bool isList() const { return holds<List<IValue>>(); }
  bool isTuple() const { return holds<std::shared_ptr<ivalue::Tuple>>(); }

  // Each throws an ember::Error naming both kinds when the value is another kind.
  const Tensor& toTensor() const { return as<Tensor>("Tensor"); }
  double toDouble() const { return as<double>("Double"); }
  int64_t toInt() const { return as<int64_t>("Int"); }
  bool toBool() const { return as<bool>("Bool"); }
  const std::string& toStringRef() const { return as<std::string>("String"); }
  const std::vector<int64_t>& toIntVector() const { return as<std::vector<int64_t>>("IntList"); }
  const std::vector<double>& toDoubleVector() const {
    return as<std::vector<double>>("DoubleList");
  }
  const std::vector<Tensor>& toTensorVector() const {
    return as<std::vector<Tensor>>("TensorList");
  }
  Scalar toScalar() const;
  // The containers themselves, by handle as LibTorch's: changes through the dictionary or list
  // returned are seen by this IValue.
  Dict<IValue, IValue> toGenericDict() const { return as<Dict<IValue, IValue>>("GenericDict"); }
  List<IValue> toList() const { return as<List<IValue>>("GenericList"); }
  std::shared_ptr<ivalue::Tuple> toTuple() const {
    return as<std::shared_ptr<ivalue::Tuple>>("Tuple");
  }
  const ivalue::Tuple& toTupleRef() const { return *as<std::shared_ptr<ivalue::Tuple>>("Tuple"); }

  // The kind's name as LibTorch's tagKind() spells it: "None", "Tensor", "Double", ...
  std::string tagKind() const;

 private:
  template <class T>
  bool holds() const {
    return std::holds_alternative<T>(value_);
  }
  template <class T>
  const T& as(const char* kind) const {
    if (const T* v = std::get_if<T>(&value_)) return *v;
    fail_kind(kind);
  }
  [[noreturn]] void fail_kind(const char* expected) const;

  std::variant<std::monostate, Tensor, double, int64_t, bool, std::string, std::vector<int64_t>,
               std::vector<double>, std::vector<Tensor>, Dict<IValue, IValue>, List<IValue>,
               std::shared_ptr<ivalue::Tuple>>
      value_;
};

namespace ivalue {
// A fixed sequence of values (Python's tuple), held through a shared pointer as LibTorch's
// c10::intrusive_ptr<ivalue::Tuple> is.
struct EMBER_API Tuple {
  explicit Tuple(std::vector<IValue> elements) : elements_(std::move(elements)) {}
  static std::shared_ptr<Tuple> create(std::vector<IValue> elements) {
    return std::make_shared<Tuple>(std::move(elements));
  }
  const std::vector<IValue>& elements() const { return elements_; }
  size_t size() const { return elements_.size(); }

 private:
  std::vector<IValue> elements_;
};
}  // namespace ivalue

inline IValue::IValue(std::shared_ptr<ivalue::Tuple> t) : value_(std::move(t)) {}

}  // namespace ember
