// Fuzzes torch::pickle_load with the input as the bytes of a .pt file (zip, records, pickle,
// storages). Whatever it accepts must survive pickle_save + pickle_load unchanged.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ember/error.h"
#include "ember/serialize.h"
#include "fuzz_check.h"
#include "ivalue_equal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<char> bytes(data, data + size);
  ember::IValue value;
  try {
    value = ember::pickle_load(bytes);
  } catch (const ember::Error&) {
    return 0;
  }
  ember::IValue again;
  try {
    again = ember::pickle_load(ember::pickle_save(value));
  } catch (const ember::Error& e) {
    EMBER_FUZZ_CHECK(false, "what pickle_load returned does not save and load again: ", e.what());
  }
  EMBER_FUZZ_CHECK(ember::fuzz::same_value(value, again), "a ", value.tagKind(),
                   " changed through pickle_save + pickle_load");
  return 0;
}
