// save/load in HuggingFace's safetensors format, with a strict parser for its JSON header.
//
// Note [safetensors layout]: 8 bytes of little-endian header length N, N bytes of JSON
// {"__metadata__":{...},"name":{"dtype":"F32","shape":[2,3],"data_offsets":[begin,end]},...}
// padded with spaces to a multiple of 8, then the data section, which the tensors' byte ranges
// (relative to its start) must cover exactly: no overlaps, no holes, nothing after the last one.
// The writer follows the Python/Rust library byte for byte: compact JSON, "__metadata__" first,
// and the data sorted by the library's dtype order descending (its "alignment" order), then name.
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <vector>

#include "core/check.h"
#include "ember/factory.h"
#include "ember/io.h"
#include "io/file.h"
#include "io/shape_check.h"

namespace ember {
namespace {

// The data is copied byte for byte between memory and the little-endian file.
static_assert(std::endian::native == std::endian::little,
              "safetensors I/O assumes a little-endian host");

// Same limit as the Python library: a header larger than this is refused before it is read.
constexpr uint64_t kMaxHeaderBytes = 100'000'000;
// The schema nests three levels deep; anything far deeper is malformed, and the recursive parser
// must not run out of stack on "[[[[...".
constexpr int kMaxJsonDepth = 16;

struct DTypeName {
  ScalarType dtype;
  const char* name;
  int layout_rank;  // position in the Rust library's Dtype enum; the data is sorted on it
};
// Indexed by ScalarType, in its enum order.
constexpr DTypeName kDTypeNames[] = {
    {kBool, "BOOL", 0},    {kUInt8, "U8", 1},     {kInt8, "I8", 2},     {kInt16, "I16", 5},
    {kInt32, "I32", 9},    {kInt64, "I64", 13},   {kFloat16, "F16", 7}, {kBFloat16, "BF16", 8},
    {kFloat32, "F32", 11}, {kFloat64, "F64", 12},
};
static_assert(std::size(kDTypeNames) == static_cast<size_t>(kNumScalarTypes));

const DTypeName& dtype_entry(ScalarType t) { return kDTypeNames[static_cast<int>(t)]; }

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// ---- the JSON subset a safetensors header uses: objects, arrays, strings, integers

struct JsonValue {
  enum class Kind { Object, Array, String, Integer };
  Kind kind = Kind::Integer;
  int64_t integer = 0;
  std::string string;
  std::vector<std::string> keys;  // Object: keys in file order, parallel to items
  std::vector<JsonValue> items;   // Object values or Array elements
};

// Rejects malformed UTF-8 (overlong forms, surrogates, > U+10FFFF), as the Rust library does.
bool is_valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    int extra = c < 0x80           ? 0
                : (c >> 5) == 0x6  ? 1
                : (c >> 4) == 0xe  ? 2
                : (c >> 3) == 0x1e ? 3
                                   : -1;
    if (extra < 0 || i + extra >= s.size()) return false;
    uint32_t cp = extra == 0 ? c : c & (0x3f >> extra);
    for (int k = 1; k <= extra; ++k) {
      auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    constexpr uint32_t kMinForLength[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMinForLength[extra] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += extra + 1;
  }
  return true;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

class JsonParser {
 public:
  JsonParser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  JsonValue parse_document() {
    skip_whitespace();
    JsonValue v = parse_value(0);
    skip_whitespace();  // also eats the padding spaces
    if (pos_ != text_.size()) fail("unexpected characters after the JSON object");
    return v;
  }

 private:
  [[noreturn]] void fail(std::string_view what) const {
    detail::fail<ValueError>("[load] ", path_, ": invalid JSON header at byte ", pos_, ": ", what);
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  void skip_whitespace() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      ++pos_;
  }

  JsonValue parse_value(int depth) {
    if (depth > kMaxJsonDepth) fail("nested too deeply");
    char c = peek();
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    JsonValue v;
    if (c == '"') {
      v.kind = JsonValue::Kind::String;
      v.string = parse_string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = JsonValue::Kind::Integer;
      v.integer = parse_integer();
    } else {
      fail(at_end() ? "unexpected end of the header"
                    : "expected an object, array, string or integer (nothing else belongs in a "
                      "safetensors header)");
    }
    return v;
  }

  JsonValue parse_object(int depth) {
    JsonValue v;
    v.kind = JsonValue::Kind::Object;
    std::unordered_set<std::string> seen;
    expect('{');
    skip_whitespace();
    if (peek() == '}') {
      ++pos_;
      return v;
    }
    while (true) {
      skip_whitespace();
      if (peek() != '"') fail("expected a string key");
      size_t key_pos = pos_;
      std::string key = parse_string();
      if (!seen.insert(key).second) {
        pos_ = key_pos;
        fail("duplicate key \"" + key + "\"");
      }
      skip_whitespace();
      expect(':');
      skip_whitespace();
      v.keys.push_back(std::move(key));
      v.items.push_back(parse_value(depth + 1));
      skip_whitespace();
      if (peek() == '}') break;
      expect(',');
    }
    ++pos_;
    return v;
  }

  JsonValue parse_array(int depth) {
    JsonValue v;
    v.kind = JsonValue::Kind::Array;
    expect('[');
    skip_whitespace();
    if (peek() == ']') {
      ++pos_;
      return v;
    }
    while (true) {
      skip_whitespace();
      v.items.push_back(parse_value(depth + 1));
      skip_whitespace();
      if (peek() == ']') break;
      expect(',');
    }
    ++pos_;
    return v;
  }

  uint32_t parse_hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text_[pos_++];
      int digit = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
      if (digit < 0) fail("bad hex digit in a \\u escape");
      v = v * 16 + static_cast<uint32_t>(digit);
    }
    return v;
  }

