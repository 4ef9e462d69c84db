// TCPStore's wire format, shared by its client and its server only. A request is a command byte
// and its arguments; a reply is a status byte (an error's message follows kError) and the
// command's results. Integers are 8 bytes, little-endian; byte strings are a length and the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ember::distributed::detail {

enum class Command : uint8_t {
  kSet = 1,     // key, value                  -> (nothing)
  kCompareSet,  // key, expected, desired      -> value
  kGet,         // key                         -> found (u8), value
  kAdd,         // key, delta (i64)            -> sum (i64)
  kCheck,       // count, keys                 -> all present (u8)
  kDeleteKey,   // key                         -> was present (u8)
  kNumKeys,     //                             -> count (i64)
  kWait,        // count, keys                 -> WaitReply::kReady, once they all exist
  kCancelWait,  //                             -> WaitReply::kCancelled, count, missing keys
  kJoin,        //                             -> workers joined so far (i64), this one included
  kNumWorkers,  //                             -> workers joined so far (i64)
};

enum class Status : uint8_t { kOk = 0, kError = 1 };

// A client whose wait timed out cancels it, and the server's kReady may already be on its way:
// the two answers differ so that the client can tell which it reads.
enum class WaitReply : uint8_t { kReady = 1, kCancelled = 2 };

// The server drops a client that announces a longer string: it speaks another protocol.
constexpr uint64_t kMaxFieldBytes = uint64_t{1} << 32;

class WireWriter {
 public:
  void u8(uint8_t value) { bytes_.push_back(value); }
  void u64(uint64_t value) {
    for (int shift = 0; shift < 64; shift += 8)
      bytes_.push_back(static_cast<uint8_t>(value >> shift));
  }
  void i64(int64_t value) { u64(static_cast<uint64_t>(value)); }
  void bytes(const void* data, size_t size) {
    u64(size);
    const auto* begin = static_cast<const uint8_t*>(data);
    bytes_.insert(bytes_.end(), begin, begin + size);
  }
  void bytes(const std::vector<uint8_t>& value) { bytes(value.data(), value.size()); }
  void str(const std::string& value) { bytes(value.data(), value.size()); }
  void strs(const std::vector<std::string>& values) {
    u64(values.size());
    for (const std::string& value : values) str(value);
  }

  const std::vector<uint8_t>& data() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// Reads a message from a buffer that may hold only part of it: each read returns false when its
// bytes have not all arrived, and malformed() tells a length no client would send.
class WireReader {
 public:
  WireReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool u8(uint8_t& value) {
    if (size_ - at_ < 1) return false;
    value = data_[at_++];
    return true;
  }
  bool u64(uint64_t& value) {
    if (size_ - at_ < 8) return false;
    value = 0;
    for (int i = 0; i < 8; ++i) value |= uint64_t{data_[at_ + static_cast<size_t>(i)]} << (8 * i);
    at_ += 8;
    return true;
  }
  bool i64(int64_t& value) {
    uint64_t bits = 0;
    if (!u64(bits)) return false;
    value = static_cast<int64_t>(bits);
    return true;
  }
  template <class Bytes>  // std::string or std::vector<uint8_t>
  bool bytes(Bytes& value) {
    uint64_t size = 0;
    if (!u64(size)) return false;
    if (size > kMaxFieldBytes) {
      malformed_ = true;
      return false;
    }
    if (size_ - at_ < size) return false;
    value.assign(data_ + at_, data_ + at_ + size);
    at_ += static_cast<size_t>(size);
    return true;
  }
  bool strs(std::vector<std::string>& values) {
    uint64_t count = 0;
    if (!u64(count)) return false;
    if (count > kMaxFieldBytes) {
      malformed_ = true;
      return false;
    }
    values.clear();
    for (uint64_t i = 0; i < count; ++i) {
      values.emplace_back();
      if (!bytes(values.back())) return false;
    }
    return true;
  }

  size_t consumed() const { return at_; }
  bool malformed() const { return malformed_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
  bool malformed_ = false;
};

}  // namespace ember::distributed::detail
