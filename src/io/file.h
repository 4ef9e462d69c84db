// InputFile: a read-only file whose failures become ember errors naming the path and the OS reason.
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

}  // namespace ember::io
