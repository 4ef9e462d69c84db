// ember's half of tests/interop/npy_roundtrip.py: reads the .npy and .npz files NumPy wrote
// there, checks them against the script's patterns, and writes back what it read for NumPy to
// check. Skips unless that script runs it (EMBER_INTEROP_DIR).
#include <gtest/gtest.h>

#include <string>

#include "ember/ember.h"
#include "io/interop_fixture.h"
#include "io/io_test_util.h"

namespace ember {
namespace {

class NpyInterop : public test::InteropTest {};

// The arrays the script writes, by name (its numpy_writes).
StateDict numpy_arrays() {
  StateDict arrays;
  const std::pair<const char*, ScalarType> dtypes[] = {
      {"bool", kBool},    {"uint8", kByte},    {"int8", kChar},
      {"int16", kShort},  {"int32", kInt},     {"int64", kLong},
      {"float16", kHalf}, {"float32", kFloat}, {"float64", kDouble}};
  for (const auto& [name, dtype] : dtypes) {
    Tensor values = dtype == kBool   ? arange(12).remainder(3).eq(0)
                    : dtype == kByte ? arange(12)
                                     : arange(-3, 9);
    arrays.insert(name, values.reshape({3, 4}).to(dtype));
  }
  arrays.insert("fortran", arange(24, kFloat).reshape({2, 3, 4}));
  arrays.insert("big_endian", arange(-3, 9, kInt).reshape({3, 4}));
  arrays.insert("big_endian_f8", tensor({-1.0, -0.5, 0.0, 0.5, 1.0}, kDouble));
  arrays.insert("scalar", scalar_tensor(2.5, kDouble));
  arrays.insert("empty", zeros({0, 3}, kFloat));
  return arrays;
}

TEST_F(NpyInterop, ReadsNumPysFilesAndWritesThemBack) {
  for (const auto& [name, expected] : numpy_arrays()) {
    SCOPED_TRACE(name);
    Tensor t = load_npy(path(name + ".npy"));
    EXPECT_TRUE(t.is_contiguous());
    test::expect_same(t, expected);
    save_npy(t, path(name + "_from_ember.npy"));
  }
}

TEST_F(NpyInterop, ReadsNumPysArchivesAndWritesThemBack) {
  const StateDict expected = numpy_arrays();
  for (bool compressed : {false, true}) {
    const std::string archive = compressed ? "compressed" : "arrays";
    SCOPED_TRACE(archive);
    StateDict arrays = load_npz(path(archive + ".npz"));
    ASSERT_EQ(arrays.keys(), expected.keys());
    for (const auto& [name, t] : arrays) test::expect_same(t, *expected.find(name));
    save_npz(arrays, path(archive + "_from_ember.npz"), compressed);
  }
}

}  // namespace
}  // namespace ember
