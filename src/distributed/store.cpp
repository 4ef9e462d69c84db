#include "ember/distributed/store.h"

namespace ember::distributed {

Store::~Store() = default;

const std::chrono::milliseconds& Store::getTimeout() const noexcept { return timeout_; }

void Store::setTimeout(const std::chrono::milliseconds& timeout) { timeout_ = timeout; }

}  // namespace ember::distributed
