// ProcessGroupGloo's front half: argument checks, staging into flat contiguous CPU tensors (CUDA
// tensors through host copies), the order of the work, and errors that name the collective. Gloo
// itself is behind GlooContext.
#include "ember/distributed/process_group_gloo.h"

#include <signal.h>

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "core/check.h"
#include "distributed/collective_args.h"
#include "distributed/gloo_context.h"
#include "ember/autograd.h"
#include "ember/factory.h"
#include "ember/stream.h"

namespace ember::distributed {
namespace detail {

// A work that the group's thread completes (named outside an anonymous namespace: State holds
// it, and State is ProcessGroupGloo's).
class GlooWork : public Work {
 public:
  GlooWork(int rank, OpType type, std::vector<Tensor> outputs) : Work(rank, type) {
    outputs_ = std::move(outputs);
  }
  void complete(std::exception_ptr error) { finish(std::move(error)); }
};

}  // namespace detail
namespace {

using detail::check_peer;
using detail::check_rank;
using detail::concatenate;
using detail::describe;
using detail::GlooWork;
using detail::host_options;
using detail::joined;
using detail::one_list_like;
using detail::split_into;
using detail::Staged;

constexpr const char* kGloo = "ProcessGroupGloo";  // the group, as messages name it

// Note [CUDA tensors on Gloo]
// Gloo's TCP transport reads and writes host memory, so broadcast, allreduce, reduce and
// allgather take CUDA tensors through page-locked host copies, as PyTorch's Gloo group does. The
// group keeps a communication stream per GPU. When a collective is issued, that stream waits for
// the work queued so far on the caller's current stream (which makes the tensors), and the
// tensors are recorded as used by it. The group's thread then copies them to the host on it, runs
// Gloo, copies the results back on it and waits for that before the Work completes; so once
// wait() returns, the results are in device memory for any stream.

}  // namespace

// Note [Progress through the store]
// Each rank records in the group's store the last collective it entered ("progress/<rank>": its
// tag, then its description). When a collective fails or times out, the rank that saw it reads
// the others' records and names each rank that has not entered it, with the last one it did:
// the difference between "rank 1 is slow" and "rank 1 called broadcast where we call
// all_reduce". With EMBER_DISTRIBUTED_DEBUG=DETAIL every rank also compares the description of
// each collective with every other rank's before Gloo sees it, since Gloo, given buffers of
// different sizes, aborts the process from its I/O thread.
// The records are written by a thread of their own, the latest one only, while the collective
// runs: a collective waited for its round trip to the store before it started, which at 1 MiB
// was most of ember's time over raw Gloo's. A collective still completes only once its record is
// written, so that a rank that dies right after one has recorded it.
struct ProcessGroupGloo::State {
  struct Job {
    std::shared_ptr<detail::GlooWork> work;
    std::function<void(uint32_t)> run;
    uint32_t tag = 0;
    std::string what;  // "allreduce #3 Float[4]", for progress and errors
    std::chrono::milliseconds timeout{};
    std::optional<Stream> stream;  // for CUDA tensors: the communication stream of their GPU
  };

  intrusive_ptr<Store> store;
  std::unique_ptr<detail::GlooContext> gloo;
  int rank = 0, size = 0;
  bool fingerprint = false;
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<Job> queue;
  bool stopping = false;
  uint32_t next_tag = 0;
  std::thread thread;
  std::map<int, Stream> comm_streams;  // per GPU index, made on first use (under mutex)

  std::mutex progress_mutex;
  std::condition_variable progress_posted;
  std::condition_variable progress_written;
  std::optional<std::string> progress;  // the latest record posted, not yet written
  uint64_t posted = 0, written = 0;     // records posted and written so far
  bool progress_stopping = false;
  std::thread progress_thread;

  static std::string progress_key(int r) { return str("progress/", r); }
  static std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

