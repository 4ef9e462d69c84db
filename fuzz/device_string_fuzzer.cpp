// Fuzzes the device-string parser: every string is a device or a ValueError, and the strings
// it accepts are exactly the canonical ones, so a parsed device prints back to its input.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <typeinfo>

#include "ember/device.h"
#include "ember/error.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view spec(reinterpret_cast<const char*>(data), size);
  try {
    ember::Device device(spec);
    EMBER_FUZZ_CHECK(device.str() == spec, "'", spec, "' parsed to ", device.str());
    EMBER_FUZZ_CHECK(ember::Device(device.type(), device.index()) == device, device.str());
  } catch (const ember::Error& e) {
    EMBER_FUZZ_CHECK(dynamic_cast<const ember::ValueError*>(&e) != nullptr,
                     "a bad device string must throw ValueError, got ", typeid(e).name(), ": ",
                     e.what());
  }
  return 0;
}
