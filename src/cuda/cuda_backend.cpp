// The CUDA DeviceBackend and ember::cuda's queries, over the CUDA runtime API (no kernels here).
//
// Note [Lazy CUDA contexts]
// Nothing touches CUDA until a query or a tensor needs it, and a device gets a context only when
// ember works on it (allocate, copy, synchronize, mem_get_info, streams and events) or the user
// selects it with set_device / DeviceGuard / StreamGuard. The current device is ember's own
// per-thread index (PyTorch keeps a similar "target" index): a guard that restores a device with
// no context yet records the index instead of calling cudaSetDevice, which since CUDA 12 would
// create a context there.
//
// Note [Device count]
// cudaGetDeviceCount is asked once and cached with the reason it failed; the driver reads
// CUDA_VISIBLE_DEVICES only at its initialisation, so the answer cannot change afterwards. On a
// machine without a GPU or a driver every query answers "no GPU" and everything that needs one
// throws "No CUDA GPUs are available: <reason>".
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/check.h"
#include "core/host_caching_allocator.h"
#include "core/sync_debug.h"
#include "cuda/cuda_check.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_stream.h"
#include "cuda/kernel_error.h"
#include "cuda/launch.h"
#include "ember/cuda.h"

namespace ember {
namespace {

using cuda::impl::check_index;
using cuda::impl::index_or_current;
using cuda::impl::kMaxDevices;
using cuda::impl::RuntimeDeviceScope;

std::string visible_devices() {
  const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
  return v ? ember::str("'", v, "'") : std::string("unset");
}

std::string cuda_version_str(int v) { return ember::str(v / 1000, ".", (v % 1000) / 10); }

struct Probe {
  int count = 0;
  std::string reason;  // empty when count > 0
};

Probe run_probe() {
  Probe p;
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err == cudaSuccess && n > 0) {
    p.count = n < kMaxDevices ? n : kMaxDevices;
    return p;
  }
  (void)cudaGetLastError();
  const char* cvd = std::getenv("CUDA_VISIBLE_DEVICES");
  if (err == cudaSuccess) {
    p.reason = ember::str("0 CUDA devices visible (CUDA_VISIBLE_DEVICES=", visible_devices(), ")");
    return p;
  }
  std::string call = ember::str("cudaGetDeviceCount: ", cudaGetErrorString(err));
  int driver = 0, runtime = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
  (void)cudaGetLastError();
  if (driver == 0) {
    p.reason = ember::str("no NVIDIA driver found (", call, ")");
  } else if (err == cudaErrorInsufficientDriver) {
    p.reason = ember::str("the NVIDIA driver is too old: it supports CUDA ",
                          cuda_version_str(driver), " but ember was built with the CUDA ",
                          cuda_version_str(runtime), " runtime (", call, ")");
  } else if (err == cudaErrorNoDevice && cvd != nullptr) {
    p.reason = ember::str("0 CUDA devices visible (CUDA_VISIBLE_DEVICES=", visible_devices(), "; ",
                          call, ")");
    return p;
  } else if (err == cudaErrorNoDevice) {
    p.reason = ember::str("no CUDA GPU found (", call, ")");
  } else {
    p.reason = ember::str("CUDA initialization failed (", call, ")");
  }
  if (cvd != nullptr) p.reason += ember::str(" (CUDA_VISIBLE_DEVICES=", visible_devices(), ")");
  return p;
}

const Probe& probe() noexcept {
  static const Probe p = run_probe();
  return p;
}

// Devices on which ember made a context (Note [Lazy CUDA contexts]).
std::array<std::atomic<bool>, kMaxDevices> g_active{};
// ember's current device of this thread; -1 until first asked (then the runtime's, usually 0).
thread_local int tl_device = -1;

void require_gpu() {
  const Probe& p = probe();
  if (p.count == 0) [[unlikely]]
    ::ember::detail::fail<CudaError>("No CUDA GPUs are available: ", p.reason,
                                     "; use ember::try_gpu() to fall back to the CPU");
}

int current_index() {
  require_gpu();
  if (tl_device < 0) {
    int d = 0;
    EMBER_CUDA_CHECK(cudaGetDevice(&d));
    tl_device = d;
  }
  return tl_device;
}

// Makes `index` the runtime's current device of this thread (creating its context on first use)
// and returns the one that was current. Every launch comes here (RuntimeDeviceScope), so it asks
// the runtime once and writes the shared flag only the first time.
int activate(int index) {
  int previous = -1;
  EMBER_CUDA_CHECK(cudaGetDevice(&previous));
  if (previous != index) EMBER_CUDA_CHECK(cudaSetDevice(index), "while selecting cuda:", index);
  std::atomic<bool>& active = g_active[static_cast<size_t>(index)];
  if (!active.load(std::memory_order_relaxed)) active.store(true, std::memory_order_relaxed);
  return previous;
}

void set_current(int index) {
  if (index < 0) return;  // torch.cuda.set_device: a negative index is a no-op
  check_index(index);
  (void)activate(index);
  tl_device = index;
}

void unchecked_set_current(int index) noexcept {
  if (index < 0 || index >= kMaxDevices) return;
  tl_device = index;
  if (g_active[static_cast<size_t>(index)].load(std::memory_order_relaxed)) {
    (void)cudaSetDevice(index);
    (void)cudaGetLastError();
  }
}

class CudaBackend final : public detail::DeviceBackend {
 public:
  int device_count() const noexcept override { return probe().count; }
  int current_device() override { return current_index(); }
  void set_device(int index) override { set_current(index); }
  void unchecked_set_device(int index) noexcept override { unchecked_set_current(index); }
  void check_device(Device device) override {
    check_index(device.has_index() ? device.index() : current_index());
  }
  detail::Allocator& allocator(int index) override {
    check_index(index);
    return cuda::impl::device_allocator(index);
  }
  detail::Allocator& host_allocator() override {
    require_gpu();
    return cuda::impl::host_allocator();
  }

