// ZipReader and ZipWriter: libzip with ember's errors.
#include "io/zip_archive.h"

#include <zip.h>

#include <cstring>
#include <limits>
#include <utility>

#include "core/check.h"

namespace ember::io {
namespace {

std::string libzip_error(zip_error_t* error) {
  std::string text = zip_error_strerror(error);
  zip_error_fini(error);
  return text;
}

std::string libzip_error(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  return libzip_error(&error);
}

// Note [Zip sizes the archive can justify]
// A record declares its uncompressed size in the archive's directory, and a hostile archive can
// declare anything. Deflate expands at most 1032:1, so a record may not claim more than that
// ratio of its compressed bytes (a stored record exactly its compressed size), and readers
// allocate only what a record can really hold: a zip bomb is refused before memory is spent.
constexpr uint64_t kMaxDeflateRatio = 1032;

}  // namespace

ZipReader::ZipReader(zip* archive, std::string name, const char* op)
    : archive_(archive), name_(std::move(name)), op_(op) {
  zip_int64_t count = zip_get_num_entries(archive_, 0);
  names_.reserve(static_cast<size_t>(count));
  for (zip_int64_t i = 0; i < count; ++i) {
    const char* record = zip_get_name(archive_, static_cast<zip_uint64_t>(i), 0);
    if (record == nullptr) {
      zip_discard(archive_);
      detail::fail<ValueError>(op_, name_, ": record ", i,
                               " has no readable name: ", zip_strerror(archive_));
    }
    names_.emplace_back(record);
  }
}

ZipReader ZipReader::from_file(const std::string& path, const char* op) {
  int code = 0;
  zip* archive = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  EMBER_CHECK_T(ValueError, archive != nullptr, op, path,
                ": cannot read it as a zip archive: ", libzip_error(code));
  return ZipReader(archive, path, op);
}

ZipReader ZipReader::from_bytes(const void* bytes, size_t size, std::string name, const char* op) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes, size, 0, &error);
  EMBER_CHECK(source != nullptr, op, name, ": ", libzip_error(&error));
  zip* archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
  if (archive == nullptr) {
    zip_source_free(source);
    detail::fail<ValueError>(op, name, ": cannot read it as a zip archive: ", libzip_error(&error));
  }
  return ZipReader(archive, std::move(name), op);
}

ZipReader::~ZipReader() {
  if (archive_ != nullptr) zip_discard(archive_);
}

ZipReader::ZipReader(ZipReader&& other) noexcept
    : archive_(std::exchange(other.archive_, nullptr)),
      name_(std::move(other.name_)),
      op_(other.op_),
      names_(std::move(other.names_)) {}

int64_t ZipReader::index_of(const std::string& record) const {
  return zip_name_locate(archive_, record.c_str(), 0);
}

bool ZipReader::contains(const std::string& record) const { return index_of(record) >= 0; }

uint64_t ZipReader::size(const std::string& record) const {
  int64_t index = index_of(record);
  EMBER_CHECK_T(ValueError, index >= 0, op_, name_, ": the archive has no record '", record, "'");
  zip_stat_t stat;
  EMBER_CHECK_T(ValueError,
                zip_stat_index(archive_, static_cast<zip_uint64_t>(index), 0, &stat) == 0, op_,
                name_, ": record '", record, "': ", zip_strerror(archive_));
  uint64_t limit = stat.comp_method == ZIP_CM_STORE ? stat.comp_size
                   : stat.comp_size > std::numeric_limits<uint64_t>::max() / kMaxDeflateRatio
                       ? std::numeric_limits<uint64_t>::max()
                       : stat.comp_size * kMaxDeflateRatio + 64;
  EMBER_CHECK_T(ValueError, stat.size <= limit, op_, name_, ": record '", record, "' claims ",
                stat.size, " bytes from ", stat.comp_size,
                " compressed bytes, more than they can hold");
  return stat.size;
}

void ZipReader::read(const std::string& record, void* dst) const {
  read_sized(record, dst, size(record));
}

