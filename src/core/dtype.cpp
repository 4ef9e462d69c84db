// ScalarType's names and PyTorch's promotion and casting rules; TypeMeta's names.
#include "ember/dtype.h"

#include <atomic>
#include <ostream>

#include "core/check.h"

namespace ember {
namespace {

// Rank among floating types; float16 and bfloat16 share a rank and meet at float32.
int float_rank(ScalarType t) {
  switch (t) {
    case kHalf:
    case kBFloat16: return 1;
    case kFloat: return 2;
    case kDouble: return 3;
    case kBool:
    case kByte:
    case kChar:
    case kShort:
    case kInt:
    case kLong: break;
  }
  return 0;  // not floating
}

}  // namespace

ScalarType promoteTypes(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == kBool) return b;
  if (b == kBool) return a;
  bool fa = isFloatingType(a), fb = isFloatingType(b);
  if (fa && fb) {
    if (float_rank(a) == float_rank(b)) return kFloat;  // float16 with bfloat16
    return float_rank(a) > float_rank(b) ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  // Both integers: uint8 with a signed type needs a signed type that holds 0..255.
  if (a == kByte || b == kByte) {
    ScalarType other = a == kByte ? b : a;
    return other == kChar ? kShort : other;
  }
  return elementSize(a) > elementSize(b) ? a : b;
}

bool canCast(ScalarType from, ScalarType to) {
  // Floating into integral, and anything non-bool into bool, lose the kind: refused.
  if (isFloatingType(from) && isIntegralType(to, true)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

const char* toString(ScalarType t) {
  constexpr const char* names[kNumScalarTypes] = {"Bool", "Byte", "Char",     "Short", "Int",
                                                  "Long", "Half", "BFloat16", "Float", "Double"};
  return names[static_cast<int>(t)];
}

std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << toString(t); }

std::string_view TypeMeta::name() const noexcept {
  constexpr std::string_view names[kNumScalarTypes] = {
      "bool",     "unsigned char", "signed char",   "short int", "int",
      "long int", "c10::Half",     "c10::BFloat16", "float",     "double"};
  return names[static_cast<int>(type_)];
}

std::ostream& operator<<(std::ostream& os, TypeMeta m) { return os << m.name(); }

namespace {
std::atomic<ScalarType> default_dtype{kFloat};
}  // namespace

TypeMeta get_default_dtype() noexcept { return TypeMeta::fromScalarType(default_dtype.load()); }
ScalarType get_default_dtype_as_scalartype() noexcept { return default_dtype.load(); }
void set_default_dtype(TypeMeta dtype) {
  EMBER_CHECK_T(ValueError, isFloatingType(dtype.toScalarType()),
                "[set_default_dtype] only floating-point types are supported as the default "
                "type, got ",
                dtype.toScalarType());
  default_dtype.store(dtype.toScalarType());
}

}  // namespace ember
