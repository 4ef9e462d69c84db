// The CUDA side of a build without CUDA: every query answers "no GPU" without throwing, and
// anything that needs a GPU throws NotCompiledError saying how to get one.
#include "core/backend.h"
#include "core/check.h"
#include "ember/cuda.h"
#include "kernels/register.h"

namespace ember {
namespace {

constexpr const char* kNotCompiled =
    "[ember] built without CUDA support; reconfigure with -DEMBER_CUDA=ON (needs the CUDA "
    "toolkit) to use cuda devices, or use ember::try_gpu() to fall back to the CPU";

[[noreturn]] void not_compiled() { throw NotCompiledError(kNotCompiled); }

class NoCudaBackend final : public detail::DeviceBackend {
 public:
  int device_count() const noexcept override { return 0; }
  int current_device() override { not_compiled(); }
  void set_device(int) override { not_compiled(); }
  void unchecked_set_device(int) noexcept override {}
  void check_device(Device) override { not_compiled(); }
  detail::Allocator& allocator(int) override { not_compiled(); }
  detail::Allocator& host_allocator() override { not_compiled(); }
  void synchronize(int) override { not_compiled(); }

  // No CUDA stream or event can exist: every way to get one asks current_device() first.
  Stream current_stream(int) override { not_compiled(); }
  Stream exchange_stream(const Stream& stream) noexcept override { return stream; }
  Stream stream_from_pool(int, bool) override { not_compiled(); }
  bool query_stream(const Stream&) override { not_compiled(); }
  void synchronize_stream(const Stream&) override { not_compiled(); }
  void* create_event(int, detail::EventFlags) override { not_compiled(); }
  void destroy_event(void*, int) noexcept override {}
  void record_event(void*, const Stream&) override { not_compiled(); }
  void block_event(void*, const Stream&) override { not_compiled(); }
  bool query_event(void*) override { not_compiled(); }
  void synchronize_event(void*) override { not_compiled(); }
  double elapsed_ms(void*, void*, int) override { not_compiled(); }
  void record_stream(void*, const Stream&) override { not_compiled(); }

 private:
  std::unique_ptr<detail::PendingWrite> copy_bytes(void*, Device, const void*, Device, size_t,
                                                   bool) override {
    not_compiled();
  }
};

}  // namespace

namespace detail {
DeviceBackend* make_cuda_backend() { return new NoCudaBackend(); }
void register_cuda_kernels() {}
}  // namespace detail

namespace cuda {

bool is_available() noexcept { return false; }
int device_count() noexcept { return 0; }
bool built_with_cuda() noexcept { return false; }
std::string unavailable_reason() { return "ember was built without CUDA"; }
int current_device() { not_compiled(); }
void set_device(int) { not_compiled(); }
void synchronize(int) { not_compiled(); }
std::string get_device_name(int) { not_compiled(); }
DeviceProperties get_device_properties(int) { not_compiled(); }
MemInfo mem_get_info(int) { not_compiled(); }
int64_t device_memory_used(int) { not_compiled(); }
bool can_device_access_peer(int, int) { not_compiled(); }

// As torch.cuda's memory API before CUDA is initialised; a summary names a device, so it throws.
int64_t memory_allocated(int) { return 0; }
int64_t max_memory_allocated(int) { return 0; }
int64_t memory_reserved(int) { return 0; }
int64_t max_memory_reserved(int) { return 0; }
void reset_peak_memory_stats(int) {}
void reset_accumulated_memory_stats(int) {}
void empty_cache() {}
std::map<std::string, int64_t> memory_stats(int) { return {}; }
std::map<std::string, int64_t> host_memory_stats() { return {}; }
std::string memory_summary(int, bool) { not_compiled(); }

// Like torch.cuda.device(None): a negative index or a CPU device is a no-op.
DeviceGuard::DeviceGuard(int index) {
  if (index >= 0) not_compiled();
}
DeviceGuard::DeviceGuard(Device device)
    : DeviceGuard(device.is_cuda() ? std::max(device.index(), 0) : -1) {}
DeviceGuard::~DeviceGuard() = default;

}  // namespace cuda
}  // namespace ember