  // The group's thread: one collective at a time, in the order they were issued, as every rank
  // must run them.
  void serve() {
    autograd::NoGradGuard no_grad;  // collectives write tensors in place, outside any graph
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex);
        ready.wait(lock, [this] { return stopping || !queue.empty(); });
        if (queue.empty()) return;
        job = std::move(queue.front());
        queue.pop_front();
      }
      std::exception_ptr error;
      try {
        const uint64_t record = post_progress(str(job.tag, " ", job.what));
        if (fingerprint) compare_with_other_ranks(job);
        std::optional<StreamGuard> on_stream;  // Note [CUDA tensors on Gloo]
        if (job.stream) on_stream.emplace(*job.stream);
        job.run(job.tag);
        if (job.stream) job.stream->synchronize();
        wait_for_progress(record);
      } catch (const Error& e) {
        error = std::make_exception_ptr(e);
      } catch (const std::exception& e) {
        error = std::make_exception_ptr(Error(failure(job, e.what())));
      }
      job.work->complete(error);
    }
  }

  // Returns the record's number, for wait_for_progress.
  uint64_t post_progress(std::string record) {
    uint64_t number = 0;
    {
      std::lock_guard<std::mutex> lock(progress_mutex);
      progress = std::move(record);
      number = ++posted;
    }
    progress_posted.notify_one();
    return number;
  }

  void wait_for_progress(uint64_t number) {
    std::unique_lock<std::mutex> lock(progress_mutex);
    progress_written.wait(lock, [&] { return written >= number; });
  }

  // The progress thread: writes the latest record posted, until the group stops.
  void write_progress() {
    for (;;) {
      std::string record;
      uint64_t number = 0;
      {
        std::unique_lock<std::mutex> lock(progress_mutex);
        progress_posted.wait(lock, [this] { return progress_stopping || progress; });
        if (!progress) return;
        record = std::move(*progress);
        progress.reset();
        number = posted;
      }
      try {
        store->set(progress_key(rank), bytes(record));
      } catch (const std::exception&) {
        // The store may be gone with the rank that served it: the collectives will say so.
      }
      {
        std::lock_guard<std::mutex> lock(progress_mutex);
        written = number;
      }
      progress_written.notify_all();
    }
  }

  void stop_progress() {
    {
      std::lock_guard<std::mutex> lock(progress_mutex);
      progress_stopping = true;
    }
    progress_posted.notify_all();
    if (progress_thread.joinable()) progress_thread.join();
  }

  std::string failure(const Job& job, const std::string& cause) const {
    const bool timed_out = cause.find("imed out") != std::string::npos;
    // A failure at once (a peer's connection reset) may come before the other ranks' records of
    // this collective, written while it runs, have landed: give them a moment.
    if (!timed_out) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return str(
        "[ProcessGroupGloo] ", job.what, " on rank ", rank, " of a group of ", size,
        timed_out ? str(" timed out after ", job.timeout.count(), " ms") : str(" failed: ", cause),
        absent_ranks(job.tag),
        "\nEvery rank of the group must issue the same collectives, with the same "
        "dtypes and sizes, in the same order; a rank that has not entered this one, or "
        "has failed, times it out.");
  }

  // "; rank 1 has not entered it (its last: broadcast #16)", from the ranks' progress records.
  std::string absent_ranks(uint32_t tag) const {
    std::string absent;
    try {
      for (int r = 0; r < size; ++r) {
        if (r == rank) continue;
        const std::string key = progress_key(r);
        if (!store->check({key})) {
          absent += str("; rank ", r, " has not entered any collective of this group");
          continue;
        }
        const std::vector<uint8_t> value = store->get(key);
        const std::string record(value.begin(), value.end());
        const size_t space = record.find(' ');
        if (std::stoul(record.substr(0, space)) < tag) {
          absent +=
              str("; rank ", r, " has not entered it (its last: ", record.substr(space + 1), ")");
        }
      }
    } catch (const std::exception&) {
      // The store itself may be gone with the rank that served it; the failure still stands.
    }
    return absent;
  }

  // Under EMBER_DISTRIBUTED_DEBUG=DETAIL: the same collective on every rank, or an error on
  // every rank naming what each called.
  void compare_with_other_ranks(const Job& job) {
    const auto key = [&](int r) { return str("fingerprint/", job.tag, "/", r); };
    store->set(key(rank), bytes(job.what));
    std::vector<std::string> keys;
    for (int r = 0; r < size; ++r) keys.push_back(key(r));
    store->wait(keys, job.timeout);
    std::string calls;
    bool same = true;
    for (int r = 0; r < size; ++r) {
      const std::vector<uint8_t> value = store->get(key(r));
      const std::string what(value.begin(), value.end());
      same = same && what == job.what;
      calls += str(r == 0 ? "" : ", ", "rank ", r, " called ", what);
    }
    // Every rank has read the records of two collectives ago, since it entered the last one.
    if (job.tag >= 2) store->deleteKey(str("fingerprint/", job.tag - 2, "/", rank));
    EMBER_CHECK(same, "[ProcessGroupGloo] collective #", job.tag, " differs between the ranks of ",
                "the group: ", calls,
                "; every rank must issue the same collectives, with the same dtypes and sizes, "
                "in the same order");
  }
};

namespace {

// Note [SIGPIPE and dead peers]
// Gloo writes to its peers' sockets with write(2), which raises SIGPIPE when the peer has died;
// its default action ends the process, so a killed rank would take the survivors with it before
// they could name it. A program that leaves SIGPIPE at its default gets it ignored here (as
// Python does for every program): the write then fails with EPIPE and Gloo throws, which the
// collective reports. A handler or disposition the program chose is left alone.
void ignore_sigpipe_by_default() {
  struct sigaction current {};
  if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL &&
      (current.sa_flags & SA_SIGINFO) == 0) {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, nullptr);
  }
}

}  // namespace

