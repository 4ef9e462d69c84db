#include "ember/distributed/work.h"

#include "core/check.h"

namespace ember::distributed {

std::string opTypeToString(OpType opType) {
  switch (opType) {
    case OpType::BROADCAST: return "BROADCAST";
    case OpType::ALLREDUCE: return "ALLREDUCE";
    case OpType::ALLREDUCE_COALESCED: return "ALLREDUCE_COALESCED";
    case OpType::REDUCE: return "REDUCE";
    case OpType::ALLGATHER: return "ALLGATHER";
    case OpType::_ALLGATHER_BASE: return "_ALLGATHER_BASE";
    case OpType::ALLGATHER_COALESCED: return "ALLGATHER_COALESCED";
    case OpType::GATHER: return "GATHER";
    case OpType::SCATTER: return "SCATTER";
    case OpType::REDUCE_SCATTER: return "REDUCE_SCATTER";
    case OpType::ALLTOALL_BASE: return "ALLTOALL_BASE";
    case OpType::ALLTOALL: return "ALLTOALL";
    case OpType::SEND: return "SEND";
    case OpType::RECV: return "RECV";
    case OpType::RECVANYSOURCE: return "RECVANYSOURCE";
    case OpType::BARRIER: return "BARRIER";
    case OpType::_REDUCE_SCATTER_BASE: return "_REDUCE_SCATTER_BASE";
    case OpType::UNKNOWN: return "UNKNOWN";
  }
  return "UNKNOWN";
}

Work::Work(int rank, OpType opType, const char* /*profilingTitle*/,
           const std::optional<std::vector<Tensor>>& /*inputTensors*/)
    : rank_(rank), opType_(opType) {}

Work::~Work() = default;

bool Work::isCompleted() {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_;
}

bool Work::isSuccess() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_ && !exception_;
}

std::exception_ptr Work::exception() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return exception_;
}

int Work::sourceRank() const {
  EMBER_CHECK(false, "[Work.sourceRank] only a recv from any source has a source rank; this is a ",
              opTypeToString(opType_), " work");
}

std::vector<Tensor> Work::result() {
  wait();
  std::lock_guard<std::mutex> lock(mutex_);
  return outputs_;
}

void Work::synchronize() { wait(); }

bool Work::wait(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (timeout == kNoTimeout) {
    cv_.wait(lock, [this] { return completed_; });
  } else if (!cv_.wait_for(lock, timeout, [this] { return completed_; })) {
    EMBER_CHECK(false, "[Work.wait] ", opTypeToString(opType_), " on rank ", rank_,
                " has not completed after ", timeout.count(),
                " ms; wait longer, or check that every rank of its group issued it");
  }
  if (exception_) std::rethrow_exception(exception_);
  return true;
}

void Work::abort() {
  EMBER_CHECK_T(NotImplementedError, false, "[Work.abort] ", opTypeToString(opType_),
                " cannot be aborted; wait for it (its group's timeout bounds it)");
}

OpType Work::retrieveOpType() { return opType_; }

void Work::finish(std::exception_ptr exception) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    completed_ = true;
    exception_ = std::move(exception);
  }
  cv_.notify_all();
}

void Work::finishAndThrow(std::exception_ptr exception) {
  finish(exception);
  if (exception) std::rethrow_exception(exception);
}

}  // namespace ember::distributed
