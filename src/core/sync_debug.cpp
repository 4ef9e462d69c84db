// cuda::set_sync_debug_mode and the reports of implicit host waits (see sync_debug.h). The mode
// is a plain process-wide setting, so it works, and is tested, in builds and on machines without
// a GPU, where nothing ever waits for one.
#include "core/sync_debug.h"

#include <array>
#include <atomic>
#include <mutex>
#include <set>
#include <string_view>

#include "core/check.h"
#include "ember/cuda.h"
#include "ember/warning.h"

namespace ember {
namespace {

// PyTorch's SyncDebugMode values and names, in order.
constexpr std::array<std::string_view, 3> kModeNames = {"default", "warn", "error"};
constexpr int kWarn = 1, kError = 2;

std::atomic<int> g_mode{0};

// Warns once per distinct report (every time under WarningUtils::WarnAlways), as a Python
// warning is shown once per call site; through the thread's warning handler.
void warn_once(const char* op, const std::string& message) {
  static std::mutex mutex;
  static auto* reported = new std::set<std::string>();  // leaked: syncs may happen at exit
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!reported->insert(message).second && !WarningUtils::get_warnAlways()) return;
  }
  warn(Warning(UserWarning(), {op, __FILE__, __LINE__}, message, /*verbatim=*/true));
}

}  // namespace

void cuda::set_sync_debug_mode(int mode) {
  EMBER_CHECK_T(ValueError, mode >= 0 && mode < static_cast<int>(kModeNames.size()),
                "[set_sync_debug_mode] invalid value of debug_mode, expected one of 0,1,2, got ",
                mode);
  g_mode.store(mode, std::memory_order_relaxed);
}

void cuda::set_sync_debug_mode(std::string_view mode) {
  for (size_t i = 0; i < kModeNames.size(); ++i) {
    if (mode == kModeNames[i]) return set_sync_debug_mode(static_cast<int>(i));
  }
  detail::fail<ValueError>(
      "[set_sync_debug_mode] invalid value of debug_mode, expected one of `default`, `warn`, "
      "`error`, got '",
      mode, "'");
}

int cuda::get_sync_debug_mode() noexcept { return g_mode.load(std::memory_order_relaxed); }

void detail::note_host_sync(const char* op, const std::string& what) {
  const int mode = cuda::get_sync_debug_mode();
  if (mode >= kWarn) {
    const std::string message =
        ember::str("[", op, "] called a synchronizing CUDA operation: ", what);
    if (mode == kError)
      fail<Error>(message, " (an error because cuda::set_sync_debug_mode(\"error\") is on)");
    warn_once(op, message);
  }
  count_host_sync();
}

}  // namespace ember
