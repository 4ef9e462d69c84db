// The .npy format: a strict reader for its header (a Python dict literal) and NumPy's writer.
//
// Note [npy layout]
// "\x93NUMPY", a major and a minor version byte, the header length (2 bytes little-endian in
// version 1.0, 4 in 2.0 and 3.0), then the header: a Python dict literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }, padded with spaces and ended by
// '\n' so that the data starts at a multiple of 64 bytes. Then the elements, row-major (or
// column-major when fortran_order is True), in the byte order descr names ('<' little, '>' big,
// '|' for one-byte types), filling the rest of the input exactly. Version 3.0 differs from 2.0
// only in allowing UTF-8 in the header, for structured dtypes' field names, which ember refuses.
// The writer reproduces np.save's bytes: version 1.0 (a header of at most 16 dims never needs
// 2.0's longer length), the keys sorted, room for shape[0] to grow to 21 digits, and the padding.
#include "io/npy_format.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>
#include <limits>
#include <string_view>
#include <vector>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/shape_ops.h"
#include "io/bool_bytes.h"
#include "io/shape_check.h"

namespace ember::io {
namespace {

// The data is copied byte for byte between memory and little-endian files.
static_assert(std::endian::native == std::endian::little, ".npy I/O assumes a little-endian host");

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kPreambleBytes = 10;  // the magic, the version, a 2-byte header length
// np.load's max_header_size: a larger header is refused before it is read.
constexpr uint64_t kMaxHeaderBytes = 10000;
constexpr size_t kAlignment = 64;         // NumPy's ARRAY_ALIGN
constexpr size_t kGrowthAxisDigits = 21;  // NumPy's GROWTH_AXIS_MAX_DIGITS

struct NpyType {
  char kind;
  size_t size;
  const char* descr;  // what NumPy writes for it; null for bfloat16, which NumPy lacks
};
// Indexed by ScalarType, in its enum order.
constexpr NpyType kNpyTypes[] = {
    {'b', 1, "|b1"}, {'u', 1, "|u1"}, {'i', 1, "|i1"},    {'i', 2, "<i2"}, {'i', 4, "<i4"},
    {'i', 8, "<i8"}, {'f', 2, "<f2"}, {'\0', 2, nullptr}, {'f', 4, "<f4"}, {'f', 8, "<f8"},
};
static_assert(std::size(kNpyTypes) == static_cast<size_t>(kNumScalarTypes));

template <class... Args>
[[noreturn]] void bad_input(const std::string& where, const Args&... args) {
  detail::fail<ValueError>(where, ": ", args...);
}

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

// The header dict, as NumPy's safe_eval would read it, but only the literals a .npy header holds:
// strings, True/False and tuples of non-negative integers.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& where) : text_(text), where_(where) {}

  NpyHeader parse() {
    NpyHeader h;
    bool has_descr = false, has_fortran_order = false, has_shape = false;
    skip_spaces();
    expect('{');
    while (true) {
      skip_spaces();
      if (consume('}')) break;
      const size_t key_pos = pos_;
      const std::string key = parse_string();
      skip_spaces();
      expect(':');
      skip_spaces();
      bool* seen = key == "descr"           ? &has_descr
                   : key == "fortran_order" ? &has_fortran_order
                   : key == "shape"         ? &has_shape
                                            : nullptr;
      if (seen == nullptr || *seen) {
        pos_ = key_pos;
        fail(seen ? "duplicate key '" + key + "'" : "unexpected key '" + key + "'");
      }
      *seen = true;
      if (key == "descr") {
        if (peek() == '[')
          fail("structured dtypes (a list of fields as 'descr') are not supported");
        h.descr = parse_string();
      } else if (key == "fortran_order") {
        h.fortran_order = parse_bool();
      } else {
        h.shape = parse_shape();
      }
      skip_spaces();
      if (!consume(',')) {
        expect('}');
        break;
      }
    }
    skip_spaces();
    if (pos_ != text_.size()) fail("unexpected characters after the dictionary");
    if (!has_descr || !has_fortran_order || !has_shape)
      fail(std::string("missing key '") +
           (!has_descr           ? "descr"
            : !has_fortran_order ? "fortran_order"
                                 : "shape") +
           "'");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    bad_input(where_, "invalid header at character ", pos_, ": ", what);
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    if (!consume(c))
      fail(pos_ < text_.size() ? std::string("expected '") + c + "'"
                               : "unexpected end of the header");
  }
  void skip_spaces() {
    while (peek() == ' ' || peek() == '\n' || peek() == '\t' || peek() == '\r') ++pos_;
  }
  bool consume_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  std::string parse_string() {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a string");
    ++pos_;
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(text_.substr(pos_, end - pos_));
    if (std::any_of(s.begin(), s.end(), [](char c) { return c == '\\' || c == '\n'; }))
      fail("escapes and line breaks do not belong in a .npy header's strings");
    pos_ = end + 1;
    return s;
  }

