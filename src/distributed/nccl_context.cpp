// ProcessGroupNCCL's NCCL half (src/distributed/nccl_context.h), with NCCL loaded on first use.
//
// Note [NCCL loaded on first use]
// As cuBLAS (Note [cuBLAS loaded on first use] in cublas_api.h), libnccl.so.2 is not linked: a
// process that never makes an NCCL group never maps it, and a machine without it still runs the
// rest of ember. The first communicator dlopens it and looks up the calls below, whose types come
// from the toolkit's nccl.h.
#include <nccl.h>

#include <string>
#include <vector>

#include "core/check.h"
#include "core/shared_library.h"
#include "cuda/cuda_stream.h"
#include "distributed/nccl_context.h"
#include "ember/cuda.h"

namespace ember::distributed::detail {
namespace {

struct NcclApi {
  decltype(&ncclGetUniqueId) get_unique_id;
  decltype(&ncclCommInitRank) comm_init_rank;
  decltype(&ncclCommDestroy) comm_destroy;
  decltype(&ncclCommAbort) comm_abort;
  decltype(&ncclGetErrorString) error_string;
  decltype(&ncclAllReduce) all_reduce;
  decltype(&ncclBroadcast) broadcast;
  decltype(&ncclReduce) reduce;
  decltype(&ncclAllGather) all_gather;
  decltype(&ncclReduceScatter) reduce_scatter;
  decltype(&ncclSend) send;
  decltype(&ncclRecv) recv;
};

using ember::detail::LoadedApi;
using ember::detail::SharedLibrary;

constexpr const char* kLibrary = "libnccl.so.2";

LoadedApi<NcclApi> load() {
  return ember::detail::load_api<NcclApi>(kLibrary, "not NCCL 2.x?",
                                          [](SharedLibrary& library, NcclApi& api) {
                                            library.find(api.get_unique_id, "ncclGetUniqueId");
                                            library.find(api.comm_init_rank, "ncclCommInitRank");
                                            library.find(api.comm_destroy, "ncclCommDestroy");
                                            library.find(api.comm_abort, "ncclCommAbort");
                                            library.find(api.error_string, "ncclGetErrorString");
                                            library.find(api.all_reduce, "ncclAllReduce");
                                            library.find(api.broadcast, "ncclBroadcast");
                                            library.find(api.reduce, "ncclReduce");
                                            library.find(api.all_gather, "ncclAllGather");
                                            library.find(api.reduce_scatter, "ncclReduceScatter");
                                            library.find(api.send, "ncclSend");
                                            library.find(api.recv, "ncclRecv");
                                          });
}

const LoadedApi<NcclApi>& loaded() {
  static const auto* nccl = new LoadedApi<NcclApi>(load());  // communicators outlive static dtors
  return *nccl;
}

const NcclApi& nccl(const char* op) {
  const LoadedApi<NcclApi>& l = loaded();
  if (!l.error.empty()) [[unlikely]]
    ember::detail::fail<NotCompiledError>(
        "[ProcessGroupNCCL.", op, "] NCCL could not be loaded: ", l.error, ". Install NCCL (",
        kLibrary,
        ", with the CUDA toolkit or libnccl2) or add its directory to "
        "LD_LIBRARY_PATH; or use the gloo backend");
  return l.api;
}

void check(ncclResult_t result, const char* op) {
  if (result == ncclSuccess) [[likely]]
    return;
  ember::detail::fail<Error>("[ProcessGroupNCCL.", op,
                             "] NCCL failed: ", nccl(op).error_string(result),
                             ". NCCL_DEBUG=WARN says more; check that every rank issued the same "
                             "collective with the same dtype and size, each on its own GPU");
}

ncclDataType_t nccl_type(ScalarType type, const char* op) {
  if (type == kFloat32) return ncclFloat32;
  if (type == kFloat64) return ncclFloat64;
  if (type == kFloat16) return ncclFloat16;
  if (type == kBFloat16) return ncclBfloat16;
  if (type == kInt32) return ncclInt32;
  if (type == kInt64) return ncclInt64;
  if (type == kUInt8 || type == kBool) return ncclUint8;
  if (type == kInt8) return ncclInt8;
  ember::detail::fail<TypeError>("[ProcessGroupNCCL.", op, "] NCCL has no ", type,
                                 " type; convert the tensor to one it has (float32, float64, "
                                 "float16, bfloat16, int8, uint8, int32, int64)");
}

// SUM, AVG, PRODUCT, MIN and MAX; a bool's SUM and PRODUCT are its OR and AND, as PyTorch's.
ncclRedOp_t nccl_op(ReduceOp op, ScalarType type, const char* op_name) {
  const bool boolean = type == kBool;
  if (op == ReduceOp::SUM) return boolean ? ncclMax : ncclSum;
  if (op == ReduceOp::PRODUCT) return boolean ? ncclMin : ncclProd;
  if (op == ReduceOp::MIN) return ncclMin;
  if (op == ReduceOp::MAX) return ncclMax;
  if (op == ReduceOp::AVG) {
    EMBER_CHECK_T(TypeError, isFloatingType(type), "[ProcessGroupNCCL.", op_name,
                  "] ReduceOp::AVG needs floating tensors, got ", type, "; use SUM and divide");
    return ncclAvg;
  }
  ember::detail::fail<NotImplementedError>("[ProcessGroupNCCL.", op_name,
                                           "] NCCL has no bitwise reductions; use the gloo "
                                           "backend for BAND, BOR and BXOR");
}

size_t count(const Tensor& t) { return static_cast<size_t>(t.numel()); }
cudaStream_t native(const Stream& s) { return cuda::impl::native_stream(s); }

class CudaNcclContext final : public NcclContext {
 public:
  CudaNcclContext(ncclComm_t comm, Device device) : comm_(comm), device_(device) {}
  ~CudaNcclContext() override {
    if (comm_ == nullptr) return;  // aborted
    try {
      cuda::DeviceGuard on_device(device_);
      (void)loaded().api.comm_destroy(comm_);  // loaded, since comm_ exists
    } catch (const std::exception&) {
      // The CUDA runtime is going away with the process: so is the communicator.
    }
  }
  void abort() noexcept override {
    if (comm_ != nullptr) (void)loaded().api.comm_abort(comm_);
    comm_ = nullptr;
  }

