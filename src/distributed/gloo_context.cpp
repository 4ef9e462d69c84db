// GlooContext over Gloo's TCP transport: a full mesh of pairs set up through the group's store,
// then Gloo's own algorithms (ring allreduce, ...) for each collective.
#include "distributed/gloo_context.h"

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoallv.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/gather.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/scatter.h>
#include <gloo/transport/tcp/device.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "core/check.h"
#include "ember/distributed/collectives.h"
#include "kernels/dtype_dispatch.h"

namespace ember::distributed {

bool is_gloo_available() { return true; }

namespace detail {
namespace {

// Gloo's view of an ember store: the same table, with Gloo's value type.
class StoreForGloo : public gloo::rendezvous::Store {
 public:
  explicit StoreForGloo(distributed::Store& store) : store_(store) {}

  void set(const std::string& key, const std::vector<char>& data) override {
    store_.set(key, std::vector<uint8_t>(data.begin(), data.end()));
  }
  std::vector<char> get(const std::string& key) override {
    std::vector<uint8_t> value = store_.get(key);
    return std::vector<char>(value.begin(), value.end());
  }
  void wait(const std::vector<std::string>& keys) override { store_.wait(keys); }
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override {
    store_.wait(keys, timeout);
  }

 private:
  distributed::Store& store_;
};

// Whether `host` resolves to an address. Gloo's CreateDevice dereferences a failed lookup's
// empty result (a crash, not an exception) in Debian 12's snapshot, so names are tried here first.
bool resolves(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) return false;
  freeaddrinfo(found);
  return true;
}

// The device other ranks reach this one through: Options::hostname, else GLOO_SOCKET_IFNAME's
// interface, else this machine's hostname where it resolves, else the loopback address.
std::shared_ptr<gloo::transport::Device> make_device(const std::string& hostname) {
  gloo::transport::tcp::attr attr;
  if (!hostname.empty()) {
    EMBER_CHECK_T(ValueError, resolves(hostname), "[ProcessGroupGloo] Options::hostname '",
                  hostname,
                  "' does not resolve to an address; give a name or address of this "
                  "machine that the other ranks can reach");
    attr.hostname = hostname;
    return gloo::transport::tcp::CreateDevice(attr);
  }
  if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME"); iface && *iface) {
    attr.iface = iface;
    return gloo::transport::tcp::CreateDevice(attr);
  }
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) == 0 && resolves(name)) {
    try {
      attr.hostname = name;
      return gloo::transport::tcp::CreateDevice(attr);
    } catch (const std::exception&) {
      // An unresolvable hostname (common in containers): the loopback address still serves
      // every rank of one machine.
    }
  }
  attr.hostname = "127.0.0.1";
  return gloo::transport::tcp::CreateDevice(attr);
}

// Gloo's reduction function for one dtype and op: out[i] = a[i] (op) b[i].
using ReduceFn = void (*)(void*, const void*, const void*, size_t);

template <class T, class Combine>
void combine(void* out, const void* a, const void* b, size_t n) {
  auto* o = static_cast<T*>(out);
  const auto* x = static_cast<const T*>(a);
  const auto* y = static_cast<const T*>(b);
  using M = kernels::opmath_t<T>;
  for (size_t i = 0; i < n; ++i) {
    o[i] = static_cast<T>(Combine{}(static_cast<M>(x[i]), static_cast<M>(y[i])));
  }
}

struct Sum {
  template <class M>
  M operator()(M a, M b) const {
    return static_cast<M>(a + b);
  }
};
struct Product {
  template <class M>
  M operator()(M a, M b) const {
    return static_cast<M>(a * b);
  }
};
struct Min {
  template <class M>
  M operator()(M a, M b) const {
    return std::min(a, b);
  }
};
struct Max {
  template <class M>
  M operator()(M a, M b) const {
    return std::max(a, b);
  }
};
struct BitAnd {
  template <class M>
  M operator()(M a, M b) const {
    return static_cast<M>(a & b);
  }
};
struct BitOr {
  template <class M>
  M operator()(M a, M b) const {
    return static_cast<M>(a | b);
  }
};
struct BitXor {
  template <class M>
  M operator()(M a, M b) const {
    return static_cast<M>(a ^ b);
  }
};