  void synchronize(int index) override {
    int i = index_or_current(index);
    check_index(i);
    RuntimeDeviceScope scope(i);
    EMBER_CUDA_CHECK(cudaDeviceSynchronize(), "while synchronizing cuda:", i);
    cuda::impl::raise_kernel_errors();
  }

  Stream current_stream(int index) override { return cuda::impl::current_stream(index); }
  Stream exchange_stream(const Stream& stream) noexcept override {
    return cuda::impl::exchange_stream(stream);
  }
  Stream stream_from_pool(int index, bool high_priority) override {
    return cuda::impl::stream_from_pool(index, high_priority);
  }
  bool query_stream(const Stream& stream) override { return cuda::impl::query_stream(stream); }
  void synchronize_stream(const Stream& stream) override { cuda::impl::synchronize_stream(stream); }

  void* create_event(int index, detail::EventFlags flags) override {
    return cuda::impl::create_event(index, flags);
  }
  void destroy_event(void* event, int index) noexcept override {
    cuda::impl::destroy_event(event, index);
  }
  void record_event(void* event, const Stream& stream) override {
    cuda::impl::record_event(event, stream);
  }
  void block_event(void* event, const Stream& stream) override {
    cuda::impl::block_event(event, stream);
  }
  bool query_event(void* event) override { return cuda::impl::query_event(event); }
  void synchronize_event(void* event) override { cuda::impl::synchronize_event(event); }
  double elapsed_ms(void* start, void* end, int index) override {
    return cuda::impl::elapsed_ms(start, end, index);
  }

  void record_stream(void* data, const Stream& stream) override {
    cuda::impl::record_stream(stream.device().index(), data, stream.id());
  }

 private:
  // Note [CUDA copies]
  // As PyTorch's copy_: on the current stream of the GPU involved, and a copy to or from the host
  // with non_blocking=false then waits for that stream (an implicit host sync, see
  // cuda::set_sync_debug_mode). With non_blocking=true the host does not wait for the copy:
  // - From the host, pinned memory (pin_memory()) is read asynchronously; its caching allocator
  //   learns that the copy's stream uses the block, so that a free before the copy is done does
  //   not let the next tensor's bytes into it (Note [Caching host allocator policy]). Pageable
  //   memory is first staged by CUDA, so the host buffer may be reused when the call returns.
  // - To the host, pinned memory (Tensor::to(cpu, non_blocking=true) allocates its result there,
  //   as PyTorch's _to_copy) is written asynchronously. Unlike PyTorch, ember then returns the
  //   copy's completion, which copy_ hangs on the destination storage: its first host access
  //   waits for it (Note [Safe non-blocking copies to the host]), and the block is held back from
  //   reuse as above. A from_blob buffer page-locked by its owner is treated the same way. Into
  //   pageable memory the copy stays synchronous: CUDA returns once the bytes have arrived.
  std::unique_ptr<detail::PendingWrite> copy_bytes(void* dst, Device dst_device, const void* src,
                                                   Device src_device, size_t nbytes,
                                                   bool non_blocking) override {
    if (nbytes == 0) return nullptr;
    EMBER_INTERNAL_ASSERT(dst_device.is_cuda() || src_device.is_cuda());
    if (dst_device.is_cuda() && src_device.is_cuda() && dst_device.index() != src_device.index()) {
      copy_between_gpus(dst, dst_device, src, src_device, nbytes);
      return nullptr;
    }
    const Device gpu = dst_device.is_cuda() ? dst_device : src_device;
    check_index(gpu.index());
    RuntimeDeviceScope scope(gpu.index());
    const Stream stream = cuda::impl::current_stream(gpu.index());
    const cudaStream_t native = cuda::impl::native_stream(stream);
    const cudaMemcpyKind kind = !src_device.is_cuda()   ? cudaMemcpyHostToDevice
                                : !dst_device.is_cuda() ? cudaMemcpyDeviceToHost
                                                        : cudaMemcpyDeviceToDevice;
    const bool host_waits = !non_blocking && kind != cudaMemcpyDeviceToDevice;
    if (host_waits)
      detail::note_host_sync("copy_",
                             ember::str("a blocking copy from ", src_device, " to ", dst_device));
    EMBER_CUDA_CHECK(cudaMemcpyAsync(dst, src, nbytes, kind, native), "copying ", nbytes,
                     " bytes from ", src_device, " to ", dst_device);
    if (host_waits) {
      EMBER_CUDA_CHECK(cudaStreamSynchronize(native), "waiting for the copy from ", src_device,
                       " to ", dst_device);
      cuda::impl::raise_kernel_errors();
      return nullptr;
    }
    cuda::impl::after_launch("copy_", native);
    if (kind == cudaMemcpyDeviceToDevice) return nullptr;
    // False, and nothing to hold back, for memory that is not ember's pinned memory.
    const bool pinned = cuda::impl::host_allocator().record_stream(
        kind == cudaMemcpyHostToDevice ? src : dst, stream);
    if (kind == cudaMemcpyHostToDevice) return nullptr;
    if (!(pinned || cuda::impl::is_page_locked(dst))) {
      cuda::impl::raise_kernel_errors();  // the host holds the bytes now: a wait like any other
      return nullptr;
    }
    return detail::pending_copy(stream, src_device, dst_device);
  }