ProcessGroupGloo::Options::Options(std::chrono::milliseconds timeout)
    : ProcessGroup::Options("gloo", timeout) {}

ProcessGroupGloo::ProcessGroupGloo(const intrusive_ptr<Store>& store, int rank, int size,
                                   intrusive_ptr<Options> options)
    : ProcessGroup(rank, size), options_(std::move(options)), state_(std::make_unique<State>()) {
  EMBER_CHECK_T(ValueError, store != nullptr, "[ProcessGroupGloo] the store is null");
  state_->store = store;
  state_->rank = rank;
  state_->size = size;
  const char* debug = std::getenv("EMBER_DISTRIBUTED_DEBUG");
  state_->fingerprint = debug != nullptr && std::string(debug) == "DETAIL";
  ignore_sigpipe_by_default();
  try {
    state_->gloo = detail::connect_gloo(*store, rank, size, options_->hostname, options_->timeout);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    ember::detail::fail<Error>(
        "[ProcessGroupGloo] rank ", rank, " of ", size,
        " could not connect to the other ranks: ", e.what(),
        "\nCheck that every rank started with the same world size and store, "
        "and that they can reach each other (GLOO_SOCKET_IFNAME names the "
        "network interface to use).");
  }
  state_->progress_thread = std::thread([state = state_.get()] { state->write_progress(); });
  try {
    state_->thread = std::thread([state = state_.get()] { state->serve(); });
  } catch (...) {
    state_->stop_progress();
    throw;
  }
}

ProcessGroupGloo::~ProcessGroupGloo() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
  }
  state_->ready.notify_all();
  if (state_->thread.joinable()) state_->thread.join();
  state_->stop_progress();
}

namespace {

// Whether a collective takes CUDA tensors (Note [CUDA tensors on Gloo]).
enum class Cuda : bool { kRefused, kStaged };

// The checks every collective makes of the tensors it is given.
void check_tensors(const char* op, const std::vector<Tensor>& tensors, bool same_sizes = true,
                   Cuda cuda = Cuda::kRefused) {
  EMBER_CHECK_T(ValueError, !tensors.empty(), "[ProcessGroupGloo.", op,
                "] needs at least one tensor; the list is empty");
  const Tensor& first = tensors.front();
  for (const Tensor& t : tensors) {
    EMBER_CHECK_T(ValueError, t.defined(), "[ProcessGroupGloo.", op, "] a tensor is undefined");
    EMBER_CHECK_T(NotImplementedError, t.is_cpu() || (cuda == Cuda::kStaged && t.is_cuda()),
                  "[ProcessGroupGloo.", op, "] got a tensor on ", t.device(),
                  "; ember's Gloo backend takes CPU tensors here (CUDA tensors in broadcast, "
                  "allreduce, reduce and allgather): move it with .cpu() and back");
    EMBER_CHECK_T(ValueError, t.device() == first.device(), "[ProcessGroupGloo.", op,
                  "] the tensors are on ", first.device(), " and ", t.device(),
                  "; pass tensors of one device");
    EMBER_CHECK_T(TypeError, t.scalar_type() == first.scalar_type(), "[ProcessGroupGloo.", op,
                  "] the tensors differ in dtype (", describe(first), " and ", describe(t),
                  "); pass tensors of one dtype");
    EMBER_CHECK_T(ValueError, !same_sizes || t.sizes() == first.sizes(), "[ProcessGroupGloo.", op,
                  "] the tensors differ in shape (", describe(first), " and ", describe(t),
                  "); pass tensors of one shape");
  }
}

void check_single(const char* op, const std::vector<Tensor>& tensors, Cuda cuda = Cuda::kRefused) {
  check_tensors(op, tensors, /*same_sizes=*/true, cuda);
  EMBER_CHECK_T(ValueError, tensors.size() == 1, "[ProcessGroupGloo.", op,
                "] takes one tensor, got ", tensors.size());
}

void check_reduce_op(const char* op, ReduceOp reduce_op, ScalarType dtype) {
  const bool bitwise =
      reduce_op == ReduceOp::BAND || reduce_op == ReduceOp::BOR || reduce_op == ReduceOp::BXOR;
  EMBER_CHECK_T(TypeError, !bitwise || !isFloatingType(dtype), "[ProcessGroupGloo.", op,
                "] a bitwise reduction needs integer or bool tensors, got ", dtype);
  EMBER_CHECK_T(TypeError, reduce_op != ReduceOp::AVG || isFloatingType(dtype),
                "[ProcessGroupGloo.", op, "] ReduceOp::AVG needs floating tensors, got ", dtype,
                "; use SUM and divide");
  EMBER_CHECK_T(NotImplementedError,
                reduce_op != ReduceOp::PREMUL_SUM && reduce_op != ReduceOp::UNUSED,
                "[ProcessGroupGloo.", op, "] the Gloo backend does not support this ReduceOp");
}

// The root's one list of `kind` tensors (one per rank, each like `like`) for gather and scatter;
// the other ranks pass none and get an empty list.
std::vector<Tensor> root_list(const char* op, const char* kind,
                              const std::vector<std::vector<Tensor>>& lists, const Tensor& like,
                              int root, int rank, int size) {
  if (rank != root) {
    EMBER_CHECK_T(ValueError, lists.empty(), "[ProcessGroupGloo.", op, "] only the root (", root,
                  ") takes ", kind, " tensors; rank ", rank, " got ", lists.size(), " lists");
    return {};
  }
  return one_list_like(kGloo, op, kind, lists, like, size);
}

// Queues `run` on the group's thread with the collective's tag (its sequence number in the
// group); the work returned completes when `run` has. `touched`: every tensor it reads or writes
// (CUDA ones put it on their GPU's communication stream).
intrusive_ptr<Work> enqueue(ProcessGroupGloo::State& state, int rank, OpType type,
                            const std::vector<Tensor>& outputs, const char* op,
                            const std::string& operands, std::chrono::milliseconds timeout,
                            std::function<void(uint32_t)> run,
                            const std::vector<Tensor>& touched = {}) {
  auto work = std::make_shared<GlooWork>(rank, type, outputs);
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    std::optional<Stream> stream;  // Note [CUDA tensors on Gloo]
    for (const Tensor& t : touched) {
      if (!t.is_cuda()) continue;
      if (!stream) {
        auto found = state.comm_streams.find(t.get_device());
        if (found == state.comm_streams.end())
          found =
              state.comm_streams.emplace(t.get_device(), get_stream_from_pool(t.device())).first;
        stream = found->second;
        stream->wait_stream(current_stream(t.device()));
      }
      t.record_stream(*stream);
    }
    const uint32_t tag = state.next_tag++;
    state.queue.push_back({work, std::move(run), tag,
                           str(op, " #", tag, operands.empty() ? "" : " ", operands), timeout,
                           stream});
  }
  state.ready.notify_one();
  return work;
}

