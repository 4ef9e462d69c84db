// Helpers shared by the file-format tests: scratch paths, whole-file reads and writes, and
// comparing tensors byte for byte.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "ember/ember.h"

namespace ember::test {

// Unique per process: CTest runs the tests of a file in parallel processes.
inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "ember_io_" + std::to_string(getpid()) + "_" + name;
}

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The elements' bytes, row-major.
inline std::string bytes_of(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::string(static_cast<const char*>(c.data_ptr()), c.nbytes());
}

inline void expect_same(const Tensor& got, const Tensor& want) {
  EXPECT_EQ(got.dtype(), want.dtype());
  EXPECT_EQ(got.sizes(), want.sizes());
  EXPECT_EQ(bytes_of(got), bytes_of(want));
}

}  // namespace ember::test
