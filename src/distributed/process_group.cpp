#include "ember/distributed/process_group.h"

#include "core/check.h"

namespace ember::distributed {

ProcessGroup::ProcessGroup(int rank, int size) : rank_(rank), size_(size) {
  EMBER_CHECK_T(ValueError, size > 0 && rank >= 0 && rank < size, "[ProcessGroup] rank ", rank,
                " is not in a group of size ", size, "; the rank must be in [0, size)");
}

ProcessGroup::~ProcessGroup() = default;

namespace {
[[noreturn]] void unsupported(const ProcessGroup& group, const char* op) {
  ember::detail::fail<NotImplementedError>("[ProcessGroup.", op, "] the ", group.getBackendName(),
                                           " backend does not support ", op);
}
}  // namespace

intrusive_ptr<Work> ProcessGroup::broadcast(std::vector<Tensor>&, const BroadcastOptions&) {
  unsupported(*this, "broadcast");
}
intrusive_ptr<Work> ProcessGroup::allreduce(std::vector<Tensor>&, const AllreduceOptions&) {
  unsupported(*this, "allreduce");
}
intrusive_ptr<Work> ProcessGroup::allreduce_coalesced(std::vector<Tensor>&,
                                                      const AllreduceCoalescedOptions&) {
  unsupported(*this, "allreduce_coalesced");
}
intrusive_ptr<Work> ProcessGroup::reduce(std::vector<Tensor>&, const ReduceOptions&) {
  unsupported(*this, "reduce");
}
intrusive_ptr<Work> ProcessGroup::allgather(std::vector<std::vector<Tensor>>&, std::vector<Tensor>&,
                                            const AllgatherOptions&) {
  unsupported(*this, "allgather");
}
intrusive_ptr<Work> ProcessGroup::_allgather_base(Tensor&, Tensor&, const AllgatherOptions&) {
  unsupported(*this, "_allgather_base");
}
intrusive_ptr<Work> ProcessGroup::gather(std::vector<std::vector<Tensor>>&, std::vector<Tensor>&,
                                         const GatherOptions&) {
  unsupported(*this, "gather");
}
intrusive_ptr<Work> ProcessGroup::scatter(std::vector<Tensor>&, std::vector<std::vector<Tensor>>&,
                                          const ScatterOptions&) {
  unsupported(*this, "scatter");
}
intrusive_ptr<Work> ProcessGroup::reduce_scatter(std::vector<Tensor>&,
                                                 std::vector<std::vector<Tensor>>&,
                                                 const ReduceScatterOptions&) {
  unsupported(*this, "reduce_scatter");
}
intrusive_ptr<Work> ProcessGroup::_reduce_scatter_base(Tensor&, Tensor&,
                                                       const ReduceScatterOptions&) {
  unsupported(*this, "_reduce_scatter_base");
}
intrusive_ptr<Work> ProcessGroup::alltoall_base(Tensor&, Tensor&, std::vector<int64_t>&,
                                                std::vector<int64_t>&, const AllToAllOptions&) {
  unsupported(*this, "alltoall_base");
}
intrusive_ptr<Work> ProcessGroup::alltoall(std::vector<Tensor>&, std::vector<Tensor>&,
                                           const AllToAllOptions&) {
  unsupported(*this, "alltoall");
}
intrusive_ptr<Work> ProcessGroup::send(std::vector<Tensor>&, int, int) {
  unsupported(*this, "send");
}
intrusive_ptr<Work> ProcessGroup::recv(std::vector<Tensor>&, int, int) {
  unsupported(*this, "recv");
}
intrusive_ptr<Work> ProcessGroup::recvAnysource(std::vector<Tensor>&, int) {
  unsupported(*this, "recvAnysource");
}
intrusive_ptr<Work> ProcessGroup::barrier(const BarrierOptions&) { unsupported(*this, "barrier"); }

}  // namespace ember::distributed
