// LibTorch's checking and warning macros from <ember/torch.h>: what they throw and report.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ember/torch.h"

namespace {

struct Collector : c10::WarningHandler {
  void process(const c10::Warning& w) override { messages.push_back(w.msg()); }
  std::vector<std::string> messages;
};

int checked_half(int x) {
  TORCH_CHECK(x % 2 == 0, "expected an even number, got ", x);
  return x / 2;
}

TEST(TorchMacros, CheckThrowsC10ErrorWithTheMessage) {
  EXPECT_EQ(checked_half(4), 2);
  try {
    checked_half(3);
    FAIL() << "no throw";
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.msg(), "expected an even number, got 3");
    EXPECT_NE(std::string(e.what()).find("Exception raised from checked_half at"),
              std::string::npos);
  }
}

TEST(TorchMacros, CheckWithoutMessageSaysWhatFailed) {
  try {
    TORCH_CHECK(1 == 2);
    FAIL() << "no throw";
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.msg().rfind("Expected 1 == 2 to be true, but got false.", 0), 0u);
  }
}

TEST(TorchMacros, TypedChecksThrowTheirType) {
  EXPECT_THROW(TORCH_CHECK_INDEX(false, "i"), c10::IndexError);
  EXPECT_THROW(TORCH_CHECK_VALUE(false, "v"), c10::ValueError);
  EXPECT_THROW(TORCH_CHECK_TYPE(false, "t"), c10::TypeError);
  EXPECT_THROW(TORCH_CHECK_NOT_IMPLEMENTED(false, "n"), c10::NotImplementedError);
  EXPECT_THROW(TORCH_CHECK_LINALG(false, "l"), c10::LinAlgError);
  EXPECT_THROW(TORCH_CHECK_INDEX(false, "i"), c10::Error);  // each is a c10::Error
}

TEST(TorchMacros, InternalAssertNamesTheCondition) {
  try {
    TORCH_INTERNAL_ASSERT(1 + 1 == 3, "extra ", 3);
    FAIL() << "no throw";
  } catch (const c10::Error& e) {
    const std::string msg = e.msg();
    EXPECT_EQ(msg.rfind("1 + 1 == 3 INTERNAL ASSERT FAILED at \"", 0), 0u) << msg;
    EXPECT_NE(msg.find("extra 3"), std::string::npos) << msg;
  }
  TORCH_INTERNAL_ASSERT(true);
}

TEST(TorchMacros, WarnOnceWarnsOncePerSiteUnlessWarnAlways) {
  Collector collector;
  c10::WarningUtils::WarningHandlerGuard guard(&collector);
  for (int i = 0; i < 3; ++i) TORCH_WARN_ONCE("once ", i);
  for (int i = 0; i < 2; ++i) TORCH_WARN("each ", i);
  {
    c10::WarningUtils::WarnAlways always;
    for (int i = 0; i < 2; ++i) TORCH_WARN_ONCE("always ", i);
  }
  EXPECT_EQ(collector.messages,
            (std::vector<std::string>{"once 0", "each 0", "each 1", "always 0", "always 1"}));
}

TEST(TorchMacros, StrAndJoinAreC10s) {
  EXPECT_EQ(c10::str("a", 1, 'b'), "a1b");
  EXPECT_EQ(c10::Join(", ", std::vector<int64_t>{2, 3}), "2, 3");
}

}  // namespace
