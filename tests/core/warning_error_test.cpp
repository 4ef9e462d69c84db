// ember::Error's parts (msg, context, location) and the warning handlers, as c10's.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "ember/error.h"
#include "ember/string_util.h"
#include "ember/warning.h"

namespace ember {
namespace {

TEST(StringUtil, StrAndJoin) {
  EXPECT_EQ(str("got ", 3, " and ", 2.5), "got 3 and 2.5");
  EXPECT_EQ(str(), "");
  EXPECT_EQ(Join(", ", std::vector<int>{1, 2, 3}), "1, 2, 3");
  EXPECT_EQ(Join("-", std::vector<std::string>{}), "");
}

TEST(Error, ContextJoinsTheMessage) {
  ValueError e("[view] shape '[4]' is invalid for input of size 6");
  EXPECT_EQ(e.msg(), "[view] shape '[4]' is invalid for input of size 6");
  EXPECT_STREQ(e.what(), e.msg().c_str());
  e.add_context("while loading layer 3");
  EXPECT_STREQ(e.what(),
               "[view] shape '[4]' is invalid for input of size 6 (while loading layer 3)");
  e.add_context("in model.load");
  EXPECT_STREQ(e.what_without_backtrace(),
               "[view] shape '[4]' is invalid for input of size 6\n  while loading layer 3\n"
               "  in model.load");
  EXPECT_EQ(e.msg(), "[view] shape '[4]' is invalid for input of size 6");
  EXPECT_EQ(e.context().size(), 2u);
  EXPECT_EQ(e.backtrace(), "");
}

TEST(Error, LocationGoesToWhatOnly) {
  Error e(SourceLocation{"f", "a.cpp", 7}, "bad");
  EXPECT_EQ(e.msg(), "bad");
  EXPECT_STREQ(e.what_without_backtrace(), "bad");
  EXPECT_STREQ(e.what(), "bad\nException raised from f at a.cpp:7");
  try {
    throw LinAlgError("singular");
  } catch (const std::runtime_error& caught) {  // every ember error is a runtime_error too
    EXPECT_STREQ(caught.what(), "singular");
  }
}

class Collector : public WarningHandler {
 public:
  void process(const Warning& w) override { messages.push_back(w.msg()); }
  std::vector<std::string> messages;
};

TEST(Warning, HandlerPerThreadAndScoped) {
  Collector collector;
  {
    WarningUtils::WarningHandlerGuard guard(&collector);
    EXPECT_EQ(WarningUtils::get_warning_handler(), &collector);
    warn(Warning(UserWarning(), {"f", "a.cpp", 1}, "first", false));
    // Another thread has its own handler: the default one, not the collector.
    std::thread([] { EXPECT_NE(WarningUtils::get_warning_handler(), nullptr); }).join();
  }
  EXPECT_NE(WarningUtils::get_warning_handler(), &collector);
  warn(Warning(DeprecationWarning(), {"f", "a.cpp", 2}, "to stderr", true));
  ASSERT_EQ(collector.messages.size(), 1u);
  EXPECT_EQ(collector.messages[0], "first");
}

TEST(Warning, WarnAlwaysIsScoped) {
  EXPECT_FALSE(WarningUtils::get_warnAlways());
  {
    WarningUtils::WarnAlways always;
    EXPECT_TRUE(WarningUtils::get_warnAlways());
  }
  EXPECT_FALSE(WarningUtils::get_warnAlways());
}

TEST(Warning, DefaultHandlerFormat) {
  testing::internal::CaptureStderr();
  WarningHandler().process(Warning(UserWarning(), {"main", "f.cpp", 19}, "msg", false));
  WarningHandler().process(Warning(UserWarning(), {"main", "f.cpp", 20}, "plain", true));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "[W f.cpp:19] Warning: msg (function main)\n[W f.cpp:20] Warning: plain\n");
}

}  // namespace
}  // namespace ember
