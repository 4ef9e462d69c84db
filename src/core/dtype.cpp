// DType names and PyTorch's promotion and casting rules.
#include "ember/dtype.h"

#include <ostream>

namespace ember {
namespace {

// Rank among floating types; float16 and bfloat16 share a rank and meet at float32.
int float_rank(DType t) {
  switch (t) {
    case kFloat16:
    case kBFloat16: return 1;
    case kFloat32: return 2;
    case kFloat64: return 3;
    case kBool:
    case kUInt8:
    case kInt8:
    case kInt16:
    case kInt32:
    case kInt64: break;
  }
  return 0;  // not floating
}

}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == kBool) return b;
  if (b == kBool) return a;
  bool fa = is_floating_point(a), fb = is_floating_point(b);
  if (fa && fb) {
    if (float_rank(a) == float_rank(b)) return kFloat32;  // float16 with bfloat16
    return float_rank(a) > float_rank(b) ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  // Both integers: uint8 with a signed type needs a signed type that holds 0..255.
  if (a == kUInt8 || b == kUInt8) {
    DType other = a == kUInt8 ? b : a;
    return other == kInt8 ? kInt16 : other;
  }
  return element_size(a) > element_size(b) ? a : b;
}

bool can_cast(DType from, DType to) {
  // Floating into integral, and anything non-bool into bool, lose the kind: refused.
  if (is_floating_point(from) && is_integral(to, true)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

const char* dtype_name(DType t) {
  constexpr const char* names[kNumDTypes] = {"Bool", "Byte", "Char",     "Short", "Int",
                                             "Long", "Half", "BFloat16", "Float", "Double"};
  return names[static_cast<int>(t)];
}

const char* dtype_repr(DType t) {
  constexpr const char* names[kNumDTypes] = {
      "torch.bool",    "torch.uint8",    "torch.int8",    "torch.int16",  "torch.int32",
      "torch.int64",   "torch.float16",  "torch.bfloat16", "torch.float32", "torch.float64"};
  return names[static_cast<int>(t)];
}

std::ostream& operator<<(std::ostream& os, DType t) { return os << dtype_name(t); }

}  // namespace ember
