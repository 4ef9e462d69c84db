// Whether two IValues hold the same thing: kinds, numbers, strings, containers entry by entry,
// and tensors with equal dtype, geometry and bytes. For the .pt harnesses' round trips.
#pragma once

#include <cstring>

#include "ember/ivalue.h"

namespace ember::fuzz {

inline bool same_tensor(const Tensor& a, const Tensor& b) {
  if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes()) return false;
  Tensor x = a.contiguous(), y = b.contiguous();
  return x.nbytes() == y.nbytes() &&
         (x.nbytes() == 0 || std::memcmp(x.data_ptr(), y.data_ptr(), x.nbytes()) == 0);
}

inline bool same_value(const IValue& a, const IValue& b) {
  if (a.tagKind() != b.tagKind()) return false;
  if (a.isNone()) return true;
  if (a.isBool()) return a.toBool() == b.toBool();
  if (a.isInt()) return a.toInt() == b.toInt();
  if (a.isDouble()) {  // NaN pickles and unpickles as NaN: compare the bits too
    double x = a.toDouble(), y = b.toDouble();
    return x == y || std::memcmp(&x, &y, sizeof x) == 0;
  }
  if (a.isString()) return a.toStringRef() == b.toStringRef();
  if (a.isTensor()) return same_tensor(a.toTensor(), b.toTensor());
  if (a.isTuple() || a.isList()) {
    std::vector<IValue> x = a.isTuple() ? a.toTupleRef().elements() : a.toList().vec();
    std::vector<IValue> y = b.isTuple() ? b.toTupleRef().elements() : b.toList().vec();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!same_value(x[i], y[i])) return false;
    return true;
  }
  Dict<IValue, IValue> x = a.toGenericDict(), y = b.toGenericDict();
  if (x.size() != y.size()) return false;
  for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
    if (!same_value(i->key(), j->key()) || !same_value(i->value(), j->value())) return false;
  return true;
}

}  // namespace ember::fuzz
