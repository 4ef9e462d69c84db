// read_idx: the IDX array format of MNIST and Fashion-MNIST, raw or gzip-compressed.
//
// Layout: bytes 0 0 <type code> <ndims>, then ndims big-endian uint32 sizes, then the elements,
// big-endian, row-major, and nothing after them.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/tensor_impl.h"
#include "ember/factory.h"
#include "ember/io.h"
#include "io/file.h"
#include "io/shape_check.h"

#if EMBER_HAVE_ZLIB
#include <zlib.h>
#endif

namespace ember {
namespace {

std::optional<ScalarType> idx_dtype(unsigned char code) {
  switch (code) {
    case 0x08: return kUInt8;
    case 0x09: return kInt8;
    case 0x0B: return kInt16;
    case 0x0C: return kInt32;
    case 0x0D: return kFloat32;
    case 0x0E: return kFloat64;
    default: return std::nullopt;
  }
}

// Where the bytes come from: the buffer itself, or zlib inflating it. read() returns how many
// bytes it produced, fewer than asked only at the end of the data.
class Source {
 public:
  virtual ~Source() = default;
  virtual size_t read(void* dst, size_t n) = 0;
  // The most bytes this source could ever produce: a bound checked before allocating, so a
  // corrupt size field cannot make us allocate more memory than the file can fill.
  virtual uint64_t max_bytes() const = 0;
};

class RawSource final : public Source {
 public:
  RawSource(const unsigned char* data, size_t size) : data_(data), size_(size) {}
  size_t read(void* dst, size_t n) override {
    size_t got = std::min(n, size_ - pos_);
    if (got) std::memcpy(dst, data_ + pos_, got);
    pos_ += got;
    return got;
  }
  uint64_t max_bytes() const override { return size_; }

 private:
  const unsigned char* data_;
  size_t size_;
  size_t pos_ = 0;
};

#if EMBER_HAVE_ZLIB
class GzipSource final : public Source {
 public:
  GzipSource(const unsigned char* data, size_t size, const std::string& name)
      : size_(size), name_(name) {
    stream_.next_in = const_cast<Bytef*>(data);  // zlib's API is not const-correct
    stream_.avail_in = static_cast<uInt>(std::min<size_t>(size, std::numeric_limits<uInt>::max()));
    remaining_in_ = size - stream_.avail_in;
    // 16 + MAX_WBITS: expect the gzip wrapper (header and CRC-32 trailer), not raw zlib.
    EMBER_CHECK(inflateInit2(&stream_, 16 + MAX_WBITS) == Z_OK, "[read_idx] ", name_,
                ": cannot initialise zlib");
  }
  ~GzipSource() override { inflateEnd(&stream_); }

  size_t read(void* dst, size_t n) override {
    auto* out = static_cast<unsigned char*>(dst);
    size_t produced = 0;
    while (produced < n && !finished_) {
      size_t chunk = std::min<size_t>(n - produced, std::numeric_limits<uInt>::max());
      stream_.next_out = out + produced;
      stream_.avail_out = static_cast<uInt>(chunk);
      if (stream_.avail_in == 0 && remaining_in_ > 0) {
        stream_.avail_in =
            static_cast<uInt>(std::min<size_t>(remaining_in_, std::numeric_limits<uInt>::max()));
        remaining_in_ -= stream_.avail_in;
      }
      int rc = inflate(&stream_, Z_NO_FLUSH);
      produced += chunk - stream_.avail_out;
      if (rc == Z_STREAM_END) {
        finished_ = true;
        EMBER_CHECK_T(ValueError, stream_.avail_in == 0 && remaining_in_ == 0, "[read_idx] ", name_,
                      ": corrupt gzip data: bytes after the end of the compressed stream");
      } else if (rc == Z_BUF_ERROR && stream_.avail_in == 0 && remaining_in_ == 0) {
        detail::fail<ValueError>("[read_idx] ", name_,
                                 ": corrupt gzip data: the compressed stream is truncated");
      } else {
        EMBER_CHECK_T(ValueError, rc == Z_OK || rc == Z_BUF_ERROR, "[read_idx] ", name_,
                      ": corrupt gzip data: ", stream_.msg ? stream_.msg : zError(rc));
      }
    }
    return produced;
  }
  // Deflate expands at most 1032:1 (RFC 1951's longest match per bit), so no valid stream of
  // this size can produce more.
  uint64_t max_bytes() const override { return static_cast<uint64_t>(size_) * 1032; }