std::chrono::milliseconds effective(std::chrono::milliseconds timeout,
                                    std::chrono::milliseconds group_timeout) {
  return timeout == kUnsetTimeout ? group_timeout : timeout;
}

}  // namespace

intrusive_ptr<Work> ProcessGroupGloo::broadcast(std::vector<Tensor>& tensors,
                                                const BroadcastOptions& opts) {
  check_tensors("broadcast", tensors, /*same_sizes=*/true, Cuda::kStaged);
  check_rank(kGloo, "broadcast", "root rank", opts.rootRank, size_);
  EMBER_CHECK_T(ValueError, opts.rootTensor >= 0 && opts.rootTensor < std::ssize(tensors),
                "[ProcessGroupGloo.broadcast] rootTensor ", opts.rootTensor,
                " is not an index of the ", tensors.size(), " tensors");
  const auto root = static_cast<int>(opts.rootRank);
  const auto timeout = effective(opts.timeout, options_->timeout);
  const Tensor source = tensors[static_cast<size_t>(opts.rootTensor)];
  return enqueue(
      *state_, rank_, OpType::BROADCAST, tensors, "broadcast", describe(source), timeout,
      [this, tensors, source, root, timeout](uint32_t tag) {
        Staged staged(source, Staged::kOnHost);
        state_->gloo->broadcast(staged.flat, root, tag, timeout);
        staged.write_back();
        for (const Tensor& t : tensors) {
          if (!t.is_same(source)) t.copy_(source);
        }
      },
      tensors);
}

intrusive_ptr<Work> ProcessGroupGloo::allreduce(std::vector<Tensor>& tensors,
                                                const AllreduceOptions& opts) {
  check_tensors("allreduce", tensors, /*same_sizes=*/true, Cuda::kStaged);
  check_reduce_op("allreduce", opts.reduceOp, tensors.front().scalar_type());
  const auto timeout = effective(opts.timeout, options_->timeout);
  const ReduceOp op = opts.reduceOp;
  return enqueue(
      *state_, rank_, OpType::ALLREDUCE, tensors, "allreduce", describe(tensors.front()), timeout,
      [this, tensors, op, timeout](uint32_t tag) {
        std::vector<Staged> staged;
        std::vector<Tensor> flats;
        for (const Tensor& t : tensors)
          flats.push_back(staged.emplace_back(t, Staged::kOnHost).flat);
        state_->gloo->allreduce(flats, op, tag, timeout);
        for (const Staged& s : staged) {
          if (op == ReduceOp::AVG) s.flat.div_(size_);
          s.write_back();
        }
      },
      tensors);
}