  // Note [Peer access]
  // cudaMemcpyPeerAsync moves the bytes directly over NVLink or PCIe only when the copying
  // device's context has peer access to the other one; otherwise CUDA stages them through host
  // memory. As PyTorch, the first copy between two GPUs enables that access where the hardware
  // allows it (cuda::can_device_access_peer), once per ordered pair, and never disables it. A pair
  // is done once that succeeded or the hardware said no; a failure throws, and the next copy
  // between the two tries again.
  static void enable_peer_access(int from, int to) {
    static std::mutex mutex;
    static std::vector<bool> done(size_t{kMaxDevices} * kMaxDevices);
    const size_t pair = static_cast<size_t>(from) * kMaxDevices + static_cast<size_t>(to);
    std::lock_guard<std::mutex> lock(mutex);
    if (done[pair]) return;
    if (cuda::can_device_access_peer(from, to)) {
      RuntimeDeviceScope scope(from);
      const cudaError_t err = cudaDeviceEnablePeerAccess(to, 0);
      if (err == cudaErrorPeerAccessAlreadyEnabled)
        (void)cudaGetLastError();  // by the program itself: fine
      else EMBER_CUDA_CHECK(err, "while enabling peer access from cuda:", from, " to cuda:", to);
    }
    done[pair] = true;
  }

  // PyTorch's two-way barrier: the copy runs on the source's current stream once the
  // destination's current stream has reached it, and the destination's stream waits for the copy,
  // so later work on either device sees the bytes and earlier work on neither is overtaken. The
  // host never waits.
  static void copy_between_gpus(void* dst, Device dst_device, const void* src, Device src_device,
                                size_t nbytes) {
    check_index(dst_device.index());
    check_index(src_device.index());
    enable_peer_access(src_device.index(), dst_device.index());
    const Stream copy_stream = cuda::impl::current_stream(src_device.index());
    const Stream dst_stream = cuda::impl::current_stream(dst_device.index());
    copy_stream.wait_stream(dst_stream);
    {
      RuntimeDeviceScope scope(src_device.index());
      EMBER_CUDA_CHECK(cudaMemcpyPeerAsync(dst, dst_device.index(), src, src_device.index(), nbytes,
                                           cuda::impl::native_stream(copy_stream)),
                       "copying ", nbytes, " bytes from ", src_device, " to ", dst_device);
      cuda::impl::after_launch("copy_", cuda::impl::native_stream(copy_stream));
    }
    dst_stream.wait_stream(copy_stream);
  }
};

CudaBackend& the_backend() {
  static CudaBackend* b = new CudaBackend();
  return *b;
}

}  // namespace