  bool parse_bool() {
    if (consume_word("True")) return true;
    if (consume_word("False")) return false;
    fail("expected True or False");
  }

  int64_t parse_int() {
    if (!(peek() >= '0' && peek() <= '9')) fail("expected a non-negative integer");
    int64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      const int digit = text_[pos_++] - '0';
      if (v > (std::numeric_limits<int64_t>::max() - digit) / 10) fail("integer out of range");
      v = v * 10 + digit;
    }
    consume('L');  // Python 2's long, in files NumPy wrote there
    return v;
  }

  // "()", "(3,)", "(2, 3)": a tuple, so one element needs its trailing comma.
  std::vector<int64_t> parse_shape() {
    std::vector<int64_t> shape;
    expect('(');
    skip_spaces();
    while (!consume(')')) {
      shape.push_back(parse_int());
      skip_spaces();
      if (!consume(',')) {
        if (shape.size() == 1) fail("a one-element shape is written (n,)");
        expect(')');
        break;
      }
      skip_spaces();
    }
    return shape;
  }

  std::string_view text_;
  const std::string& where_;
  size_t pos_ = 0;
};

struct DataType {
  ScalarType dtype;
  bool big_endian;
};

DataType data_type_of(const std::string& descr, const std::string& where) {
  if (descr.size() >= 2 && descr[1] == 'O')
    bad_input(where, "object arrays (dtype '", descr,
              "') hold Python objects, which ember does not read");
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const NpyType& t = kNpyTypes[i];
    if (t.descr == nullptr) continue;
    const char order = descr.empty() ? '\0' : descr[0];
    // '|' (no byte order) belongs to one-byte types, '<' and '>' to any.
    const bool order_ok = order == '<' || order == '>' || (order == '|' && t.size == 1);
    if (order_ok && descr.substr(1) == std::string_view(t.descr).substr(1))
      return {static_cast<ScalarType>(i), order == '>' && t.size > 1};
  }
  bad_input(where, "unsupported dtype '", descr,
            "' (ember reads bool '|b1', '|u1', '|i1', '<i2', '<i4', '<i8', '<f2', '<f4' and '<f8', "
            "little- or big-endian)");
}

uint64_t little_endian(const unsigned char* bytes, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | bytes[i];
  return v;
}

// The shape as Python writes a tuple: (), (3,), (2, 3).
std::string python_shape(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

void swap_bytes(Tensor& t) {
  const size_t size = elementSize(t.scalar_type());
  auto* p = static_cast<unsigned char*>(t.data_ptr());
  for (int64_t i = 0; i < t.numel(); ++i, p += size) std::reverse(p, p + size);
}

}  // namespace