  std::string parse_string() {
    expect('"');
    std::string out;
    while (true) {
      if (at_end()) fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character inside a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_end()) fail("unterminated string");
      char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = parse_hex4();
          if (cp >= 0xdc00 && cp <= 0xdfff) fail("unpaired low surrogate in a \\u escape");
          if (cp >= 0xd800 && cp <= 0xdbff) {  // a UTF-16 pair: \uD83D\uDE00
            if (text_.substr(pos_, 2) != "\\u") fail("unpaired high surrogate in a \\u escape");
            pos_ += 2;
            uint32_t low = parse_hex4();
            if (low < 0xdc00 || low > 0xdfff) fail("unpaired high surrogate in a \\u escape");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          }
          append_utf8(out, cp);
          break;
        }
        default: --pos_; fail("invalid escape in a string");
      }
    }
  }

  int64_t parse_integer() {
    bool negative = peek() == '-';
    if (negative) ++pos_;
    if (!(peek() >= '0' && peek() <= '9')) fail("expected a digit");
    if (peek() == '0' && pos_ + 1 < text_.size() && text_[pos_ + 1] >= '0' &&
        text_[pos_ + 1] <= '9')
      fail("leading zeros are not allowed in JSON numbers");
    // Accumulate negatively so INT64_MIN parses too.
    int64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      int digit = text_[pos_++] - '0';
      if (v < (std::numeric_limits<int64_t>::min() + digit) / 10) fail("integer out of range");
      v = v * 10 - digit;
    }
    if (peek() == '.' || peek() == 'e' || peek() == 'E')
      fail("expected an integer, not a fraction");
    if (!negative) {
      if (v == std::numeric_limits<int64_t>::min()) fail("integer out of range");
      v = -v;
    }
    return v;
  }

  std::string_view text_;
  const std::string& path_;
  size_t pos_ = 0;
};

// ---- the header schema

struct Entry {
  std::string name;
  ScalarType dtype;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;
};

struct Header {
  std::vector<Entry> entries;  // header order
  FileMetadata metadata;
  uint64_t data_start = 0;  // file offset of the data section
};

template <class... Args>
[[noreturn]] void bad_file(const std::string& path, const Args&... args) {
  detail::fail<ValueError>("[load] ", path, ": ", args...);
}

std::vector<int64_t> int_list(const JsonValue& v, const std::string& path, const std::string& name,
                              const char* field) {
  bool ok = v.kind == JsonValue::Kind::Array;
  for (const JsonValue& item : v.items) ok = ok && item.kind == JsonValue::Kind::Integer;
  std::vector<int64_t> out;
  for (const JsonValue& item : v.items) {
    ok = ok && item.integer >= 0;
    out.push_back(item.integer);
  }
  if (!ok)
    bad_file(path, "tensor \"", name, "\": \"", field,
             "\" must be a list of non-negative integers");
  return out;
}

