// IValue's conversions and its kind errors.
#include "ember/ivalue.h"

#include <iterator>

#include "core/check.h"

namespace ember {

IValue::IValue(const Scalar& s) {
  if (s.isBoolean()) {
    value_ = s.toBool();
  } else if (s.isIntegral(false)) {
    value_ = s.toLong();
  } else {
    value_ = s.toDouble();
  }
}

Scalar IValue::toScalar() const {
  if (isDouble()) return toDouble();
  if (isInt()) return toInt();
  if (isBool()) return toBool();
  fail_kind("Scalar");
}

std::string IValue::tagKind() const {
  static const char* const kKinds[] = {"None",       "Tensor",      "Double",      "Int",
                                       "Bool",       "String",      "IntList",     "DoubleList",
                                       "TensorList", "GenericDict", "GenericList", "Tuple"};
  static_assert(std::size(kKinds) == std::variant_size_v<decltype(value_)>);
  return kKinds[value_.index()];
}

void IValue::fail_kind(const char* expected) const {
  detail::fail<Error>("[IValue] Expected ", expected, " but got ", tagKind(),
                      "; test the kind first (is", expected, "())");
}

}  // namespace ember