intrusive_ptr<Work> ProcessGroupGloo::allreduce_coalesced(std::vector<Tensor>& tensors,
                                                          const AllreduceCoalescedOptions& opts) {
  check_tensors("allreduce_coalesced", tensors, /*same_sizes=*/false);
  check_reduce_op("allreduce_coalesced", opts.reduceOp, tensors.front().scalar_type());
  const auto timeout = effective(opts.timeout, options_->timeout);
  const ReduceOp op = opts.reduceOp;
  return enqueue(*state_, rank_, OpType::ALLREDUCE_COALESCED, tensors, "allreduce_coalesced",
                 str("of ", tensors.size(), " ", tensors.front().scalar_type(), " tensors"),
                 timeout, [this, tensors, op, timeout](uint32_t tag) {
                   Tensor flat = concatenate(tensors);
                   state_->gloo->allreduce({flat}, op, tag, timeout);
                   if (op == ReduceOp::AVG) flat.div_(size_);
                   split_into(flat, tensors);
                 });
}

intrusive_ptr<Work> ProcessGroupGloo::reduce(std::vector<Tensor>& tensors,
                                             const ReduceOptions& opts) {
  check_single("reduce", tensors, Cuda::kStaged);
  check_rank(kGloo, "reduce", "root rank", opts.rootRank, size_);
  check_reduce_op("reduce", opts.reduceOp, tensors.front().scalar_type());
  const auto root = static_cast<int>(opts.rootRank);
  const auto timeout = effective(opts.timeout, options_->timeout);
  const ReduceOp op = opts.reduceOp;
  const Tensor tensor = tensors.front();
  return enqueue(
      *state_, rank_, OpType::REDUCE, tensors, "reduce", describe(tensor), timeout,
      [this, tensor, op, root, timeout](uint32_t tag) {
        Staged staged(tensor, Staged::kOnHost);
        state_->gloo->reduce(staged.flat, op, root, tag, timeout);
        if (rank_ == root) {
          if (op == ReduceOp::AVG) staged.flat.div_(size_);
          staged.write_back();
        }
      },
      tensors);
}

intrusive_ptr<Work> ProcessGroupGloo::allgather(std::vector<std::vector<Tensor>>& outputTensors,
                                                std::vector<Tensor>& inputTensors,
                                                const AllgatherOptions& opts) {
  check_single("allgather", inputTensors, Cuda::kStaged);
  const Tensor input = inputTensors.front();
  const std::vector<Tensor> outputs =
      one_list_like(kGloo, "allgather", "output", outputTensors, input, size_);
  const auto timeout = effective(opts.timeout, options_->timeout);
  return enqueue(
      *state_, rank_, OpType::ALLGATHER, outputs, "allgather", describe(input), timeout,
      [this, input, outputs, timeout](uint32_t tag) {
        Tensor gathered = empty({size_ * input.numel()}, host_options(input));
        state_->gloo->allgather(Staged(input, Staged::kOnHost).flat, gathered, tag, timeout);
        split_into(gathered, outputs);
      },
      joined(inputTensors, outputs));
}

intrusive_ptr<Work> ProcessGroupGloo::_allgather_base(Tensor& outputBuffer, Tensor& inputBuffer,
                                                      const AllgatherOptions& opts) {
  check_tensors("_allgather_base", {inputBuffer});
  check_tensors("_allgather_base", {outputBuffer});
  EMBER_CHECK_T(ValueError,
                outputBuffer.scalar_type() == inputBuffer.scalar_type() &&
                    outputBuffer.numel() == size_ * inputBuffer.numel(),
                "[ProcessGroupGloo._allgather_base] the output ", describe(outputBuffer),
                " must hold ", size_, " inputs ", describe(inputBuffer), " of its dtype");
  const auto timeout = effective(opts.timeout, options_->timeout);
  const Tensor input = inputBuffer, output = outputBuffer;
  return enqueue(*state_, rank_, OpType::_ALLGATHER_BASE, {output}, "_allgather_base",
                 describe(input), timeout, [this, input, output, timeout](uint32_t tag) {
                   Staged out(output, Staged::kOnHost);
                   state_->gloo->allgather(Staged(input, Staged::kOnHost).flat, out.flat, tag,
                                           timeout);
                   out.write_back();
                 });
}

