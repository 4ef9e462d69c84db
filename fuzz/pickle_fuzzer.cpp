// Fuzzes the restricted unpickler on its own: the input is a pickle stream, stored as the
// data.pkl of a .pt archive whose one storage, "0", holds 64 bytes. Whatever it accepts must
// survive pickle_save + pickle_load unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ember/error.h"
#include "ember/serialize.h"
#include "fuzz_check.h"
#include "io/zip_archive.h"
#include "ivalue_equal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::io::ZipWriter zip("[fuzz] ");
  zip.add("archive/data.pkl", data, size);
  zip.add("archive/data/0", std::string(64, '\x01'));
  std::vector<char> archive = zip.finish();
  ember::IValue value;
  try {
    value = ember::pickle_load(archive);
  } catch (const ember::Error&) {
    return 0;
  }
  ember::IValue again = ember::pickle_load(ember::pickle_save(value));
  EMBER_FUZZ_CHECK(ember::fuzz::same_value(value, again), "a ", value.tagKind(),
                   " changed through pickle_save + pickle_load");
  return 0;
}