// AVG arrives as SUM (the caller divides); the bitwise ops only for integers and bools, which
// process_group_gloo.cpp has checked.
ReduceFn reduce_fn(ScalarType dtype, ReduceOp op) {
  return kernels::dispatch_dtype(dtype, "all_reduce", [&](auto tag) -> ReduceFn {
    using T = typename decltype(tag)::type;
    if (op == ReduceOp::SUM || op == ReduceOp::AVG) return &combine<T, Sum>;
    if (op == ReduceOp::PRODUCT) return &combine<T, Product>;
    if (op == ReduceOp::MIN) return &combine<T, Min>;
    if (op == ReduceOp::MAX) return &combine<T, Max>;
    if constexpr (std::is_integral_v<T>) {
      if (op == ReduceOp::BAND) return &combine<T, BitAnd>;
      if (op == ReduceOp::BOR) return &combine<T, BitOr>;
      if (op == ReduceOp::BXOR) return &combine<T, BitXor>;
    }
    EMBER_INTERNAL_ASSERT(false, "reduce op ", static_cast<int>(op.op_), " for ", dtype);
  });
}

// Bytes as Gloo's element type where nothing is reduced: the data only moves.
uint8_t* bytes(const Tensor& t) { return static_cast<uint8_t*>(t.data_ptr()); }
size_t nbytes(const Tensor& t) { return t.nbytes(); }

class GlooTransfer : public Transfer {
 public:
  GlooTransfer(std::unique_ptr<gloo::transport::UnboundBuffer> buffer, bool receiving)
      : buffer_(std::move(buffer)), receiving_(receiving) {}

  void wait(std::chrono::milliseconds timeout) override {
    if (receiving_) {
      buffer_->waitRecv(&source_, timeout);
    } else {
      buffer_->waitSend(timeout);
    }
  }
  int source_rank() const override { return source_; }

 private:
  std::unique_ptr<gloo::transport::UnboundBuffer> buffer_;
  bool receiving_;
  int source_ = -1;
};

class TcpGlooContext : public GlooContext {
 public:
  explicit TcpGlooContext(std::shared_ptr<gloo::rendezvous::Context> context)
      : context_(std::move(context)) {}

  void allreduce(const std::vector<Tensor>& tensors, ReduceOp op, uint32_t tag,
                 std::chrono::milliseconds timeout) override {
    const ScalarType dtype = tensors.front().scalar_type();
    // In the real element type: Gloo splits the buffers between ranks in whole elements.
    kernels::dispatch_dtype(dtype, "all_reduce", [&](auto type) {
      using T = typename decltype(type)::type;
      gloo::AllreduceOptions opts(context_);
      std::vector<T*> pointers;
      for (const Tensor& t : tensors) pointers.push_back(static_cast<T*>(t.data_ptr()));
      opts.setOutputs(pointers, static_cast<size_t>(tensors.front().numel()));
      opts.setReduceFunction(reduce_fn(dtype, op));
      opts.setTag(tag);
      opts.setTimeout(timeout);
      gloo::allreduce(opts);
    });
  }

  void reduce(const Tensor& tensor, ReduceOp op, int root, uint32_t tag,
              std::chrono::milliseconds timeout) override {
    kernels::dispatch_dtype(tensor.scalar_type(), "reduce", [&](auto type) {
      using T = typename decltype(type)::type;
      gloo::ReduceOptions opts(context_);
      opts.setOutput(static_cast<T*>(tensor.data_ptr()), static_cast<size_t>(tensor.numel()));
      opts.setRoot(root);
      opts.setReduceFunction(reduce_fn(tensor.scalar_type(), op));
      opts.setTag(tag);
      opts.setTimeout(timeout);
      gloo::reduce(opts);
    });
  }

  void broadcast(const Tensor& tensor, int root, uint32_t tag,
                 std::chrono::milliseconds timeout) override {
    gloo::BroadcastOptions opts(context_);
    opts.setOutput(bytes(tensor), nbytes(tensor));
    opts.setRoot(root);
    opts.setTag(tag);
    opts.setTimeout(timeout);
    gloo::broadcast(opts);
  }

