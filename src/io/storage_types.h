// PyTorch's typed storage classes (torch.FloatStorage, ...) and the dtypes they hold: how a
// pickled tensor names the type of its storage.
#pragma once

#include <optional>
#include <string_view>

#include "ember/dtype.h"

namespace ember::io {

struct StorageType {
  const char* name;  // in module torch
  ScalarType dtype;
};

inline constexpr StorageType kStorageTypes[] = {
    {"DoubleStorage", kDouble},     {"FloatStorage", kFloat}, {"HalfStorage", kHalf},
    {"BFloat16Storage", kBFloat16}, {"LongStorage", kLong},   {"IntStorage", kInt},
    {"ShortStorage", kShort},       {"CharStorage", kChar},   {"ByteStorage", kByte},
    {"BoolStorage", kBool}};

inline std::optional<ScalarType> storage_dtype(std::string_view name) {
  for (const StorageType& s : kStorageTypes)
    if (name == s.name) return s.dtype;
  return std::nullopt;
}

// nullptr for a dtype PyTorch has no storage class of.
inline const char* storage_type_name(ScalarType dtype) {
  for (const StorageType& s : kStorageTypes)
    if (dtype == s.dtype) return s.name;
  return nullptr;
}

}  // namespace ember::io