Entry parse_entry(const std::string& name, const JsonValue& v, const std::string& path) {
  if (v.kind != JsonValue::Kind::Object)
    bad_file(path, "tensor \"", name, "\" must be a JSON object");
  const JsonValue *dtype = nullptr, *shape = nullptr, *offsets = nullptr;
  for (size_t i = 0; i < v.keys.size(); ++i) {
    const std::string& key = v.keys[i];
    const JsonValue** slot = key == "dtype"          ? &dtype
                             : key == "shape"        ? &shape
                             : key == "data_offsets" ? &offsets
                                                     : nullptr;
    if (!slot) bad_file(path, "tensor \"", name, "\": unexpected key \"", key, "\"");
    *slot = &v.items[i];
  }
  const std::pair<const char*, const JsonValue*> required[] = {
      {"dtype", dtype}, {"shape", shape}, {"data_offsets", offsets}};
  for (auto [field, value] : required)
    if (!value) bad_file(path, "tensor \"", name, "\": missing \"", field, "\"");

  Entry e;
  e.name = name;
  if (dtype->kind != JsonValue::Kind::String)
    bad_file(path, "tensor \"", name, "\": \"dtype\" must be a string");
  const DTypeName* found = nullptr;
  for (const DTypeName& d : kDTypeNames)
    if (dtype->string == d.name) found = &d;
  if (!found)
    bad_file(path, "tensor \"", name, "\": unknown dtype \"", dtype->string,
             "\" (ember reads F64, F32, F16, BF16, I64, I32, I16, I8, U8 and BOOL)");
  e.dtype = found->dtype;
  e.shape = int_list(*shape, path, name, "shape");
  // Here rather than when load_safetensors() allocates, so that load_safetensors_metadata() refuses
  // the file as well.
  io::check_shape_fits(e.shape, "[load] " + path + ": tensor \"" + name + "\": ");
  std::vector<int64_t> range = int_list(*offsets, path, name, "data_offsets");
  if (range.size() != 2 || range[0] > range[1])
    bad_file(path, "tensor \"", name,
             "\": \"data_offsets\" must be [begin, end] with begin <= end");
  e.begin = static_cast<uint64_t>(range[0]);
  e.end = static_cast<uint64_t>(range[1]);

  // Element count times item size, refusing overflow instead of wrapping around.
  uint64_t nbytes = elementSize(e.dtype);
  for (int64_t d : e.shape) {
    if (d != 0 && nbytes > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d))
      bad_file(path, "tensor \"", name, "\": shape ", shape_str(e.shape), " is too large");
    nbytes *= static_cast<uint64_t>(d);
  }
  if (e.end - e.begin != nbytes)
    bad_file(path, "tensor \"", name, "\": data_offsets [", e.begin, ", ", e.end, "] span ",
             e.end - e.begin, " bytes but shape ", shape_str(e.shape), " of ", found->name,
             " needs ", nbytes, " bytes");
  return e;
}