  void allgather(const Tensor& input, const Tensor& output, uint32_t tag,
                 std::chrono::milliseconds timeout) override {
    gloo::AllgatherOptions opts(context_);
    opts.setInput(bytes(input), nbytes(input));
    opts.setOutput(bytes(output), nbytes(output));
    opts.setTag(tag);
    opts.setTimeout(timeout);
    gloo::allgather(opts);
  }

  void gather(const Tensor& input, const Tensor& output, int root, uint32_t tag,
              std::chrono::milliseconds timeout) override {
    gloo::GatherOptions opts(context_);
    opts.setInput(bytes(input), nbytes(input));
    if (output.defined()) opts.setOutput(bytes(output), nbytes(output));
    opts.setRoot(root);
    opts.setTag(tag);
    opts.setTimeout(timeout);
    gloo::gather(opts);
  }

  void scatter(const std::vector<Tensor>& inputs, const Tensor& output, int root, uint32_t tag,
               std::chrono::milliseconds timeout) override {
    gloo::ScatterOptions opts(context_);
    if (!inputs.empty()) {
      std::vector<uint8_t*> pointers;
      for (const Tensor& t : inputs) pointers.push_back(bytes(t));
      opts.setInputs(pointers, nbytes(output));
    }
    opts.setOutput(bytes(output), nbytes(output));
    opts.setRoot(root);
    opts.setTag(tag);
    opts.setTimeout(timeout);
    gloo::scatter(opts);
  }

  void alltoallv(const Tensor& input, const std::vector<int64_t>& input_counts,
                 const Tensor& output, const std::vector<int64_t>& output_counts, uint32_t tag,
                 std::chrono::milliseconds timeout) override {
    gloo::AlltoallvOptions opts(context_);
    const auto element_size = static_cast<int64_t>(input.element_size());
    auto in_bytes = input_counts, out_bytes = output_counts;
    for (int64_t& n : in_bytes) n *= element_size;
    for (int64_t& n : out_bytes) n *= element_size;
    opts.setInput(bytes(input), in_bytes);
    opts.setOutput(bytes(output), out_bytes);
    opts.setTag(tag);
    opts.setTimeout(timeout);
    gloo::alltoallv(opts);
  }

  void barrier(uint32_t tag, std::chrono::milliseconds timeout) override {
    gloo::BarrierOptions opts(context_);
    opts.setTag(tag);
    opts.setTimeout(timeout);
    gloo::barrier(opts);
  }

  std::unique_ptr<Transfer> send(const Tensor& tensor, int rank, uint64_t slot) override {
    auto buffer = context_->createUnboundBuffer(tensor.data_ptr(), nbytes(tensor));
    buffer->send(rank, slot);
    return std::make_unique<GlooTransfer>(std::move(buffer), false);
  }

  std::unique_ptr<Transfer> recv(const Tensor& tensor, int rank, uint64_t slot) override {
    auto buffer = context_->createUnboundBuffer(tensor.data_ptr(), nbytes(tensor));
    if (rank >= 0) {
      buffer->recv(rank, slot);
    } else {
      std::vector<int> ranks;
      for (int r = 0; r < context_->size; ++r) {
        if (r != context_->rank) ranks.push_back(r);
      }
      buffer->recv(ranks, slot);
    }
    return std::make_unique<GlooTransfer>(std::move(buffer), true);
  }

 private:
  std::shared_ptr<gloo::rendezvous::Context> context_;
};

}  // namespace

std::unique_ptr<GlooContext> connect_gloo(Store& store, int rank, int size,
                                          const std::string& hostname,
                                          std::chrono::milliseconds timeout) {
  auto device = make_device(hostname);
  auto context = std::make_shared<gloo::rendezvous::Context>(rank, size);
  context->setTimeout(timeout);
  StoreForGloo gloo_store(store);
  context->connectFullMesh(gloo_store, device);
  return std::make_unique<TcpGlooContext>(std::move(context));
}

}  // namespace detail
}  // namespace ember::distributed
