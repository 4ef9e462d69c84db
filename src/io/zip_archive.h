// Zip archives over libzip: how PyTorch's .pt files (torch.save since 1.6) and NumPy's .npz files
// hold their records. Reading checks every record's CRC and refuses sizes the archive cannot
// justify; writing builds the archive in memory, for the caller to put in a file atomically.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct zip;
struct zip_source;

namespace ember::io {

class ZipReader {
 public:
  // `op` and `name` tag every message ("[torch::load] model.pt: ..."). `bytes` must outlive the
  // reader. Throws ValueError when the bytes are not a zip archive or fail libzip's consistency
  // checks.
  static ZipReader from_file(const std::string& path, const char* op);
  static ZipReader from_bytes(const void* bytes, size_t size, std::string name, const char* op);
  ~ZipReader();
  ZipReader(ZipReader&&) noexcept;
  ZipReader& operator=(ZipReader&&) = delete;

  // The records' names in archive order.
  const std::vector<std::string>& names() const { return names_; }
  bool contains(const std::string& record) const;
  // The uncompressed size the archive declares for `record`, after checking it against what the
  // compressed bytes can expand to (Note [Zip sizes the archive can justify]).
  uint64_t size(const std::string& record) const;
  // Reads the whole record into `dst` (exactly `size(record)` bytes); throws ValueError on a CRC
  // mismatch, a short record or a corrupt stream.
  void read(const std::string& record, void* dst) const;
  std::string read(const std::string& record) const;

  const std::string& name() const { return name_; }
  const char* op() const { return op_; }

 private:
  ZipReader(zip* archive, std::string name, const char* op);
  int64_t index_of(const std::string& record) const;
  // read()'s work, given the record's checked size.
  void read_sized(const std::string& record, void* dst, uint64_t expected) const;

  zip* archive_;
  std::string name_;
  const char* op_;
  std::vector<std::string> names_;
};

class ZipWriter {
 public:
  explicit ZipWriter(const char* op);
  ~ZipWriter();
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  // Adds a record of `size` bytes at `data`, which must stay alive until finish(). Stored as is
  // (PyTorch's records are) unless `compress`, which deflates it (np.savez_compressed).
  void add(const std::string& record, const void* data, size_t size, bool compress = false);
  // Adds a record holding a copy of `bytes`.
  void add(const std::string& record, std::string bytes, bool compress = false);
  // The archive's bytes; the writer is spent afterwards.
  std::vector<char> finish();

 private:
  zip_source* buffer_;
  zip* archive_;
  const char* op_;
  std::vector<std::unique_ptr<std::string>> owned_;  // the copies add(string) keeps alive
};

}  // namespace ember::io
