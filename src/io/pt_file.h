// PyTorch's file format since 1.6 (torch.save's zip): <archive>/data.pkl, the pickle; its
// storages as <archive>/data/<key>; <archive>/byteorder and <archive>/version.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ember/device.h"
#include "ember/ivalue.h"
#include "io/zip_archive.h"

namespace ember::io {

// The value a .pt archive holds. Tensors go to `map_location` when given, else to the device
// the file names (an error, naming the way out, when this machine has no such device).
IValue read_pt(const ZipReader& archive, std::optional<Device> map_location);

// Reads a file, or bytes, that should be a .pt archive: refuses the legacy (pre-1.6) format and
// anything that is not a zip with messages that say what the bytes are.
IValue read_pt_file(const std::string& path, const char* op, std::optional<Device> map_location);
IValue read_pt_bytes(const void* bytes, size_t size, const std::string& name, const char* op,
                     std::optional<Device> map_location);

// The .pt archive of `value`, whose records live under "archive/", as torch.save names them
// when it writes to a buffer.
std::vector<char> write_pt(const IValue& value, const char* op);

}  // namespace ember::io