intrusive_ptr<Work> ProcessGroupGloo::gather(std::vector<std::vector<Tensor>>& outputTensors,
                                             std::vector<Tensor>& inputTensors,
                                             const GatherOptions& opts) {
  check_single("gather", inputTensors);
  check_rank(kGloo, "gather", "root rank", opts.rootRank, size_);
  const auto root = static_cast<int>(opts.rootRank);
  const Tensor input = inputTensors.front();
  const std::vector<Tensor> outputs =
      root_list("gather", "output", outputTensors, input, root, rank_, size_);
  const auto timeout = effective(opts.timeout, options_->timeout);
  return enqueue(*state_, rank_, OpType::GATHER, outputs, "gather", describe(input), timeout,
                 [this, input, outputs, root, timeout](uint32_t tag) {
                   Tensor gathered;
                   if (rank_ == root) gathered = empty({size_ * input.numel()}, input.options());
                   state_->gloo->gather(Staged(input, Staged::kOnHost).flat, gathered, root, tag,
                                        timeout);
                   if (rank_ == root) split_into(gathered, outputs);
                 });
}

intrusive_ptr<Work> ProcessGroupGloo::scatter(std::vector<Tensor>& outputTensors,
                                              std::vector<std::vector<Tensor>>& inputTensors,
                                              const ScatterOptions& opts) {
  check_single("scatter", outputTensors);
  check_rank(kGloo, "scatter", "root rank", opts.rootRank, size_);
  const auto root = static_cast<int>(opts.rootRank);
  const Tensor output = outputTensors.front();
  const std::vector<Tensor> inputs =
      root_list("scatter", "input", inputTensors, output, root, rank_, size_);
  const auto timeout = effective(opts.timeout, options_->timeout);
  return enqueue(*state_, rank_, OpType::SCATTER, {output}, "scatter", describe(output), timeout,
                 [this, inputs, output, root, timeout](uint32_t tag) {
                   std::vector<Tensor> flats;
                   for (const Tensor& t : inputs) flats.push_back(t.contiguous());
                   Staged out(output, Staged::kOnHost);
                   state_->gloo->scatter(flats, out.flat, root, tag, timeout);
                   out.write_back();
                 });
}

intrusive_ptr<Work> ProcessGroupGloo::reduce_scatter(std::vector<Tensor>& outputTensors,
                                                     std::vector<std::vector<Tensor>>& inputTensors,
                                                     const ReduceScatterOptions& opts) {
  check_single("reduce_scatter", outputTensors);
  const Tensor output = outputTensors.front();
  check_reduce_op("reduce_scatter", opts.reduceOp, output.scalar_type());
  const std::vector<Tensor> inputs =
      one_list_like(kGloo, "reduce_scatter", "input", inputTensors, output, size_);
  const auto timeout = effective(opts.timeout, options_->timeout);
  const ReduceOp op = opts.reduceOp;
  return enqueue(*state_, rank_, OpType::REDUCE_SCATTER, {output}, "reduce_scatter",
                 describe(output), timeout, [this, inputs, output, op, timeout](uint32_t tag) {
                   // An allreduce of every piece, of which this rank keeps its own: Gloo has no
                   // reduce-scatter of its own for any reduction.
                   Tensor flat = concatenate(inputs);
                   state_->gloo->allreduce({flat}, op, tag, timeout);
                   if (op == ReduceOp::AVG) flat.div_(size_);
                   split_into(flat.narrow(0, rank_ * output.numel(), output.numel()), {output});
                 });
}

intrusive_ptr<Work> ProcessGroupGloo::_reduce_scatter_base(Tensor& outputBuffer,
                                                           Tensor& inputBuffer,
                                                           const ReduceScatterOptions& opts) {
  check_tensors("_reduce_scatter_base", {inputBuffer});
  check_tensors("_reduce_scatter_base", {outputBuffer});
  check_reduce_op("_reduce_scatter_base", opts.reduceOp, inputBuffer.scalar_type());
  EMBER_CHECK_T(ValueError,
                outputBuffer.scalar_type() == inputBuffer.scalar_type() &&
                    inputBuffer.numel() == size_ * outputBuffer.numel(),
                "[ProcessGroupGloo._reduce_scatter_base] the input ", describe(inputBuffer),
                " must hold ", size_, " outputs ", describe(outputBuffer), " of its dtype");
  const auto timeout = effective(opts.timeout, options_->timeout);
  const ReduceOp op = opts.reduceOp;
  const Tensor input = inputBuffer, output = outputBuffer;
  return enqueue(*state_, rank_, OpType::_REDUCE_SCATTER_BASE, {output}, "_reduce_scatter_base",
                 describe(input), timeout, [this, input, output, op, timeout](uint32_t tag) {
                   Tensor flat = input.reshape({-1}).clone();  // the input stays as it was
                   state_->gloo->allreduce({flat}, op, tag, timeout);
                   if (op == ReduceOp::AVG) flat.div_(size_);
                   split_into(flat.narrow(0, rank_ * output.numel(), output.numel()), {output});
                 });
}

