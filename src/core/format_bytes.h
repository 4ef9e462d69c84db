// Human-readable byte counts for messages: "512 bytes", "2.00 GiB" (PyTorch's format_size).
#pragma once

#include <cstddef>
#include <string>

namespace ember::detail {

std::string format_bytes(size_t n);

}  // namespace ember::detail
