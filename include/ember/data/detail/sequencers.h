// detail::sequencers: the order in which a loader with workers returns their results. The
// NoSequencer returns each as it comes; the OrderedSequencer holds early ones back until those
// before them (by sequence number) arrived.
//
// Note [The ordered sequencer's ring]: at most max_jobs jobs are in flight, and none is queued
// while the sequencer waits for number s, so the results it holds have numbers s + 1 ... s +
// max_jobs - 1: a ring of max_jobs slots indexed by number % max_jobs never holds two at once.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace ember::data::detail::sequencers {

template <typename Result>
struct Sequencer {
  using ResultProducer = std::function<std::optional<Result>()>;
  virtual ~Sequencer() = default;
  // The next result to return, or nullopt when the epoch is over.
  virtual std::optional<Result> next(ResultProducer next_result) = 0;
};

template <typename Result>
struct NoSequencer final : public Sequencer<Result> {
  using typename Sequencer<Result>::ResultProducer;
  std::optional<Result> next(ResultProducer next_result) override { return next_result(); }
};

template <typename Result>
struct OrderedSequencer : public Sequencer<Result> {
  using typename Sequencer<Result>::ResultProducer;

  explicit OrderedSequencer(size_t max_jobs) : buffer_(max_jobs) {}

  std::optional<Result> next(ResultProducer next_result) override {
    if (std::optional<Result>& held = slot(next_sequence_number_)) {
      std::optional<Result> result = std::move(held);
      held.reset();
      ++next_sequence_number_;
      return result;
    }
    while (std::optional<Result> result = next_result()) {
      if (result->sequence_number == next_sequence_number_) {
        ++next_sequence_number_;
        return result;
      }
      slot(result->sequence_number) = std::move(result);
    }
    return std::nullopt;
  }

 private:
  std::optional<Result>& slot(size_t sequence_number) {
    return buffer_.at(sequence_number % buffer_.size());
  }

  size_t next_sequence_number_ = 0;
  std::vector<std::optional<Result>> buffer_;
};

}  // namespace ember::data::detail::sequencers
