// Applies view steps to shape and strides, as any strided tensor library does, then reads the
// elements in row-major order.
#include "operand.h"

#include <algorithm>

namespace difftest {

Operand operand(const Input& in) {
  Shape shape = in.base_shape;
  std::vector<int64_t> strides(shape.size());
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1, s = 1; i >= 0; --i) {
    strides[i] = s;
    s *= shape[i];
  }
  int64_t offset = 0;
  for (const ViewStep& v : in.views) {
    const std::vector<int64_t>& a = v.args;
    switch (v.kind) {
      case ViewStep::Kind::Transpose:
        std::swap(shape[a[0]], shape[a[1]]);
        std::swap(strides[a[0]], strides[a[1]]);
        break;
      case ViewStep::Kind::Permute: {
        Shape s(a.size()), st(a.size());
        for (size_t k = 0; k < a.size(); ++k) {
          s[k] = shape[a[k]];
          st[k] = strides[a[k]];
        }
        shape = s;
        strides = st;
        break;
      }
      case ViewStep::Kind::Slice: {  // the generator's slices are in range and step forward
        const int64_t d = a[0], start = a[1], end = std::min(a[2], shape[d]), step = a[3];
        offset += start * strides[d];
        shape[d] = end > start ? (end - start + step - 1) / step : 0;
        strides[d] *= step;
        break;
      }
      case ViewStep::Kind::Expand: {
        const size_t lead = a.size() - shape.size();
        std::vector<int64_t> st(a.size(), 0);
        for (size_t k = lead; k < a.size(); ++k)
          st[k] = shape[k - lead] == a[k] ? strides[k - lead] : 0;
        shape = a;
        strides = st;
        break;
      }
    }
  }
  Operand out{shape, {}};
  const int64_t count = numel(shape);
  out.values.reserve(static_cast<size_t>(count));
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t at = offset;
    for (size_t k = 0; k < shape.size(); ++k) at += index[k] * strides[k];
    out.values.push_back(in.values[static_cast<size_t>(at)]);
    for (int64_t k = static_cast<int64_t>(shape.size()) - 1; k >= 0 && ++index[k] == shape[k]; --k)
      index[k] = 0;
  }
  return out;
}

}  // namespace difftest