namespace {

// Elements per rank of an all-to-all along dim 0: `splits` rows each, or equal parts.
std::vector<int64_t> split_counts(const char* which, const Tensor& t,
                                  const std::vector<int64_t>& splits, int size) {
  const int64_t rows = t.dim() == 0 ? 1 : t.size(0);
  const int64_t row_elements = rows == 0 ? 0 : t.numel() / rows;
  std::vector<int64_t> counts;
  if (splits.empty()) {
    EMBER_CHECK_T(ValueError, rows % size == 0, "[ProcessGroupGloo.alltoall_base] the ", which, " ",
                  describe(t), " has ", rows, " rows, which do not split equally among ", size,
                  " ranks; pass split sizes");
    counts.assign(static_cast<size_t>(size), rows / size * row_elements);
    return counts;
  }
  EMBER_CHECK_T(ValueError, static_cast<int>(splits.size()) == size,
                "[ProcessGroupGloo.alltoall_base] the ", which, " split sizes have ", splits.size(),
                " entries; the group has ", size, " ranks");
  int64_t total = 0;
  for (int64_t rows_for_rank : splits) {
    EMBER_CHECK_T(ValueError, rows_for_rank >= 0, "[ProcessGroupGloo.alltoall_base] a negative ",
                  which, " split size (", rows_for_rank, ")");
    total += rows_for_rank;
    counts.push_back(rows_for_rank * row_elements);
  }
  EMBER_CHECK_T(ValueError, total == rows, "[ProcessGroupGloo.alltoall_base] the ", which,
                " split sizes add up to ", total, " rows; the ", which, " ", describe(t), " has ",
                rows);
  return counts;
}

}  // namespace

intrusive_ptr<Work> ProcessGroupGloo::alltoall_base(Tensor& outputBuffer, Tensor& inputBuffer,
                                                    std::vector<int64_t>& outputSplitSizes,
                                                    std::vector<int64_t>& inputSplitSizes,
                                                    const AllToAllOptions& opts) {
  check_tensors("alltoall_base", {inputBuffer});
  check_tensors("alltoall_base", {outputBuffer});
  EMBER_CHECK_T(TypeError, outputBuffer.scalar_type() == inputBuffer.scalar_type(),
                "[ProcessGroupGloo.alltoall_base] the output ", describe(outputBuffer),
                " and the input ", describe(inputBuffer), " differ in dtype");
  auto input_counts = split_counts("input", inputBuffer, inputSplitSizes, size_);
  auto output_counts = split_counts("output", outputBuffer, outputSplitSizes, size_);
  const auto timeout = effective(opts.timeout, options_->timeout);
  const Tensor input = inputBuffer, output = outputBuffer;
  return enqueue(*state_, rank_, OpType::ALLTOALL_BASE, {output}, "alltoall_base", describe(input),
                 timeout,
                 [this, input, output, input_counts, output_counts, timeout](uint32_t tag) {
                   Staged out(output, Staged::kOnHost);
                   state_->gloo->alltoallv(Staged(input, Staged::kOnHost).flat, input_counts,
                                           out.flat, output_counts, tag, timeout);
                   out.write_back();
                 });
}

intrusive_ptr<Work> ProcessGroupGloo::alltoall(std::vector<Tensor>& outputTensors,
                                               std::vector<Tensor>& inputTensors,
                                               const AllToAllOptions& opts) {
  check_tensors("alltoall", inputTensors, /*same_sizes=*/false);
  check_tensors("alltoall", outputTensors, /*same_sizes=*/false);
  const auto count = [](const std::vector<Tensor>& list) {
    std::vector<int64_t> counts;
    for (const Tensor& t : list) counts.push_back(t.numel());
    return counts;
  };
  EMBER_CHECK_T(ValueError,
                static_cast<int>(inputTensors.size()) == size_ &&
                    static_cast<int>(outputTensors.size()) == size_,
                "[ProcessGroupGloo.alltoall] needs one input and one output tensor per rank (",
                size_, "), got ", inputTensors.size(), " and ", outputTensors.size());
  EMBER_CHECK_T(TypeError,
                outputTensors.front().scalar_type() == inputTensors.front().scalar_type(),
                "[ProcessGroupGloo.alltoall] the outputs (", outputTensors.front().scalar_type(),
                ") and the inputs (", inputTensors.front().scalar_type(), ") differ in dtype");
  const auto timeout = effective(opts.timeout, options_->timeout);
  const std::vector<Tensor> inputs = inputTensors, outputs = outputTensors;
  return enqueue(*state_, rank_, OpType::ALLTOALL, outputs, "alltoall",
                 str("of ", inputs.size(), " ", inputs.front().scalar_type(), " tensors"), timeout,
                 [this, inputs, outputs, count, timeout](uint32_t tag) {
                   std::vector<int64_t> output_counts = count(outputs);
                   int64_t total = 0;
                   for (int64_t n : output_counts) total += n;
                   Tensor received = empty({total}, outputs.front().options());
                   state_->gloo->alltoallv(concatenate(inputs), count(inputs), received,
                                           output_counts, tag, timeout);
                   split_into(received, outputs);
                 });
}

