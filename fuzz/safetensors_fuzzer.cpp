// Fuzzes the safetensors reader with the input as a file. load() and load_safetensors_metadata()
// must accept and refuse the same files with the same message, and whatever load() accepts must
// survive save_safetensors() and a second load() unchanged: names, dtypes, shapes, bytes and
// metadata.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ember/error.h"
#include "ember/io.h"
#include "ember/tensor.h"
#include "fuzz_check.h"
#include "scratch_file.h"

namespace {

using ember::fuzz::ScratchFile;

std::string bytes_of(const ember::Tensor& t) {
  ember::Tensor c = t.contiguous();
  return t.numel() == 0 ? std::string()
                        : std::string(static_cast<const char*>(c.data_ptr()), c.nbytes());
}

void check_round_trip(const ember::StateDict& dict, const ember::FileMetadata& metadata) {
  static const ScratchFile copy("safetensors_copy");
  ember::StateDict again;
  ember::FileMetadata metadata_again;
  try {
    ember::save_safetensors(dict, copy.path(), metadata);
    again = ember::load_safetensors(copy.path());
    metadata_again = ember::load_safetensors_metadata(copy.path());
  } catch (const ember::Error& e) {
    EMBER_FUZZ_CHECK(false, "what load() returned does not save and load again: ", e.what());
  }
  EMBER_FUZZ_CHECK(metadata_again == metadata, "the metadata changed in a round trip");
  EMBER_FUZZ_CHECK(again.size() == dict.size(), dict.size(), " tensors became ", again.size());
  for (const auto& [name, tensor] : dict) {
    const ember::Tensor* t = again.find(name);
    EMBER_FUZZ_CHECK(t != nullptr, "tensor \"", name, "\" was lost in a round trip");
    EMBER_FUZZ_CHECK(t->dtype() == tensor.dtype() && t->sizes() == tensor.sizes(), "tensor \"",
                     name, "\": ", tensor.dtype(), tensor.sizes(), " became ", t->dtype(),
                     t->sizes());
    EMBER_FUZZ_CHECK(bytes_of(*t) == bytes_of(tensor), "tensor \"", name, "\": bytes changed");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ScratchFile input("safetensors");
  input.write(data, size);
  ember::StateDict dict;
  ember::FileMetadata metadata;
  std::string load_error, metadata_error;
  try {
    dict = ember::load_safetensors(input.path());
  } catch (const ember::Error& e) {
    load_error = e.what();
  }
  try {
    metadata = ember::load_safetensors_metadata(input.path());
  } catch (const ember::Error& e) {
    metadata_error = e.what();
  }
  EMBER_FUZZ_CHECK(load_error == metadata_error, "load: '", load_error, "', load_metadata: '",
                   metadata_error, "'");
  if (load_error.empty()) check_round_trip(dict, metadata);
  return 0;
}