Tensor read_npy(uint64_t size, const ReadAt& read_at, const std::string& where) {
  if (size < kPreambleBytes)
    bad_input(where, "too short (", size, " bytes) to be a .npy file, which starts with ",
              kPreambleBytes, " bytes of magic, version and header length");
  unsigned char preamble[kPreambleBytes + 2];
  read_at(0, preamble, kPreambleBytes);
  if (std::memcmp(preamble, kMagic.data(), kMagic.size()) != 0)
    bad_input(where, "not a .npy file: it does not start with \"\\x93NUMPY\"");
  const int major = preamble[6], minor = preamble[7];
  if (major < 1 || major > 3 || minor != 0)
    bad_input(where, "unsupported .npy format version ", major, ".", minor,
              " (ember reads 1.0, 2.0 and 3.0)");
  const int length_bytes = major == 1 ? 2 : 4;
  const uint64_t header_start = 8 + length_bytes;
  if (size < header_start) bad_input(where, "truncated inside the header length");
  read_at(kPreambleBytes, preamble + kPreambleBytes, header_start - kPreambleBytes);
  const uint64_t header_length = little_endian(preamble + 8, length_bytes);
  if (header_length > kMaxHeaderBytes)
    bad_input(where, "header length ", header_length, " exceeds NumPy's limit of ", kMaxHeaderBytes,
              " bytes");
  if (header_length > size - header_start)
    bad_input(where, "header length ", header_length, " runs past the end of the input (",
              size - header_start, " bytes after the preamble)");

  std::string text(header_length, '\0');
  read_at(header_start, text.data(), text.size());
  const NpyHeader h = HeaderParser(text, where).parse();
  const DataType type = data_type_of(h.descr, where);
  check_shape_fits(h.shape, where + ": ");
  uint64_t nbytes = elementSize(type.dtype);  // no overflow: Note [Size limits]
  for (int64_t d : h.shape) nbytes *= static_cast<uint64_t>(d);
  const uint64_t data_start = header_start + header_length;
  const uint64_t available = size - data_start;
  if (available < nbytes)
    bad_input(where, "truncated: shape ", python_shape(h.shape), " of '", h.descr, "' needs ",
              nbytes, " bytes of data, the input has ", available);
  if (available > nbytes)
    bad_input(where, available - nbytes, " unexpected bytes after the array's ", nbytes,
              " bytes of data");

  // Column-major data is the row-major array of the reversed shape, transposed back.
  std::vector<int64_t> stored_shape = h.shape;
  if (h.fortran_order) std::reverse(stored_shape.begin(), stored_shape.end());
  Tensor t = empty(stored_shape, type.dtype);
  if (nbytes > 0) read_at(data_start, t.data_ptr(), nbytes);
  if (type.big_endian) swap_bytes(t);
  if (type.dtype == kBool) normalize_bool_bytes(t);
  if (h.fortran_order && h.shape.size() > 1) {
    std::vector<int64_t> reversed_dims(h.shape.size());
    for (size_t i = 0; i < reversed_dims.size(); ++i)
      reversed_dims[i] = static_cast<int64_t>(reversed_dims.size() - 1 - i);
    t = t.permute(reversed_dims).contiguous();
  }
  return t;
}

std::string npy_header(const Tensor& t, const std::string& where) {
  const char* descr = kNpyTypes[static_cast<int>(t.scalar_type())].descr;
  EMBER_CHECK_T(ValueError, descr != nullptr, where,
                ": NumPy has no bfloat16 dtype; convert the tensor first, e.g. .to(kFloat)");
  const std::vector<int64_t> shape = t.sizes().vec();
  std::string dict = std::string("{'descr': '") + descr +
                     "', 'fortran_order': False, 'shape': " + python_shape(shape) + ", }";
  if (!shape.empty()) dict.append(kGrowthAxisDigits - std::to_string(shape[0]).size(), ' ');
  // NumPy pads with 1 to 64 spaces (never 0), then the newline.
  const size_t padding = kAlignment - (kPreambleBytes + dict.size() + 1) % kAlignment;
  dict.append(padding, ' ');
  dict += '\n';
  std::string out(kMagic);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

}  // namespace ember::io
