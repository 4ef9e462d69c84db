// InputFile and PendingFile: reading a file, and writing one whole or not at all, with failures
// that become ember errors naming the path and the OS reason.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ember::io {

// The system's text for an errno value (strerror's, but thread-safe).
std::string os_error(int errnum);

class InputFile {
 public:
  // `op` tags messages ("[load] ", "[read_idx] "); throws Error when the file cannot be opened.
  InputFile(const std::string& path, const char* op);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  uint64_t size() const { return size_; }
  // Reads exactly n bytes at `offset`; callers check bounds against size() first, so a short read
  // means the file changed underneath us or the disk failed, and throws Error.
  void read_at(uint64_t offset, void* dst, size_t n);
  std::vector<unsigned char> read_all();

 private:
  std::string path_;
  const char* op_;
  std::FILE* file_ = nullptr;
  uint64_t size_ = 0;
};

// A file being written: the bytes go to a temporary file beside `path`, which commit() flushes
// to disk and renames over `path`; destroyed uncommitted, it is removed. A crash or a full disk
// leaves the old file or the whole new one, never half of it.
class PendingFile {
 public:
  PendingFile(std::string path, const char* op);
  ~PendingFile();
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  void write(const void* data, size_t n);
  void commit();

 private:
  std::string final_path_, temp_path_;
  const char* op_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

// `size` bytes at `data` as the whole of `path`, through a PendingFile.
void write_file_atomically(const std::string& path, const void* data, size_t size, const char* op);

}  // namespace ember::io
