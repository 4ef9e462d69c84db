// Builds without CUDA or the toolkit's nccl.h: ProcessGroupNCCL cannot connect.
#include "core/check.h"
#include "distributed/nccl_context.h"

namespace ember::distributed::detail {

std::unique_ptr<NcclContext> connect_nccl(Store&, const std::string&, int, int, Device) {
  ember::detail::fail<NotCompiledError>(
      "[ProcessGroupNCCL] this ember was built without NCCL: it needs the CUDA toolkit with "
      "nccl.h when ember is built (-DEMBER_CUDA=ON); or use the gloo backend");
}

bool nccl_loadable() noexcept { return false; }

}  // namespace ember::distributed::detail
