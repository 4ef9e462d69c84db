// DataLoaderOptions: how a loader batches, as LibTorch's builder:
// DataLoaderOptions(64).workers(2).drop_last(true). FullDataLoaderOptions is the same with the
// defaults that depend on other settings filled in (max_jobs = 2 * workers).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>

#include "ember/arg.h"

namespace ember::data {

struct DataLoaderOptions {
  DataLoaderOptions() = default;
  DataLoaderOptions(size_t batch_size)
      : batch_size_(batch_size) {}  // NOLINT: implicit, as LibTorch

  EMBER_ARG(size_t, batch_size) = 1;
  // Threads preparing batches ahead of the loop; 0: the loop's own thread prepares each.
  EMBER_ARG(size_t, workers) = 0;
  // The most batch requests queued for the workers (default 2 * workers).
  EMBER_ARG(std::optional<size_t>, max_jobs);
  // How long to wait for a worker's batch before throwing.
  EMBER_ARG(std::optional<std::chrono::milliseconds>, timeout);
  // Batches from several workers come in the sampler's order (else as they are ready).
  EMBER_ARG(bool, enforce_ordering) = true;
  // Whether to leave out a last batch smaller than batch_size.
  EMBER_ARG(bool, drop_last) = false;
};

struct FullDataLoaderOptions {
  explicit FullDataLoaderOptions(DataLoaderOptions options)
      : batch_size(options.batch_size()),
        workers(options.workers()),
        max_jobs(options.max_jobs().value_or(2 * workers)),
        timeout(options.timeout()),
        enforce_ordering(options.enforce_ordering()),
        drop_last(options.drop_last()) {}

  size_t batch_size;
  size_t workers;
  size_t max_jobs;
  std::optional<std::chrono::milliseconds> timeout;
  bool enforce_ordering;
  bool drop_last;
};

}  // namespace ember::data
