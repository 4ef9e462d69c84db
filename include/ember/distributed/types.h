// The reduction operators and the options of each collective (LibTorch's c10d/Types.hpp): what a
// ProcessGroup's calls take besides their tensors.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "ember/macros.h"

namespace ember::distributed {

// How all_reduce, reduce and reduce_scatter combine the ranks' values. AVG needs a floating
// dtype; BAND, BOR and BXOR need integers or bools.
struct EMBER_API ReduceOp {
  enum RedOpType : uint8_t {
    SUM = 0,
    AVG = 1,
    PRODUCT = 2,
    MIN = 3,
    MAX = 4,
    BAND = 5,
    BOR = 6,
    BXOR = 7,
    PREMUL_SUM = 8,
    UNUSED = 9
  };

  ReduceOp() = default;
  ReduceOp(RedOpType op) : op_(op) {}  // NOLINT: implicit, as ReduceOp::SUM is passed for one
  operator RedOpType() const { return op_; }
  bool operator==(const ReduceOp& other) const { return op_ == other.op_; }
  bool operator==(RedOpType other) const { return op_ == other; }

  RedOpType op_ = SUM;
};

// The option structs' timeout when the caller sets none: the process group's own is used.
inline constexpr std::chrono::milliseconds kUnsetTimeout{-1};
// Work::wait's "no limit".
inline constexpr std::chrono::milliseconds kNoTimeout{0};

struct BroadcastOptions {
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllreduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllreduceCoalescedOptions : AllreduceOptions {};

struct ReduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllgatherOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct GatherOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct ScatterOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct ReduceScatterOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct AllToAllOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

struct BarrierOptions {
  std::vector<int64_t> device_ids;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

}  // namespace ember::distributed