 private:
  z_stream stream_{};
  size_t size_;
  size_t remaining_in_ = 0;
  const std::string& name_;
  bool finished_ = false;
};
#endif

Tensor parse_idx(Source& src, const std::string& name) {
  unsigned char magic[4];
  size_t got = src.read(magic, 4);
  EMBER_CHECK_T(ValueError, got == 4, "[read_idx] ", name, ": truncated: ", got,
                " bytes, shorter than the 4-byte IDX magic number");
  EMBER_CHECK_T(ValueError, magic[0] == 0 && magic[1] == 0, "[read_idx] ", name,
                ": wrong magic number: an IDX file starts with two zero bytes, got 0x", std::hex,
                int{magic[0]}, " 0x", int{magic[1]});
  std::optional<ScalarType> code_dtype = idx_dtype(magic[2]);
  EMBER_CHECK_T(ValueError, code_dtype.has_value(), "[read_idx] ", name,
                ": unsupported type code 0x", std::hex, int{magic[2]},
                " (IDX defines 0x08 u8, 0x09 i8, 0x0B i16, 0x0C i32, 0x0D f32, 0x0E f64)");
  ScalarType dtype = *code_dtype;
  int ndims = magic[3];
  EMBER_CHECK_T(ValueError, ndims >= 1 && ndims <= detail::kMaxDims, "[read_idx] ", name, ": ",
                ndims, " dimensions; ember reads 1 to ", detail::kMaxDims);

  unsigned char dim_bytes[4 * detail::kMaxDims];
  got = src.read(dim_bytes, 4 * static_cast<size_t>(ndims));
  EMBER_CHECK_T(ValueError, got == 4 * static_cast<size_t>(ndims), "[read_idx] ", name,
                ": truncated in the dimension sizes");
  std::vector<int64_t> shape;
  uint64_t nbytes = elementSize(dtype);
  const uint64_t limit = src.max_bytes();
  for (int i = 0; i < ndims; ++i) {
    const unsigned char* b = dim_bytes + 4 * i;
    uint64_t d = (uint64_t{b[0]} << 24) | (uint64_t{b[1]} << 16) | (uint64_t{b[2]} << 8) | b[3];
    shape.push_back(static_cast<int64_t>(d));
    // Saturates at limit + 1 instead of overflowing; a later 0 dimension still gives 0 bytes.
    nbytes = d != 0 && nbytes > limit / d ? limit + 1 : nbytes * d;
  }
  if (nbytes > limit) {
    std::string dims;
    for (int64_t d : shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    detail::fail<ValueError>("[read_idx] ", name, ": dimensions [", dims,
                             "] need more data than the file can hold (", limit, " bytes)");
  }
  // An empty array passes the limit whatever its other dims, but [0, 2^32 - 1, 2^32 - 1, 2^32 - 1]
  // still has no ember tensor.
  io::check_shape_fits(shape, "[read_idx] " + name + ": ");

  Tensor t = empty(shape, dtype);
  auto* data = static_cast<unsigned char*>(t.data_ptr());
  got = nbytes ? src.read(data, nbytes) : 0;
  EMBER_CHECK_T(ValueError, got == nbytes, "[read_idx] ", name, ": truncated: the dimensions need ",
                nbytes, " bytes of data, the file has ", got);
  unsigned char extra;
  EMBER_CHECK_T(ValueError, src.read(&extra, 1) == 0, "[read_idx] ", name,
                ": size mismatch: trailing data after the ", nbytes,
                " bytes the dimensions describe");
  // IDX stores elements big-endian.
  size_t width = elementSize(dtype);
  if (std::endian::native == std::endian::little && width > 1)
    for (size_t i = 0; i < nbytes; i += width) std::reverse(data + i, data + i + width);
  return t;
}

}  // namespace

Tensor read_idx_bytes(const void* data, size_t size, const std::string& name_for_errors) {
  auto* bytes = static_cast<const unsigned char*>(data);
  bool gzip = size >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
  if (!gzip) {
    RawSource src(bytes, size);
    return parse_idx(src, name_for_errors);
  }
#if EMBER_HAVE_ZLIB
  GzipSource src(bytes, size, name_for_errors);
  return parse_idx(src, name_for_errors);
#else
  detail::fail<ValueError>("[read_idx] ", name_for_errors,
                           ": the file is gzip-compressed, but ember was built without zlib; "
                           "gunzip it first or rebuild ember with zlib (zlib1g-dev)");
#endif
}

Tensor read_idx(const std::string& path) {
  std::vector<unsigned char> bytes = io::InputFile(path, "[read_idx] ").read_all();
  return read_idx_bytes(bytes.data(), bytes.size(), path);
}

}  // namespace ember
