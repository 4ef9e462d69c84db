// The fixture of the gtest halves of tests/interop/*_roundtrip.py: each script has Python write
// files into a scratch directory, runs its tests with EMBER_INTEROP_DIR naming it, and checks
// what they wrote there. Run any other way, the tests skip.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace ember::test {

class InteropTest : public testing::Test {
 protected:
  void SetUp() override {
    if (dir().empty())
      GTEST_SKIP() << "run by tests/interop/*_roundtrip.py, which sets EMBER_INTEROP_DIR";
  }
  // A file in the scratch directory.
  static std::string path(const std::string& name) { return dir() + "/" + name; }

 private:
  static std::string dir() {
    const char* dir = std::getenv("EMBER_INTEROP_DIR");
    return dir ? dir : "";
  }
};

}  // namespace ember::test
