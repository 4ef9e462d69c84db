// DataLoaderBase: what the stateless and the stateful loaders share: iteration, and the worker
// threads that prepare batches ahead of the loop.
//
// Note [How a loader with workers runs]: begin() resets the epoch and queues up to max_jobs batch
// requests; the workers turn requests into batches; each batch the loop takes queues one more
// request, so the workers stay max_jobs ahead of it. A worker's exception travels back as its
// result and is thrown in the loop, wrapped in a WorkerException. With workers(0) the loop's own
// thread asks the dataset for each batch as it needs it.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "ember/data/dataloader_options.h"
#include "ember/data/detail/data_shuttle.h"
#include "ember/data/detail/sequencers.h"
#include "ember/data/iterator.h"
#include "ember/data/worker_exception.h"
#include "ember/error.h"

namespace ember::data {

template <typename Dataset, typename Batch, typename BatchRequest>
class DataLoaderBase {
 public:
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;

  DataLoaderBase(DataLoaderOptions options, std::unique_ptr<Dataset> main_thread_dataset = nullptr)
      : options_(std::move(options)),
        main_thread_dataset_(std::move(main_thread_dataset)),
        sequencer_(new_sequencer()) {}
  DataLoaderBase(const DataLoaderBase&) = delete;
  DataLoaderBase& operator=(const DataLoaderBase&) = delete;
  virtual ~DataLoaderBase() { join(); }

  // A new epoch. Only one iterator may be in flight: begin() again before the last one reached
  // end() throws (with workers; without, it starts over).
  Iterator<Batch> begin() {
    if (unseen_requests_ != 0)
      throw Error(
          "Attempted to get a new DataLoader iterator while another iterator is not yet "
          "exhausted");
    reset();
    return Iterator<Batch>([this] { return next(); });
  }
  Iterator<Batch> end() { return Iterator<Batch>(); }

  // Stops the workers once the jobs in flight are done (the destructor does it too).
  void join() {
    if (joined_) return;
    shuttle_.drain();
    for (size_t w = 0; w < options_.workers; ++w) push_job(QuitWorker());
    for (std::thread& worker : workers_) worker.join();
    joined_ = true;
  }

  const FullDataLoaderOptions& options() const noexcept { return options_; }

 protected:
  struct QuitWorker {};
  struct Job {
    size_t sequence_number = 0;
    std::optional<QuitWorker> quit;
    std::optional<BatchRequest> batch_request;
  };
  struct Result {
    size_t sequence_number = 0;
    std::optional<Batch> batch;
    std::exception_ptr exception;
  };

  // The next batch request, or nullopt when the epoch has no more.
  virtual std::optional<BatchRequest> get_batch_request() = 0;

  virtual void reset() {
    shuttle_.drain();
    sequence_number_ = 0;
    unseen_requests_ = 0;
    sequencer_ = new_sequencer();
    prefetch(options_.max_jobs);
  }

  void prefetch(size_t requested_jobs) {
    for (size_t r = 0; r < requested_jobs; ++r) {
      std::optional<BatchRequest> request = get_batch_request();
      if (!request) break;
      push_job(std::move(*request));
    }
  }

  std::optional<Batch> next() {
    if (options_.workers == 0) {
      std::optional<BatchRequest> request = get_batch_request();
      if (!request) return std::nullopt;
      return main_thread_dataset_->get_batch(std::move(*request));
    }
    while (std::optional<Result> result = pop_result()) {
      --unseen_requests_;
      if (result->exception) throw WorkerException(result->exception);
      if (result->batch) {
        prefetch(1);
        return std::move(result->batch);
      }
    }
    return std::nullopt;
  }

  void worker_thread(Dataset& dataset) {
    while (true) {
      Job job = shuttle_.pop_job();
      if (job.quit) return;
      Result result{job.sequence_number, std::nullopt, nullptr};
      try {
        result.batch = dataset.get_batch(std::move(*job.batch_request));
      } catch (...) {
        result.exception = std::current_exception();
      }
      shuttle_.push_result(std::move(result));
    }
  }

  const FullDataLoaderOptions options_;
  // The dataset the loop's thread reads (without workers, or a stateful loader's shared one).
  std::unique_ptr<Dataset> main_thread_dataset_;
  std::vector<std::thread> workers_;

 private:
  void push_job(QuitWorker quit) { shuttle_.push_job({sequence_number_++, quit, std::nullopt}); }
  void push_job(BatchRequest request) {
    ++unseen_requests_;
    shuttle_.push_job({sequence_number_++, std::nullopt, std::move(request)});
  }

  std::optional<Result> pop_result() {
    return sequencer_->next([this] { return shuttle_.pop_result(options_.timeout); });
  }

  std::unique_ptr<detail::sequencers::Sequencer<Result>> new_sequencer() {
    if (options_.enforce_ordering)
      return std::make_unique<detail::sequencers::OrderedSequencer<Result>>(options_.max_jobs);
    return std::make_unique<detail::sequencers::NoSequencer<Result>>();
  }

  size_t sequence_number_ = 0;
  // Batch requests whose results the loop has not received yet. Not the shuttle's in-flight
  // count: the ordered sequencer may already hold results the loop has not seen.
  size_t unseen_requests_ = 0;
  detail::DataShuttle<Job, Result> shuttle_;
  std::unique_ptr<detail::sequencers::Sequencer<Result>> sequencer_;
  bool joined_ = false;
};

}  // namespace ember::data
