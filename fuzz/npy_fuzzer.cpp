// Fuzzes NumPy's formats with the input as a file, read both as a .npy file (load_npy) and as a
// .npz archive (load_npz). What loads must be contiguous CPU tensors, and must survive
// save_npy + load_npy (save_npz + load_npz, stored and compressed) unchanged: names, dtypes,
// shapes and bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ember/error.h"
#include "ember/npy.h"
#include "ember/tensor.h"
#include "fuzz_check.h"
#include "scratch_file.h"

namespace {

using ember::fuzz::ScratchFile;

std::string bytes_of(const ember::Tensor& t) {
  return t.numel() == 0 ? std::string()
                        : std::string(static_cast<const char*>(t.data_ptr()), t.nbytes());
}

// What a reader returns, as the header promises.
void check_loaded(const ember::Tensor& t, const std::string& what) {
  EMBER_FUZZ_CHECK(t.is_contiguous() && t.is_cpu(), what, ": not a contiguous CPU tensor");
}

void check_same(const ember::Tensor& got, const ember::Tensor& want, const std::string& what) {
  check_loaded(got, what);
  EMBER_FUZZ_CHECK(got.dtype() == want.dtype() && got.sizes() == want.sizes(), what, ": ",
                   want.dtype(), want.sizes(), " became ", got.dtype(), got.sizes());
  EMBER_FUZZ_CHECK(bytes_of(got) == bytes_of(want), what, ": bytes changed");
}

void check_npy_round_trip(const ember::Tensor& t) {
  static const ScratchFile copy("npy_copy");
  ember::Tensor again;
  try {
    ember::save_npy(t, copy.path());
    again = ember::load_npy(copy.path());
  } catch (const ember::Error& e) {
    EMBER_FUZZ_CHECK(false, "what load_npy returned does not save and load again: ", e.what());
  }
  check_loaded(t, "load_npy's tensor");
  check_same(again, t, "load_npy's tensor saved and loaded");
}

void check_npz_round_trip(const ember::StateDict& arrays) {
  static const ScratchFile copy("npz_copy");
  for (bool compressed : {false, true}) {
    ember::StateDict again;
    try {
      ember::save_npz(arrays, copy.path(), compressed);
      again = ember::load_npz(copy.path());
    } catch (const ember::Error& e) {
      EMBER_FUZZ_CHECK(false, "what load_npz returned does not save and load again: ", e.what());
    }
    EMBER_FUZZ_CHECK(again.keys() == arrays.keys(), "the names changed in a round trip");
    for (const auto& [name, t] : arrays) {
      check_loaded(t, "array '" + name + "'");
      check_same(*again.find(name), t, "array '" + name + "' saved and loaded");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ScratchFile input("npy");
  input.write(data, size);
  ember::Tensor t;
  try {
    t = ember::load_npy(input.path());
  } catch (const ember::Error&) {
  }
  if (t.defined()) check_npy_round_trip(t);
  ember::StateDict arrays;
  bool loaded = true;
  try {
    arrays = ember::load_npz(input.path());
  } catch (const ember::Error&) {
    loaded = false;
  }
  if (loaded) check_npz_round_trip(arrays);
  return 0;
}
