// cuda::device_memory_used through NVML, the driver's management library behind nvidia-smi.
//
// Note [Memory use without a context]
// cudaMemGetInfo answers only under a context on the device, and a context costs hundreds of
// MiB of the very memory being measured; a device table printed at start (ember-smi, ember-demo)
// would make one on every visible GPU. NVML reads the driver's figure for the whole device
// without one, as torch.cuda.device_memory_used does through pynvml (NVML's first memory query,
// whose "used" also counts what the driver reserves for itself). It is loaded with dlopen:
// libnvidia-ml.so.1 comes with the driver, not the toolkit, and ember must link and run without
// it (a container given only the "compute" driver capability lacks it). NVML numbers the GPUs
// physically, ignoring CUDA_VISIBLE_DEVICES, so devices are matched by PCI bus id; a MIG instance
// shares its GPU's bus id and NVML's figure for the whole GPU would not be the instance's, so
// under MIG the query is refused (PyTorch's does not support MIG either). The few
// declarations below are NVML's stable C ABI (its documented types; the toolkit here ships no
// nvml.h).
#include <string>

#include "core/check.h"
#include "core/shared_library.h"
#include "cuda/cuda_device.h"
#include "ember/cuda.h"

namespace ember::cuda {
namespace {

using NvmlReturn = int;  // nvmlReturn_t; NVML_SUCCESS is 0
using NvmlDevice = struct NvmlDeviceOpaque*;
struct NvmlMemory {  // nvmlMemory_t
  unsigned long long total, free, used;
};

class Nvml {
 public:
  static const Nvml& get() {
    // Loaded and initialised once, on first use, and never shut down: static destructors and
    // threads still running at exit may ask too (PyTorch never shuts NVML down either).
    static const Nvml* nvml = new Nvml();
    return *nvml;
  }

  int64_t used_bytes(const std::string& pci_bus_id) const {
    EMBER_CHECK(error_.empty(), "cuda::device_memory_used reads the driver's figures through ",
                "NVML, ", error_, ". Use cuda::mem_get_info(), which makes a CUDA context on the ",
                "device.");
    NvmlDevice device = nullptr;
    check(by_pci_bus_id_(pci_bus_id.c_str(), &device), "finding the GPU at PCI bus id ",
          pci_bus_id);
    unsigned mig_current = 0, mig_pending = 0;  // absent before MIG existed: no MIG then
    if (mig_mode_ != nullptr && mig_mode_(device, &mig_current, &mig_pending) == 0)
      EMBER_CHECK(mig_current == 0, "cuda::device_memory_used: the GPU at PCI bus id ", pci_bus_id,
                  " is partitioned into MIG instances and NVML cannot tell this instance's memory "
                  "use; use cuda::mem_get_info(), which makes a CUDA context on the device.");
    NvmlMemory memory{};
    check(memory_info_(device, &memory), "reading the memory use of the GPU at ", pci_bus_id);
    return static_cast<int64_t>(memory.used);
  }

 private:
  Nvml() {
    ::ember::detail::SharedLibrary library("libnvidia-ml.so.1", "a driver too old?");
    NvmlReturn (*init)() = nullptr;
    library.find(init, "nvmlInit_v2");
    library.find(error_string_, "nvmlErrorString", /*required=*/false);
    library.find(mig_mode_, "nvmlDeviceGetMigMode", /*required=*/false);
    library.find(by_pci_bus_id_, "nvmlDeviceGetHandleByPciBusId_v2");
    library.find(memory_info_, "nvmlDeviceGetMemoryInfo");
    if (!library.error().empty()) {
      error_ = "but libnvidia-ml.so.1 (installed with the NVIDIA driver) cannot be used: " +
               library.error();
      return;
    }
    const NvmlReturn status = init();
    if (status != 0) error_ = "but NVML failed to initialise: " + describe(status);
  }

  // "Insufficient Permissions (nvmlReturn_t 4)".
  std::string describe(NvmlReturn status) const {
    const char* name = error_string_ != nullptr ? error_string_(status) : "error";
    return ember::str(name, " (nvmlReturn_t ", status, ")");
  }

  void check(NvmlReturn status, const char* what, const std::string& bus_id) const {
    EMBER_CHECK(status == 0, "cuda::device_memory_used: NVML failed ", what, bus_id, ": ",
                describe(status));
  }

  std::string error_;  // why NVML cannot be used; empty when it can
  const char* (*error_string_)(NvmlReturn) = nullptr;
  NvmlReturn (*by_pci_bus_id_)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*mig_mode_)(NvmlDevice, unsigned*, unsigned*) = nullptr;
  NvmlReturn (*memory_info_)(NvmlDevice, NvmlMemory*) = nullptr;
};

}  // namespace

int64_t device_memory_used(int index) {
  const int i = impl::index_or_current(index);
  impl::check_index(i);
  return Nvml::get().used_bytes(impl::pci_bus_id(i));
}

}  // namespace ember::cuda
