// load_npy / save_npy: one array per file, in NumPy's .npy format (io/npy_format.h).
#include "ember/npy.h"
#include "core/check.h"
#include "io/file.h"
#include "io/npy_format.h"

namespace ember {

Tensor load_npy(const std::string& path) {
  io::InputFile file(path, "[load_npy] ");
  return io::read_npy(
      file.size(), [&file](uint64_t offset, void* dst, size_t n) { file.read_at(offset, dst, n); },
      "[load_npy] " + path);
}

void save_npy(const Tensor& t, const std::string& path) {
  EMBER_CHECK_T(ValueError, t.defined(), "[save_npy] ", path, ": the tensor is undefined");
  const Tensor host = t.to(Device::cpu()).contiguous();
  const std::string header = io::npy_header(host, "[save_npy] " + path);
  io::PendingFile out(path, "[save_npy] ");
  out.write(header.data(), header.size());
  if (host.numel() > 0) out.write(host.data_ptr(), host.nbytes());
  out.commit();
}

}  // namespace ember
