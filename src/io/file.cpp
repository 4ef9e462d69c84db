// InputFile: stdio reads with error messages that name the file, the operation and errno's text.
#include "io/file.h"

#include <cerrno>
#include <system_error>

#include "core/check.h"

namespace ember::io {

std::string os_error(int errnum) { return std::system_category().message(errnum); }

InputFile::InputFile(const std::string& path, const char* op) : path_(path), op_(op) {
  file_ = std::fopen(path.c_str(), "rb");
  EMBER_CHECK(file_ != nullptr, op_, path_, ": cannot open for reading: ", os_error(errno));
  // fseeko/ftello: 64-bit offsets even where long is 32 bits.
  if (fseeko(file_, 0, SEEK_END) != 0 || ftello(file_) < 0) {
    int err = errno;
    std::fclose(file_);
    detail::fail<Error>(op_, path_, ": cannot determine the file size: ", os_error(err));
  }
  size_ = static_cast<uint64_t>(ftello(file_));
}

InputFile::~InputFile() { std::fclose(file_); }

void InputFile::read_at(uint64_t offset, void* dst, size_t n) {
  if (n == 0) return;
  EMBER_CHECK(fseeko(file_, static_cast<off_t>(offset), SEEK_SET) == 0, op_, path_,
              ": cannot seek to byte ", offset, ": ", os_error(errno));
  size_t got = std::fread(dst, 1, n, file_);
  EMBER_CHECK(got == n, op_, path_, ": read ", got, " of ", n, " bytes at offset ", offset, ": ",
              std::ferror(file_) ? os_error(errno) : "the file is shorter than when it was opened");
}

std::vector<unsigned char> InputFile::read_all() {
  std::vector<unsigned char> bytes(size_);
  read_at(0, bytes.data(), bytes.size());
  return bytes;
}

}  // namespace ember::io
