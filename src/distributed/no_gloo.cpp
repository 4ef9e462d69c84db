// Builds without Gloo (libgloo-dev not found): process groups cannot connect.
#include "core/check.h"
#include "distributed/gloo_context.h"
#include "ember/distributed/collectives.h"

namespace ember::distributed {

bool is_gloo_available() { return false; }

namespace detail {

std::unique_ptr<GlooContext> connect_gloo(Store&, int, int, const std::string&,
                                          std::chrono::milliseconds) {
  ember::detail::fail<NotCompiledError>(
      "[ProcessGroupGloo] this ember was built without Gloo; install libgloo-dev "
      "(bash scripts/setup.sh --test installs it) and build ember again");
}

}  // namespace detail
}  // namespace ember::distributed
