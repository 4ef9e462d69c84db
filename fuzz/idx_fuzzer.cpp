// Fuzzes the IDX reader (raw and gzip): read_idx on the input as a file and read_idx_bytes on
// the same bytes must agree, returning equal tensors or the same error, and a raw file that is
// accepted must hold exactly the bytes its header describes.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "ember/error.h"
#include "ember/io.h"
#include "ember/tensor.h"
#include "fuzz_check.h"
#include "scratch_file.h"

namespace {

// A tensor, or the message of the ember::Error that refused the input.
struct Outcome {
  std::optional<ember::Tensor> tensor;
  std::string error;
};

template <class Read>
Outcome outcome_of(Read read) {
  try {
    return {read(), ""};
  } catch (const ember::Error& e) {
    return {std::nullopt, e.what()};
  }
}

bool same_bytes(const ember::Tensor& a, const ember::Tensor& b) {
  return a.nbytes() == b.nbytes() &&
         (a.nbytes() == 0 || std::memcmp(a.data_ptr(), b.data_ptr(), a.nbytes()) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ember::fuzz::ScratchFile file("idx");
  file.write(data, size);
  // The file's path also names the in-memory bytes, so the two error messages must be equal.
  Outcome from_file = outcome_of([&] { return ember::read_idx(file.path()); });
  Outcome from_bytes = outcome_of([&] { return ember::read_idx_bytes(data, size, file.path()); });
  EMBER_FUZZ_CHECK(from_file.error == from_bytes.error, "read_idx: '", from_file.error,
                   "', read_idx_bytes: '", from_bytes.error, "'");
  if (!from_bytes.tensor) return 0;
  const ember::Tensor& t = *from_bytes.tensor;
  EMBER_FUZZ_CHECK(t.dtype() == from_file.tensor->dtype() &&
                       t.sizes() == from_file.tensor->sizes() && same_bytes(t, *from_file.tensor),
                   "read_idx and read_idx_bytes returned different tensors");
  bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  if (gzip) return 0;
  const size_t header = 4 + 4 * static_cast<size_t>(t.dim());
  EMBER_FUZZ_CHECK(t.dim() == data[3] && header + t.nbytes() == size, "a ", size,
                   "-byte file gave ", t.dtype(), t.sizes());
  // Each element is its big-endian bytes reversed (ember runs on little-endian hosts).
  const auto* elements = static_cast<const uint8_t*>(t.data_ptr());
  const size_t width = t.element_size();
  for (size_t i = 0; i < t.nbytes(); ++i) {
    size_t mirrored = i - i % width + (width - 1 - i % width);
    EMBER_FUZZ_CHECK(elements[i] == data[header + mirrored], "byte ", i, " of the elements");
  }
  return 0;
}
