// The default group and torch.distributed's functions over it: rendezvous from the environment
// or an init method, groups of some ranks, and each collective mapped onto its ProcessGroup call.
#include "ember/distributed/collectives.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>

#include "core/check.h"
#include "distributed/nccl_context.h"
#include "ember/distributed/file_store.h"
#include "ember/distributed/prefix_store.h"
#include "ember/distributed/process_group_gloo.h"
#include "ember/distributed/process_group_nccl.h"
#include "ember/distributed/tcp_store.h"

namespace ember::distributed {
namespace {

// The state init_process_group sets up: the shared store, the default group, and the global rank
// behind each rank of every group.
struct World {
  std::mutex mutex;
  intrusive_ptr<Store> store;
  intrusive_ptr<ProcessGroup> default_group;
  std::map<const ProcessGroup*, std::vector<int>> global_ranks;
  int groups_made = 0;
};

World& world() {
  static World w;
  return w;
}

std::optional<int> env_int(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  EMBER_CHECK_T(ValueError, *end == '\0' && parsed >= 0 && parsed <= INT32_MAX,
                "[init_process_group] the environment variable ", name, "='", value,
                "' is not a non-negative integer");
  return static_cast<int>(parsed);
}

std::string env_string(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

// RANK and WORLD_SIZE as ember-run and torchrun set them, or as mpirun does.
int from_environment(int given, const char* name, const char* mpi_name) {
  if (given >= 0) return given;
  if (auto value = env_int(name)) return *value;
  if (auto value = env_int(mpi_name)) return *value;
  ember::detail::fail<ValueError>(
      "[init_process_group] ", name, " is not set and no ", name[0] == 'R' ? "rank" : "world_size",
      " was passed; start the program with ember-run --nproc N (which sets "
      "RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT), or set them yourself");
}

uint16_t parse_port(const std::string& text, const std::string& where) {
  char* end = nullptr;
  const long port = std::strtol(text.c_str(), &end, 10);
  EMBER_CHECK_T(ValueError, !text.empty() && *end == '\0' && port >= 0 && port <= 65535,
                "[init_process_group] ", where, " port '", text,
                "' is not a port number (0 to 65535)");
  return static_cast<uint16_t>(port);
}

intrusive_ptr<Store> tcp_store(const std::string& host, uint16_t port, int rank, int world_size,
                               std::chrono::milliseconds timeout) {
  TCPStoreOptions options;
  options.port = port;
  options.isServer = rank == 0;
  options.numWorkers = static_cast<std::size_t>(world_size);
  options.timeout = timeout;
  return make_intrusive<TCPStore>(host, options);
}

// The store an init method names: env://, tcp://host:port or file:///path.
intrusive_ptr<Store> rendezvous(const std::string& init_method, int rank, int world_size,
                                std::chrono::milliseconds timeout) {
  if (init_method == "env://") {
    const std::string host = env_string("MASTER_ADDR");
    const std::string port = env_string("MASTER_PORT");
    EMBER_CHECK_T(ValueError, !host.empty() && !port.empty(),
                  "[init_process_group] env:// needs MASTER_ADDR and MASTER_PORT (MASTER_ADDR='",
                  host, "', MASTER_PORT='", port,
                  "'); start the program with ember-run, which sets them, or set them to rank "
                  "0's address and a free port");
    return tcp_store(host, parse_port(port, "MASTER_PORT's"), rank, world_size, timeout);
  }
  if (init_method.rfind("tcp://", 0) == 0) {
    const std::string address = init_method.substr(6);
    const size_t colon = address.rfind(':');
    EMBER_CHECK_T(ValueError, colon != std::string::npos && colon > 0,
                  "[init_process_group] init method '", init_method,
                  "' has no host:port; write tcp://HOST:PORT");
    return tcp_store(address.substr(0, colon),
                     parse_port(address.substr(colon + 1), str("'", init_method, "'s")), rank,
                     world_size, timeout);
  }
  if (init_method.rfind("file://", 0) == 0) {
    auto store = make_intrusive<FileStore>(init_method.substr(7), world_size);
    store->setTimeout(timeout);
    return store;
  }
  ember::detail::fail<ValueError>("[init_process_group] unknown init method '", init_method,
                                  "'; use env://, tcp://HOST:PORT or file:///PATH");
}

intrusive_ptr<ProcessGroup> make_group(const std::string& backend,
                                       const intrusive_ptr<Store>& store, int rank, int size,
                                       std::chrono::milliseconds timeout) {
  if (backend == "gloo") {
    return make_intrusive<ProcessGroupGloo>(store, rank, size,
                                            ProcessGroupGloo::Options::create(timeout));
  }
  if (backend == "nccl") {
    auto options = ProcessGroupNCCL::Options::create();
    options->timeout = timeout;
    return make_intrusive<ProcessGroupNCCL>(store, rank, size, options);
  }
  EMBER_CHECK_T(NotImplementedError, backend != "mpi",
                "[init_process_group] the mpi backend is not in ember yet; use gloo (CPU "
                "tensors) or nccl (CUDA tensors)");
  ember::detail::fail<ValueError>("[init_process_group] unknown backend '", backend,
                                  "'; use gloo, or leave it empty for the default");
}

// The group a call names, or the default group.
const intrusive_ptr<ProcessGroup>& resolve(const char* op,
                                           const intrusive_ptr<ProcessGroup>& group) {
  if (group) return group;
  World& w = world();
  EMBER_CHECK(w.default_group != nullptr, "[", op,
              "] the default process group is not initialized; call "
              "ember::distributed::init_process_group() first");
  return w.default_group;
}

// A global rank's rank in `group`. A group made directly (not by init_process_group or
// new_group) has its own ranks for global ranks.
int group_rank(const char* op, const intrusive_ptr<ProcessGroup>& group, int global) {
  std::lock_guard<std::mutex> lock(world().mutex);
  const auto found = world().global_ranks.find(group.get());
  if (found == world().global_ranks.end()) {
    EMBER_CHECK_T(ValueError, global >= 0 && global < group->getSize(), "[", op, "] rank ", global,
                  " is not in the group of size ", group->getSize());
    return global;
  }
  const std::vector<int>& ranks = found->second;
  const auto it = std::find(ranks.begin(), ranks.end(), global);
  EMBER_CHECK_T(ValueError, it != ranks.end(), "[", op, "] global rank ", global,
                " is not in the group (its ranks: ", Join(", ", ranks), ")");
  return static_cast<int>(it - ranks.begin());
}

// The global rank of `group`'s rank `rank`.
int global_rank(const intrusive_ptr<ProcessGroup>& group, int rank) {
  std::lock_guard<std::mutex> lock(world().mutex);
  const auto found = world().global_ranks.find(group.get());
  return found == world().global_ranks.end() ? rank : found->second.at(static_cast<size_t>(rank));
}

intrusive_ptr<Work> finish(intrusive_ptr<Work> work, bool async_op) {
  if (async_op) return work;
  work->wait();
  return nullptr;
}

}  // namespace

bool is_available() { return is_gloo_available(); }
bool is_nccl_available() { return detail::nccl_loadable(); }
bool is_mpi_available() { return false; }

void init_process_group(const std::string& backend, const std::string& init_method,
                        std::chrono::milliseconds timeout, int world_size, int rank,
                        const intrusive_ptr<Store>& store, const std::string& group_name) {
  World& w = world();
  EMBER_CHECK(w.default_group == nullptr,
              "[init_process_group] the default process group is already initialized; call "
              "destroy_process_group() before initializing it again");
  const std::string chosen = backend.empty() || backend == "auto" ? "gloo" : backend;
  EMBER_CHECK_T(ValueError, !store || init_method.empty(),
                "[init_process_group] pass either a store or an init method, not both");
  const int size = from_environment(world_size, "WORLD_SIZE", "OMPI_COMM_WORLD_SIZE");
  const int me = from_environment(rank, "RANK", "OMPI_COMM_WORLD_RANK");
  EMBER_CHECK_T(ValueError, size > 0 && me < size, "[init_process_group] rank ", me,
                " is not in a world of size ", size, "; the rank must be in [0, world_size)");
  intrusive_ptr<Store> shared =
      store ? store : rendezvous(init_method.empty() ? "env://" : init_method, me, size, timeout);
  auto group = make_group(
      chosen, make_intrusive<PrefixStore>(group_name.empty() ? "default_pg" : group_name, shared),
      me, size, timeout);
  std::vector<int> ranks(static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) ranks[static_cast<size_t>(r)] = r;
  std::lock_guard<std::mutex> lock(w.mutex);
  w.store = shared;
  w.default_group = group;
  w.global_ranks[group.get()] = std::move(ranks);
}

bool is_initialized() { return world().default_group != nullptr; }

void destroy_process_group(const intrusive_ptr<ProcessGroup>& group) {
  World& w = world();
  std::lock_guard<std::mutex> lock(w.mutex);
  if (group == nullptr || group == w.default_group) {
    w.global_ranks.clear();
    w.default_group = nullptr;
    w.store = nullptr;
    w.groups_made = 0;
  } else {
    w.global_ranks.erase(group.get());
  }
}

intrusive_ptr<ProcessGroup> default_group() { return resolve("default_group", nullptr); }

int get_rank(const intrusive_ptr<ProcessGroup>& group) {
  return resolve("get_rank", group)->getRank();
}

int get_world_size(const intrusive_ptr<ProcessGroup>& group) {
  return resolve("get_world_size", group)->getSize();
}

std::string get_backend(const intrusive_ptr<ProcessGroup>& group) {
  return resolve("get_backend", group)->getBackendName();
}

intrusive_ptr<ProcessGroup> new_group(const std::vector<int>& ranks,
                                      std::chrono::milliseconds timeout) {
  const intrusive_ptr<ProcessGroup> world_group = resolve("new_group", nullptr);
  const int size = world_group->getSize();
  std::vector<int> members = ranks;
  if (members.empty()) {
    for (int r = 0; r < size; ++r) members.push_back(r);
  }
  std::vector<int> sorted = members;
  std::sort(sorted.begin(), sorted.end());
  EMBER_CHECK_T(ValueError, std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(),
                "[new_group] the ranks ", Join(", ", members), " repeat a rank");
  for (int r : members) {
    EMBER_CHECK_T(ValueError, r >= 0 && r < size, "[new_group] rank ", r,
                  " is not in the world of size ", size);
  }
  World& w = world();
  std::string prefix;
  {
    std::lock_guard<std::mutex> lock(w.mutex);
    prefix = str("group_", ++w.groups_made);  // every rank calls new_group in the same order
  }
  const auto me = std::find(members.begin(), members.end(), world_group->getRank());
  if (me == members.end()) return nullptr;
  auto group =
      make_group(world_group->getBackendName(), make_intrusive<PrefixStore>(prefix, w.store),
                 static_cast<int>(me - members.begin()), static_cast<int>(members.size()), timeout);
  std::lock_guard<std::mutex> lock(w.mutex);
  w.global_ranks[group.get()] = members;
  return group;
}

intrusive_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op,
                               const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  std::vector<Tensor> tensors{tensor};
  AllreduceOptions opts;
  opts.reduceOp = op;
  return finish(resolve("all_reduce", group)->allreduce(tensors, opts), async_op);
}

intrusive_ptr<Work> broadcast(Tensor& tensor, int src, const intrusive_ptr<ProcessGroup>& group,
                              bool async_op) {
  const auto& g = resolve("broadcast", group);
  std::vector<Tensor> tensors{tensor};
  BroadcastOptions opts;
  opts.rootRank = group_rank("broadcast", g, src);
  return finish(g->broadcast(tensors, opts), async_op);
}

intrusive_ptr<Work> reduce(Tensor& tensor, int dst, ReduceOp op,
                           const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  const auto& g = resolve("reduce", group);
  std::vector<Tensor> tensors{tensor};
  ReduceOptions opts;
  opts.reduceOp = op;
  opts.rootRank = group_rank("reduce", g, dst);
  return finish(g->reduce(tensors, opts), async_op);
}

intrusive_ptr<Work> all_gather(std::vector<Tensor>& tensor_list, Tensor& tensor,
                               const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  std::vector<std::vector<Tensor>> outputs{tensor_list};
  std::vector<Tensor> inputs{tensor};
  return finish(resolve("all_gather", group)->allgather(outputs, inputs), async_op);
}

intrusive_ptr<Work> all_gather_into_tensor(Tensor& output_tensor, Tensor& input_tensor,
                                           const intrusive_ptr<ProcessGroup>& group,
                                           bool async_op) {
  return finish(
      resolve("all_gather_into_tensor", group)->_allgather_base(output_tensor, input_tensor),
      async_op);
}

intrusive_ptr<Work> gather(Tensor& tensor, std::vector<Tensor> gather_list, int dst,
                           const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  const auto& g = resolve("gather", group);
  std::vector<std::vector<Tensor>> outputs;
  if (!gather_list.empty()) outputs.push_back(std::move(gather_list));
  std::vector<Tensor> inputs{tensor};
  GatherOptions opts;
  opts.rootRank = group_rank("gather", g, dst);
  return finish(g->gather(outputs, inputs, opts), async_op);
}

intrusive_ptr<Work> scatter(Tensor& tensor, std::vector<Tensor> scatter_list, int src,
                            const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  const auto& g = resolve("scatter", group);
  std::vector<Tensor> outputs{tensor};
  std::vector<std::vector<Tensor>> inputs;
  if (!scatter_list.empty()) inputs.push_back(std::move(scatter_list));
  ScatterOptions opts;
  opts.rootRank = group_rank("scatter", g, src);
  return finish(g->scatter(outputs, inputs, opts), async_op);
}

intrusive_ptr<Work> reduce_scatter(Tensor& output, std::vector<Tensor>& input_list, ReduceOp op,
                                   const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  std::vector<Tensor> outputs{output};
  std::vector<std::vector<Tensor>> inputs{input_list};
  ReduceScatterOptions opts;
  opts.reduceOp = op;
  return finish(resolve("reduce_scatter", group)->reduce_scatter(outputs, inputs, opts), async_op);
}

intrusive_ptr<Work> reduce_scatter_tensor(Tensor& output, Tensor& input, ReduceOp op,
                                          const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  ReduceScatterOptions opts;
  opts.reduceOp = op;
  return finish(resolve("reduce_scatter_tensor", group)->_reduce_scatter_base(output, input, opts),
                async_op);
}

intrusive_ptr<Work> all_to_all(std::vector<Tensor>& output_tensor_list,
                               std::vector<Tensor>& input_tensor_list,
                               const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  return finish(resolve("all_to_all", group)->alltoall(output_tensor_list, input_tensor_list),
                async_op);
}

intrusive_ptr<Work> all_to_all_single(Tensor& output, Tensor& input,
                                      std::vector<int64_t> output_split_sizes,
                                      std::vector<int64_t> input_split_sizes,
                                      const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  return finish(resolve("all_to_all_single", group)
                    ->alltoall_base(output, input, output_split_sizes, input_split_sizes),
                async_op);
}

intrusive_ptr<Work> barrier(const intrusive_ptr<ProcessGroup>& group, bool async_op) {
  return finish(resolve("barrier", group)->barrier(), async_op);
}

intrusive_ptr<Work> isend(Tensor& tensor, int dst, const intrusive_ptr<ProcessGroup>& group,
                          int tag) {
  const auto& g = resolve("isend", group);
  std::vector<Tensor> tensors{tensor};
  return g->send(tensors, group_rank("isend", g, dst), tag);
}

intrusive_ptr<Work> irecv(Tensor& tensor, int src, const intrusive_ptr<ProcessGroup>& group,
                          int tag) {
  const auto& g = resolve("irecv", group);
  std::vector<Tensor> tensors{tensor};
  if (src < 0) return g->recvAnysource(tensors, tag);
  return g->recv(tensors, group_rank("irecv", g, src), tag);
}

void send(Tensor& tensor, int dst, const intrusive_ptr<ProcessGroup>& group, int tag) {
  isend(tensor, dst, group, tag)->wait();
}

int recv(Tensor& tensor, int src, const intrusive_ptr<ProcessGroup>& group, int tag) {
  const auto& g = resolve("recv", group);
  auto work = irecv(tensor, src, g, tag);
  work->wait();
  return src >= 0 ? src : global_rank(g, work->sourceRank());
}

}  // namespace ember::distributed
