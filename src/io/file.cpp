// InputFile and PendingFile: stdio with error messages that name the file, the operation and
// errno's text.
#include "io/file.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
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

PendingFile::PendingFile(std::string path, const char* op)
    : final_path_(std::move(path)),
      temp_path_(final_path_ + ".tmp." + std::to_string(::getpid())),
      op_(op) {
  file_ = std::fopen(temp_path_.c_str(), "wb");
  EMBER_CHECK(file_ != nullptr, op_, final_path_, ": cannot create ", temp_path_, ": ",
              os_error(errno));
}

PendingFile::~PendingFile() {
  if (file_) std::fclose(file_);
  if (!committed_) std::remove(temp_path_.c_str());
}

void PendingFile::write(const void* data, size_t n) {
  EMBER_CHECK(n == 0 || std::fwrite(data, 1, n, file_) == n, op_, final_path_, ": cannot write ",
              temp_path_, ": ", os_error(errno));
}

// Flushed to disk before the rename, so that a crash leaves the old file or the whole new one.
void PendingFile::commit() {
  bool flushed = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  int err = errno;
  bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  EMBER_CHECK(flushed && closed, op_, final_path_, ": cannot write ", temp_path_, ": ",
              os_error(flushed ? errno : err));
  std::error_code ec;
  std::filesystem::rename(temp_path_, final_path_, ec);
  EMBER_CHECK(!ec, op_, final_path_, ": cannot rename ", temp_path_, " into place: ", ec.message());
  committed_ = true;
}

void write_file_atomically(const std::string& path, const void* data, size_t size, const char* op) {
  PendingFile file(path, op);
  file.write(data, size);
  file.commit();
}

}  // namespace ember::io