Header read_header(io::InputFile& file, const std::string& path) {
  uint64_t file_size = file.size();
  if (file_size < 8)
    bad_file(path, "file too short (", file_size,
             " bytes) to be a safetensors file, which starts with an 8-byte header length");
  unsigned char len_bytes[8];
  file.read_at(0, len_bytes, 8);
  uint64_t header_len = 0;
  for (int i = 7; i >= 0; --i) header_len = (header_len << 8) | len_bytes[i];
  if (header_len > kMaxHeaderBytes)
    bad_file(path, "header length ", header_len, " exceeds the limit of ", kMaxHeaderBytes,
             " bytes (a corrupt file or not a safetensors file)");
  if (header_len > file_size - 8)
    bad_file(path, "header length ", header_len, " is larger than the rest of the file (",
             file_size - 8, " bytes): the file is truncated or not a safetensors file");

  std::string text(header_len, '\0');
  file.read_at(8, text.data(), text.size());
  if (!is_valid_utf8(text)) bad_file(path, "the header is not valid UTF-8");
  JsonValue root = JsonParser(text, path).parse_document();
  if (root.kind != JsonValue::Kind::Object) bad_file(path, "the header must be a JSON object");

  Header h;
  h.data_start = 8 + header_len;
  uint64_t data_size = file_size - h.data_start;
  for (size_t i = 0; i < root.keys.size(); ++i) {
    const JsonValue& v = root.items[i];
    if (root.keys[i] != "__metadata__") {
      h.entries.push_back(parse_entry(root.keys[i], v, path));
      continue;
    }
    bool ok = v.kind == JsonValue::Kind::Object;
    for (const JsonValue& item : v.items) ok = ok && item.kind == JsonValue::Kind::String;
    if (!ok) bad_file(path, "\"__metadata__\" must be an object mapping strings to strings");
    for (size_t k = 0; k < v.keys.size(); ++k)
      h.metadata.emplace_back(v.keys[k], v.items[k].string);
  }

  // The byte ranges must tile [0, data_size) exactly (Note [safetensors layout]).
  std::vector<const Entry*> by_offset;
  for (const Entry& e : h.entries) {
    if (e.end > data_size)
      bad_file(path, "tensor \"", e.name, "\": data_offsets [", e.begin, ", ", e.end,
               "] are out of bounds of the data section (", data_size, " bytes)");
    by_offset.push_back(&e);
  }
  std::sort(by_offset.begin(), by_offset.end(), [](const Entry* a, const Entry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  uint64_t covered = 0;
  const Entry* previous = nullptr;
  for (const Entry* e : by_offset) {
    if (e->begin < covered)
      bad_file(path, "tensors \"", previous->name, "\" and \"", e->name,
               "\" overlap in the data section");
    if (e->begin > covered)
      bad_file(path, "hole in the data section: bytes [", covered, ", ", e->begin,
               ") belong to no tensor");
    covered = e->end;
    previous = e;
  }
  if (covered != data_size)
    bad_file(path, "hole in the data section: its last ", data_size - covered,
             " bytes belong to no tensor");
  return h;
}

// ---- writing

void append_json_string(std::string& out, std::string_view s) {
  // serde_json's escaping, so the header matches the Rust library's byte for byte.
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

}  // namespace

void save_safetensors(const StateDict& tensors, const std::string& path,
                      const FileMetadata& metadata) {
  std::unordered_set<std::string> metadata_keys;
  for (const auto& [key, value] : metadata)
    EMBER_CHECK_T(ValueError, metadata_keys.insert(key).second, "[save] ", path,
                  ": duplicate metadata key \"", key, "\"");
  std::vector<const StateDict::Item*> order;
  for (const StateDict::Item& item : tensors) {
    EMBER_CHECK_T(ValueError, item.first != "__metadata__", "[save] ", path,
                  ": \"__metadata__\" is reserved and cannot name a tensor");
    EMBER_CHECK_T(ValueError, item.second.defined(), "[save] ", path, ": tensor \"", item.first,
                  "\" is undefined");
    order.push_back(&item);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    int ra = dtype_entry(a->second.scalar_type()).layout_rank;
    int rb = dtype_entry(b->second.scalar_type()).layout_rank;
    return ra != rb ? ra > rb : a->first < b->first;
  });

  std::string header = "{";
  if (!metadata.empty()) {
    header += "\"__metadata__\":{";
    for (size_t i = 0; i < metadata.size(); ++i) {
      if (i) header += ',';
      append_json_string(header, metadata[i].first);
      header += ':';
      append_json_string(header, metadata[i].second);
    }
    header += '}';
  }
  uint64_t offset = 0;
  for (const StateDict::Item* item : order) {
    const Tensor& t = item->second;
    if (header.size() > 1) header += ',';
    append_json_string(header, item->first);
    header += ":{\"dtype\":\"";
    header += dtype_entry(t.scalar_type()).name;
    header += "\",\"shape\":[";
    for (int64_t d = 0; d < t.dim(); ++d) header += (d ? "," : "") + std::to_string(t.size(d));
    header += "],\"data_offsets\":[" + std::to_string(offset) + ",";
    offset += t.nbytes();
    header += std::to_string(offset) + "]}";
  }
  header += '}';
  header.append((8 - header.size() % 8) % 8, ' ');

  io::PendingFile out(path, "[save] ");
  unsigned char len_bytes[8];
  for (int i = 0; i < 8; ++i) len_bytes[i] = static_cast<unsigned char>(header.size() >> (8 * i));
  out.write(len_bytes, 8);
  out.write(header.data(), header.size());
  // One host copy at a time, so saving GPU tensors needs no more host memory than the largest.
  for (const StateDict::Item* item : order) {
    Tensor host = item->second.to(Device::cpu()).contiguous();
    if (host.numel() > 0) out.write(host.data_ptr(), host.nbytes());
  }
  out.commit();
}

StateDict load_safetensors(const std::string& path, Device device) {
  io::InputFile file(path, "[load] ");
  Header h = read_header(file, path);
  StateDict out;
  for (const Entry& e : h.entries) {
    Tensor t = empty(e.shape, e.dtype);
    if (t.numel() > 0) file.read_at(h.data_start + e.begin, t.data_ptr(), t.nbytes());
    out.insert(e.name, t.to(device));
  }
  return out;
}

FileMetadata load_safetensors_metadata(const std::string& path) {
  io::InputFile file(path, "[load] ");
  return read_header(file, path).metadata;
}

}  // namespace ember