namespace cuda::impl {

// Validates an ordinal before any CUDA call that would take it.
void check_index(int index) {
  require_gpu();
  int n = probe().count;
  if (index >= 0 && index < n) [[likely]]
    return;
  ::ember::detail::fail<CudaError>(
      "CUDA error: invalid device ordinal: cuda:", index, " was requested but ", n,
      n == 1 ? " CUDA device is" : " CUDA devices are",
      " visible (CUDA_VISIBLE_DEVICES=", visible_devices(), "); valid devices are ",
      n == 1 ? std::string("cuda:0") : ember::str("cuda:0 to cuda:", n - 1));
}

RuntimeDeviceScope::RuntimeDeviceScope(int index) {
  (void)current_index();  // pins this thread's current device before the runtime's moves
  const int previous = activate(index);
  if (previous != index) previous_ = previous;
}

RuntimeDeviceScope::RuntimeDeviceScope(int index, std::nothrow_t) noexcept {
  int previous = -1;
  if (cudaGetDevice(&previous) != cudaSuccess) previous = -1;
  if (tl_device < 0) tl_device = previous;  // pins it as above
  if (previous != index) {
    (void)cudaSetDevice(index);
    previous_ = previous;
  }
}

// Only a scope that moved the runtime's device moves it back, and a previous device without a
// context is left alone: ember's own current device is tl_device, not the runtime's.
RuntimeDeviceScope::~RuntimeDeviceScope() {
  if (previous_ < 0 || previous_ >= kMaxDevices) return;
  if (g_active[static_cast<size_t>(previous_)].load(std::memory_order_relaxed))
    (void)cudaSetDevice(previous_);
  (void)cudaGetLastError();
}

int index_or_current(int index) { return index < 0 ? current_index() : index; }

// Reductions plan every launch by it; the attribute needs no context.
int multiprocessor_count(int index) {
  static std::array<std::atomic<int>, kMaxDevices> counts{};  // 0: not asked yet
  std::atomic<int>& count = counts[static_cast<size_t>(index)];
  int n = count.load(std::memory_order_relaxed);
  if (n == 0) {
    EMBER_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, index),
                     "while asking cuda:", index, " for its multiprocessor count");
    count.store(n, std::memory_order_relaxed);
  }
  return n;
}

std::string pci_bus_id(int index) {
  char bus[32] = {};
  EMBER_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, static_cast<int>(sizeof bus), index),
                   "while querying cuda:", index);
  return bus;
}

int device_with_context() noexcept {
  const int current = tl_device >= 0 && tl_device < kMaxDevices ? tl_device : 0;
  if (g_active[static_cast<size_t>(current)].load(std::memory_order_relaxed)) return current;
  for (int i = 0; i < kMaxDevices; ++i)
    if (g_active[static_cast<size_t>(i)].load(std::memory_order_relaxed)) return i;
  return current;
}

}  // namespace cuda::impl

namespace detail {
DeviceBackend* make_cuda_backend() { return &the_backend(); }
}  // namespace detail

namespace cuda {

bool is_available() noexcept { return probe().count > 0; }
int device_count() noexcept { return probe().count; }
bool built_with_cuda() noexcept { return true; }
std::string unavailable_reason() { return probe().reason; }

int current_device() { return current_index(); }
void set_device(int index) { set_current(index); }
void synchronize(int index) { the_backend().synchronize(index); }

DeviceProperties get_device_properties(int index) {
  int i = index_or_current(index);
  check_index(i);
  cudaDeviceProp prop{};
  EMBER_CUDA_CHECK(cudaGetDeviceProperties(&prop, i), "while querying cuda:", i);
  DeviceProperties p;
  p.name = prop.name;
  p.total_memory = prop.totalGlobalMem;
  p.major = prop.major;
  p.minor = prop.minor;
  p.multi_processor_count = prop.multiProcessorCount;
  p.pci_bus_id = impl::pci_bus_id(i);
  return p;
}

std::string get_device_name(int index) { return get_device_properties(index).name; }

bool can_device_access_peer(int device, int peer) {
  check_index(device);
  check_index(peer);
  int can = 0;
  EMBER_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, device, peer),
                   "while asking whether cuda:", device, " can access cuda:", peer);
  return can != 0 && device != peer;
}

MemInfo mem_get_info(int index) {
  int i = index_or_current(index);
  check_index(i);
  RuntimeDeviceScope scope(i);
  MemInfo m;
  EMBER_CUDA_CHECK(cudaMemGetInfo(&m.free, &m.total), "while querying cuda:", i);
  return m;
}

DeviceGuard::DeviceGuard(int index) {
  if (index < 0) return;  // like torch.cuda.device(None)
  int previous = current_index();
  set_current(index);
  previous_ = previous;
}

// Device("cuda") means the current device, as in torch.cuda.device(torch.device("cuda")).
DeviceGuard::DeviceGuard(Device device)
    : DeviceGuard(device.is_cuda() ? (device.has_index() ? device.index() : current_index()) : -1) {
}

DeviceGuard::~DeviceGuard() {
  if (previous_ >= 0) unchecked_set_current(previous_);
}

}  // namespace cuda
}  // namespace ember
