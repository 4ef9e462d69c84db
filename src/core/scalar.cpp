// The failures of Scalar's checked accessors, with c10's messages.
#include "ember/scalar.h"

#include "core/check.h"

namespace ember {
namespace {

// The C++ type name c10's accessors put in their message.
const char* cpp_type_name(ScalarType type) {
  switch (type) {
    case kBool: return "bool";
    case kUInt8: return "uint8_t";
    case kInt8: return "int8_t";
    case kInt16: return "int16_t";
    case kInt32: return "int";
    case kInt64: return "int64_t";
    case kFloat16: return "at::Half";
    case kBFloat16: return "at::BFloat16";
    case kFloat32: return "float";
    case kFloat64: return "double";
  }
  return "?";
}

}  // namespace

void Scalar::throw_overflow(ScalarType type) const {
  detail::fail<Error>("value cannot be converted to type ", cpp_type_name(type),
                      " without overflow: ", *this,
                      ". Convert it to a wider type first, or "
                      "check the value's range before converting.");
}

void Scalar::throw_negated_bool() {
  detail::fail<Error>("torch boolean negative is not supported. Use logical_not for bools.");
}

}  // namespace ember
