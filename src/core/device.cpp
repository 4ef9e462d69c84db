// Device parsing and printing with PyTorch's grammar and messages (PYTORCH.md A1).
#include "ember/device.h"

#include <cstdio>
#include <ostream>

#include "core/check.h"
#include "ember/cuda.h"

namespace ember {
namespace {

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

Device::Device(DeviceType type, int index) : type_(type), index_(static_cast<int8_t>(index)) {
  EMBER_CHECK_T(ValueError, index >= -1 && index <= 127,
                "Device index must be -1 or non-negative, got ", index);
  EMBER_CHECK_T(ValueError, type != DeviceType::CPU || index <= 0,
                "CPU device index must be -1 or zero, got ", index);
}

Device::Device(std::string_view spec) : type_(DeviceType::CPU), index_(-1) {
  EMBER_CHECK_T(ValueError, !spec.empty(), "Device string must not be empty");
  size_t i = 0;
  while (i < spec.size() && is_name_char(spec[i])) ++i;
  std::string_view name = spec.substr(0, i);
  std::string_view index_str;
  bool well_formed = !name.empty();
  if (well_formed && i < spec.size()) {
    well_formed = spec[i] == ':';
    index_str = spec.substr(i + 1);
    for (char c : index_str) well_formed = well_formed && is_digit(c);
    // An index is "0" or has no leading zero; "cuda:" and "cuda:01" are rejected.
    well_formed = well_formed && !index_str.empty() && (index_str == "0" || index_str[0] != '0');
  }
  EMBER_CHECK_T(ValueError, well_formed, "Invalid device string: '", spec, "'");
  if (name == "cpu") {
    type_ = DeviceType::CPU;
  } else if (name == "cuda") {
    type_ = DeviceType::CUDA;
  } else {
    detail::fail<ValueError>("Expected one of cpu, cuda device type at start of device string: ",
                             name);
  }
  if (!index_str.empty()) {
    EMBER_CHECK_T(ValueError, index_str.size() <= 3 && std::stoi(std::string(index_str)) <= 127,
                  "Could not parse device index '", index_str, "' in device string '", spec,
                  "' (ember device indices go up to 127)");
    int index = std::stoi(std::string(index_str));
    EMBER_CHECK_T(ValueError, type_ != DeviceType::CPU || index == 0,
                  "CPU device index must be -1 or zero, got ", index);
    index_ = static_cast<int8_t>(index);
  }
}

std::string Device::str() const {
  const char* name = type_ == DeviceType::CPU ? "cpu" : "cuda";
  if (index_ == -1) return name;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%s:%d", name, static_cast<int>(index_));
  return buf;
}

std::ostream& operator<<(std::ostream& os, Device d) { return os << d.str(); }
std::ostream& operator<<(std::ostream& os, DeviceType t) {
  return os << (t == DeviceType::CPU ? "cpu" : "cuda");
}

Device try_gpu(int i) {
  if (i >= 0 && cuda::device_count() >= i + 1) return Device::cuda(i);
  return Device::cpu();
}

std::vector<Device> try_all_gpus() {
  std::vector<Device> devices;
  for (int i = 0, n = cuda::device_count(); i < n; ++i) devices.push_back(Device::cuda(i));
  if (devices.empty()) devices.push_back(Device::cpu());
  return devices;
}

}  // namespace ember
