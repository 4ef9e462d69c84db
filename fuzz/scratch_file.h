// ScratchFile: a file of this process's own, rewritten with each input, for the readers that
// take a path. Per process, so parallel fuzzers (-jobs, -fork) never share one.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace ember::fuzz {

// In memory (/dev/shm) unless TMPDIR says otherwise: on a disk, rewriting a file for every input
// (and save()'s fsync) costs milliseconds, far more than the parsing being fuzzed.
inline std::filesystem::path scratch_directory() {
  if (std::getenv("TMPDIR") == nullptr && std::filesystem::is_directory("/dev/shm"))
    return "/dev/shm";
  return std::filesystem::temp_directory_path();
}

class ScratchFile {
 public:
  explicit ScratchFile(const std::string& name)
      : path_((scratch_directory() / ("ember_fuzz_" + name + "_" + std::to_string(::getpid())))
                  .string()) {}
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  const std::string& path() const { return path_; }

  // Replaces the file's contents; a failure here is the machine's, not a finding, so it aborts.
  void write(const uint8_t* data, size_t size) const {
    std::FILE* f = std::fopen(path_.c_str(), "wb");
    bool ok = f != nullptr && (size == 0 || std::fwrite(data, 1, size, f) == size);
    ok = f != nullptr && std::fclose(f) == 0 && ok;
    if (!ok) {
      std::perror(path_.c_str());
      std::abort();
    }
  }

 private:
  std::string path_;
};

}  // namespace ember::fuzz
