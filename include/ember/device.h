// Device: where a tensor lives ("cpu", "cuda", "cuda:1"), a small value type like c10::Device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "ember/macros.h"

namespace ember {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
inline constexpr int kNumDeviceTypes = 2;
inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;

// A device type plus an index; index -1 means "the current device of that type". Equality
// compares both, so Device("cuda") != Device("cuda:0"), exactly as in PyTorch.
class EMBER_API Device {
 public:
  Device(DeviceType type = DeviceType::CPU, int index = -1);
  // Parses PyTorch's grammar `([a-z_]+)(:(0|[1-9][0-9]*))?`; throws ValueError otherwise.
  Device(std::string_view spec);  // NOLINT: implicit so x.to("cuda:1") works
  Device(const char* spec) : Device(std::string_view(spec)) {}         // NOLINT
  Device(const std::string& spec) : Device(std::string_view(spec)) {}  // NOLINT

  static Device cpu() { return Device(DeviceType::CPU); }
  static Device cuda(int index = -1) { return Device(DeviceType::CUDA, index); }

  DeviceType type() const noexcept { return type_; }
  int index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  std::string str() const;  // "cpu", "cuda", "cuda:1"

  friend bool operator==(Device a, Device b) noexcept {
    return a.type_ == b.type_ && a.index_ == b.index_;
  }

 private:
  DeviceType type_;
  int8_t index_;
};

EMBER_API std::ostream& operator<<(std::ostream& os, Device d);
EMBER_API std::ostream& operator<<(std::ostream& os, DeviceType t);

// d2l's helpers: never throw, fall back to the CPU.
EMBER_API Device try_gpu(int i = 0);           // cuda:i if that GPU exists, else cpu
EMBER_API std::vector<Device> try_all_gpus();  // every GPU, or {cpu}

}  // namespace ember

template <>
struct std::hash<ember::Device> {
  size_t operator()(ember::Device d) const noexcept {
    return std::hash<int>()(static_cast<int>(d.type()) * 256 + d.index());
  }
};
