// Tensors in files: safetensors (named tensors, HuggingFace's format) and IDX (MNIST's arrays).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "ember/device.h"
#include "ember/macros.h"
#include "ember/state_dict.h"
#include "ember/tensor.h"

namespace ember {

// String metadata stored beside the tensors (safetensors' "__metadata__"), in file order.
using FileMetadata = std::vector<std::pair<std::string, std::string>>;

// Writes `tensors` to `path` in the safetensors format, byte-compatible with the Python
// `safetensors` library: tensors on any device are copied to the CPU first, and the data is laid
// out sorted by element size (largest first), then by name, as that library does. The file
// appears complete or not at all (written to a temporary file, then renamed); failures throw
// ember::Error naming the path and the system's reason.
EMBER_API void save_safetensors(const StateDict& tensors, const std::string& path,
                                const FileMetadata& metadata = {});

// Reads a safetensors file; tensors come back in header order, on `device`. Every part of the
// file is validated first: a malformed or truncated file throws ValueError("[load] <path>: ...").
EMBER_API StateDict load_safetensors(const std::string& path, Device device = Device::cpu());

// The "__metadata__" entries of a safetensors file (empty when it has none), validated as load().
EMBER_API FileMetadata load_safetensors_metadata(const std::string& path);

// Reads an IDX file (the MNIST format), raw or gzip-compressed: u8 data gives a kUInt8 tensor,
// i8 kInt8, i16 kInt16, i32 kInt32, f32 kFloat32, f64 kFloat64, with the file's dimensions.
// A malformed file throws ValueError("[read_idx] <path>: ...").
EMBER_API Tensor read_idx(const std::string& path);

// The same for IDX bytes already in memory (an embedded file); `name_for_errors` stands in for
// the path in messages.
EMBER_API Tensor read_idx_bytes(const void* data, size_t size, const std::string& name_for_errors);

}  // namespace ember