void ZipReader::read_sized(const std::string& record, void* dst, uint64_t expected) const {
  zip_file_t* file = zip_fopen(archive_, record.c_str(), 0);
  EMBER_CHECK_T(ValueError, file != nullptr, op_, name_, ": cannot open record '", record,
                "': ", zip_strerror(archive_));
  auto* out = static_cast<char*>(dst);
  uint64_t done = 0;
  std::string failure;
  while (done < expected) {
    uint64_t chunk = std::min<uint64_t>(expected - done, uint64_t{1} << 30);
    zip_int64_t got = zip_fread(file, out + done, chunk);
    if (got <= 0) {
      failure = got < 0 ? zip_file_strerror(file) : "the record ends early";
      break;
    }
    done += static_cast<uint64_t>(got);
  }
  // One more byte must not exist, and reading to the end is what makes libzip check the CRC.
  char extra = 0;
  if (failure.empty()) {
    zip_int64_t got = zip_fread(file, &extra, 1);
    if (got < 0) failure = zip_file_strerror(file);
    if (got > 0) failure = "the record is longer than its declared size";
  }
  zip_fclose(file);
  EMBER_CHECK_T(ValueError, failure.empty(), op_, name_, ": record '", record, "': ", failure,
                " (read ", done, " of ", expected, " bytes)");
}

std::string ZipReader::read(const std::string& record) const {
  const uint64_t expected = size(record);
  std::string bytes(expected, '\0');
  read_sized(record, bytes.data(), expected);
  return bytes;
}

ZipWriter::ZipWriter(const char* op) : op_(op) {
  zip_error_t error;
  zip_error_init(&error);
  buffer_ = zip_source_buffer_create(nullptr, 0, 0, &error);
  EMBER_CHECK(buffer_ != nullptr, op_, "cannot start a zip archive: ", libzip_error(&error));
  // The buffer outlives the archive: finish() reads the written bytes back from it.
  zip_source_keep(buffer_);
  archive_ = zip_open_from_source(buffer_, ZIP_TRUNCATE, &error);
  if (archive_ == nullptr) {
    zip_source_free(buffer_);
    detail::fail<Error>(op_, "cannot start a zip archive: ", libzip_error(&error));
  }
}

ZipWriter::~ZipWriter() {
  if (archive_ != nullptr) zip_discard(archive_);
  zip_source_free(buffer_);
}

void ZipWriter::add(const std::string& record, const void* data, size_t size, bool compress) {
  EMBER_CHECK(archive_ != nullptr, op_, "the archive is already finished");
  zip_source_t* source = zip_source_buffer(archive_, data, size, 0);
  EMBER_CHECK(source != nullptr, op_, "record '", record, "': ", zip_strerror(archive_));
  zip_int64_t index = zip_file_add(archive_, record.c_str(), source, ZIP_FL_ENC_UTF_8);
  if (index < 0) {
    zip_source_free(source);
    detail::fail<Error>(op_, "record '", record, "': ", zip_strerror(archive_));
  }
  EMBER_CHECK(zip_set_file_compression(archive_, static_cast<zip_uint64_t>(index),
                                       compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) == 0,
              op_, "record '", record, "': ", zip_strerror(archive_));
}

void ZipWriter::add(const std::string& record, std::string bytes, bool compress) {
  owned_.push_back(std::make_unique<std::string>(std::move(bytes)));
  add(record, owned_.back()->data(), owned_.back()->size(), compress);
}

std::vector<char> ZipWriter::finish() {
  EMBER_CHECK(archive_ != nullptr, op_, "the archive is already finished");
  if (zip_get_num_entries(archive_, 0) == 0) {
    // libzip writes nothing for an archive without records (zip_close deletes it); such an
    // archive is its end record alone, as np.savez() of no arrays writes it.
    zip_discard(archive_);
    archive_ = nullptr;
    std::vector<char> empty(22, '\0');
    empty[0] = 'P';
    empty[1] = 'K';
    empty[2] = 5;
    empty[3] = 6;
    return empty;
  }
  if (zip_close(archive_) != 0) {
    std::string reason = zip_strerror(archive_);
    zip_discard(archive_);
    archive_ = nullptr;
    detail::fail<Error>(op_, "cannot write the zip archive: ", reason);
  }
  archive_ = nullptr;
  zip_stat_t stat;
  std::vector<char> bytes;
  EMBER_CHECK(zip_source_stat(buffer_, &stat) == 0 && zip_source_open(buffer_) == 0, op_,
              "cannot read the written archive back");
  bytes.resize(stat.size);
  zip_int64_t got = zip_source_read(buffer_, bytes.data(), bytes.size());
  zip_source_close(buffer_);
  EMBER_CHECK(got == static_cast<zip_int64_t>(bytes.size()), op_,
              "cannot read the written archive back");
  owned_.clear();
  return bytes;
}

}  // namespace ember::io
