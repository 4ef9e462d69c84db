// detail::DataShuttle: the jobs a loader hands its workers and the results they hand back. A job
// is in flight from push_job until its result is popped; with none in flight the epoch is over.
// Only the loader's thread counts, so the count needs no lock.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <utility>

#include "ember/data/detail/queue.h"

namespace ember::data::detail {

template <typename Job, typename Result>
class DataShuttle {
 public:
  void push_job(Job job) {
    new_jobs_.push(std::move(job));
    ++in_flight_jobs_;
  }
  // Called by the workers.
  void push_result(Result result) { results_.push(std::move(result)); }
  Job pop_job() { return new_jobs_.pop(); }

  // The next finished result, or nullopt when no job is in flight.
  std::optional<Result> pop_result(
      std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    if (in_flight_jobs_ == 0) return std::nullopt;
    Result result = results_.pop(timeout);
    --in_flight_jobs_;
    return result;
  }

  // Drops the jobs no worker took yet and waits for (and drops) the results of the others.
  void drain() {
    in_flight_jobs_ -= new_jobs_.clear();
    while (in_flight_jobs_ > 0) pop_result();
  }

 private:
  Queue<Job> new_jobs_;
  size_t in_flight_jobs_ = 0;
  Queue<Result> results_;
};

}  // namespace ember::data::detail