  void all_reduce(const Tensor& in, const Tensor& out, ReduceOp op, const Stream& stream) override {
    check(nccl("allreduce")
              .all_reduce(in.data_ptr(), out.data_ptr(), count(in),
                          nccl_type(in.scalar_type(), "allreduce"),
                          nccl_op(op, in.scalar_type(), "allreduce"), comm_, native(stream)),
          "allreduce");
  }
  void broadcast(const Tensor& tensor, int root, const Stream& stream) override {
    check(nccl("broadcast")
              .broadcast(tensor.data_ptr(), tensor.data_ptr(), count(tensor),
                         nccl_type(tensor.scalar_type(), "broadcast"), root, comm_, native(stream)),
          "broadcast");
  }
  void reduce(const Tensor& tensor, ReduceOp op, int root, const Stream& stream) override {
    check(nccl("reduce").reduce(tensor.data_ptr(), tensor.data_ptr(), count(tensor),
                                nccl_type(tensor.scalar_type(), "reduce"),
                                nccl_op(op, tensor.scalar_type(), "reduce"), root, comm_,
                                native(stream)),
          "reduce");
  }
  void all_gather(const Tensor& in, const Tensor& out, const Stream& stream) override {
    check(nccl("allgather")
              .all_gather(in.data_ptr(), out.data_ptr(), count(in),
                          nccl_type(in.scalar_type(), "allgather"), comm_, native(stream)),
          "allgather");
  }
  void reduce_scatter(const Tensor& in, const Tensor& out, ReduceOp op,
                      const Stream& stream) override {
    check(nccl("reduce_scatter")
              .reduce_scatter(in.data_ptr(), out.data_ptr(), count(out),
                              nccl_type(out.scalar_type(), "reduce_scatter"),
                              nccl_op(op, out.scalar_type(), "reduce_scatter"), comm_,
                              native(stream)),
          "reduce_scatter");
  }
  void send(const Tensor& tensor, int peer, const Stream& stream) override {
    check(nccl("send").send(tensor.data_ptr(), count(tensor),
                            nccl_type(tensor.scalar_type(), "send"), peer, comm_, native(stream)),
          "send");
  }
  void recv(const Tensor& tensor, int peer, const Stream& stream) override {
    check(nccl("recv").recv(tensor.data_ptr(), count(tensor),
                            nccl_type(tensor.scalar_type(), "recv"), peer, comm_, native(stream)),
          "recv");
  }

 private:
  ncclComm_t comm_;
  Device device_;
};

}  // namespace

std::unique_ptr<NcclContext> connect_nccl(Store& store, const std::string& key, int rank, int size,
                                          Device device) {
  const NcclApi& api = nccl("connect");
  ncclUniqueId id;
  if (rank == 0) {
    check(api.get_unique_id(&id), "connect");
    const auto* bytes = reinterpret_cast<const uint8_t*>(&id);
    store.set(key, std::vector<uint8_t>(bytes, bytes + sizeof id));
  } else {
    const std::vector<uint8_t> bytes = store.get(key);  // waits for rank 0, up to the timeout
    EMBER_CHECK(bytes.size() == sizeof id, "[ProcessGroupNCCL.connect] the store's '", key,
                "' holds ", bytes.size(), " bytes, not an NCCL id of ", sizeof id,
                "; another program uses this store key?");
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t*>(&id));
  }
  cuda::DeviceGuard on_device(device);
  ncclComm_t comm = nullptr;
  check(api.comm_init_rank(&comm, size, id, rank), "connect");
  return std::make_unique<CudaNcclContext>(comm, device);
}

bool nccl_loadable() noexcept { return loaded().error.empty(); }

}  // namespace ember::distributed::detail