intrusive_ptr<Work> ProcessGroupGloo::barrier(const BarrierOptions& opts) {
  const auto timeout = effective(opts.timeout, options_->timeout);
  return enqueue(*state_, rank_, OpType::BARRIER, {}, "barrier", "", timeout,
                 [this, timeout](uint32_t tag) { state_->gloo->barrier(tag, timeout); });
}

namespace {

// A send or receive: under way from the call, done when waited for.
class TransferWork : public Work {
 public:
  TransferWork(int rank, OpType type, std::unique_ptr<detail::Transfer> transfer, Staged staged,
               std::chrono::milliseconds group_timeout, std::string what)
      : Work(rank, type),
        transfer_(std::move(transfer)),
        staged_(std::move(staged)),
        group_timeout_(group_timeout),
        what_(std::move(what)) {
    outputs_ = {staged_.user};
  }

  bool wait(std::chrono::milliseconds timeout) override {
    std::lock_guard<std::mutex> waiting(wait_mutex_);
    if (!isCompleted()) {
      std::exception_ptr error;
      try {
        transfer_->wait(timeout == kNoTimeout ? group_timeout_ : timeout);
        if (opType_ != OpType::SEND) staged_.write_back();
      } catch (const std::exception& e) {
        error = std::make_exception_ptr(
            Error(str("[ProcessGroupGloo] ", what_, " on rank ", rank_, " failed: ", e.what(),
                      "\nThe other rank must issue the matching ",
                      opType_ == OpType::SEND ? "recv" : "send", " with the same tag and size.")));
      }
      finish(error);
    }
    return Work::wait(kNoTimeout);
  }

  int sourceRank() const override {
    EMBER_CHECK(opType_ == OpType::RECVANYSOURCE,
                "[Work.sourceRank] only a recv from any "
                "source has a source rank; this is a ",
                opTypeToString(opType_), " work");
    return transfer_->source_rank();
  }

 private:
  std::mutex wait_mutex_;
  std::unique_ptr<detail::Transfer> transfer_;
  Staged staged_;
  std::chrono::milliseconds group_timeout_;
  std::string what_;
};

// Starts a send or receive of the list's one tensor with `peer` (any rank for RECVANYSOURCE),
// from the tensor itself or its contiguous copy: as with PyTorch, a sent tensor must stay
// unchanged until the work is waited for.
intrusive_ptr<Work> start_transfer(ProcessGroupGloo::State& state,
                                   std::chrono::milliseconds timeout, OpType type,
                                   std::vector<Tensor>& tensors, int peer, int tag) {
  const char* op = type == OpType::SEND ? "send" : type == OpType::RECV ? "recv" : "recvAnysource";
  check_single(op, tensors);
  if (type != OpType::RECVANYSOURCE) check_peer(kGloo, op, peer, state.rank, state.size);
  EMBER_CHECK_T(ValueError, tag >= 0, "[ProcessGroupGloo.", op, "] the tag must be >= 0, got ",
                tag);
  Staged staged(tensors.front(), Staged::kOnHost);
  const auto slot = static_cast<uint64_t>(tag);
  auto started = type == OpType::SEND ? state.gloo->send(staged.flat, peer, slot)
                                      : state.gloo->recv(staged.flat, peer, slot);
  const std::string with =
      type == OpType::RECVANYSOURCE ? std::string("any rank") : str("rank ", peer);
  return std::make_shared<TransferWork>(
      state.rank, type, std::move(started), std::move(staged), timeout,
      str(type == OpType::SEND ? "send " : "recv ", describe(tensors.front()),
          type == OpType::SEND ? " to " : " from ", with, " with tag ", tag));
}

}  // namespace

intrusive_ptr<Work> ProcessGroupGloo::send(std::vector<Tensor>& tensors, int dstRank, int tag) {
  return start_transfer(*state_, options_->timeout, OpType::SEND, tensors, dstRank, tag);
}

intrusive_ptr<Work> ProcessGroupGloo::recv(std::vector<Tensor>& tensors, int srcRank, int tag) {
  return start_transfer(*state_, options_->timeout, OpType::RECV, tensors, srcRank, tag);
}

intrusive_ptr<Work> ProcessGroupGloo::recvAnysource(std::vector<Tensor>& tensors, int tag) {
  return start_transfer(*state_, options_->timeout, OpType::RECVANYSOURCE, tensors, -1, tag);
}

}  // namespace ember::distributed
