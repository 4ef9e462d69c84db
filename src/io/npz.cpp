// load_npz / save_npz: NumPy's archives of named arrays (np.savez, np.savez_compressed), a zip
// archive (io/zip_archive.h) whose record "<name>.npy" holds the array <name> as a .npy file.
#include <cstring>
#include <string>
#include <vector>

#include "core/check.h"
#include "ember/npy.h"
#include "io/file.h"
#include "io/npy_format.h"
#include "io/zip_archive.h"

namespace ember {

StateDict load_npz(const std::string& path) {
  const io::ZipReader archive = io::ZipReader::from_file(path, "[load_npz] ");
  StateDict out;
  for (const std::string& record : archive.names()) {
    const std::string where = "[load_npz] " + path + ": record '" + record + "'";
    EMBER_CHECK_T(ValueError, record.ends_with(".npy"), where,
                  " is not an array: np.savez stores array <name> as <name>.npy");
    const std::string name = record.substr(0, record.size() - 4);
    EMBER_CHECK_T(ValueError, out.find(name) == nullptr, where, " appears twice");
    // The record's size is bounded by its compressed bytes (Note [Zip sizes the archive can
    // justify]), and read_npy checks the array against it before allocating.
    const std::string bytes = archive.read(record);
    out.insert(name, io::read_npy(
                         bytes.size(),
                         [&bytes](uint64_t offset, void* dst, size_t n) {
                           std::memcpy(dst, bytes.data() + offset, n);
                         },
                         where));
  }
  return out;
}

void save_npz(const StateDict& tensors, const std::string& path, bool compressed) {
  io::ZipWriter archive("[save_npz] ");
  for (const StateDict::Item& item : tensors) {
    const std::string where = "[save_npz] " + path + ": array '" + item.first + "'";
    EMBER_CHECK_T(ValueError, item.second.defined(), where, " is undefined");
    const Tensor host = item.second.to(Device::cpu()).contiguous();
    std::string npy = io::npy_header(host, where);
    if (host.numel() > 0) npy.append(static_cast<const char*>(host.data_ptr()), host.nbytes());
    archive.add(item.first + ".npy", std::move(npy), compressed);
  }
  const std::vector<char> bytes = archive.finish();
  io::write_file_atomically(path, bytes.data(), bytes.size(), "[save_npz] ");
}

}  // namespace ember
