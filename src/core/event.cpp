// Event: the checks and the lazy creation of c10's events (CUDAEvent for the messages, InlineEvent
// for the device-type checks), over the backend of its device type.
#include <utility>

#include "core/backend.h"
#include "core/check.h"
#include "ember/stream.h"

namespace ember {
namespace {

// c10's DeviceTypeName, which PyTorch's event messages use.
const char* type_name(DeviceType type) { return type == DeviceType::CPU ? "CPU" : "CUDA"; }

void check_type(DeviceType event, DeviceType other, const char* op, const char* what) {
  EMBER_CHECK(event == other, "[", op, "] Event device type ", type_name(event), " does not match ",
              what, " device type ", type_name(other), ".");
}

}  // namespace

Event::Event(DeviceType type, bool enable_timing, bool blocking, bool interprocess)
    : type_(type), enable_timing_(enable_timing), blocking_(blocking), interprocess_(interprocess) {
  EMBER_CHECK_T(ValueError, !(enable_timing && interprocess),
                "[Event] an interprocess event cannot have enable_timing=true (CUDA cannot time "
                "events shared between processes)");
}

Event::~Event() {
  if (native_ != nullptr) detail::backend(type_).destroy_event(native_, index_);
}

Event::Event(Event&& other) noexcept
    : native_(std::exchange(other.native_, nullptr)),
      type_(other.type_),
      index_(other.index_),
      enable_timing_(other.enable_timing_),
      blocking_(other.blocking_),
      interprocess_(other.interprocess_) {}

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    Event old(std::move(*this));  // destroys this event's backend event on leaving
    native_ = std::exchange(other.native_, nullptr);
    type_ = other.type_;
    index_ = other.index_;
    enable_timing_ = other.enable_timing_;
    blocking_ = other.blocking_;
    interprocess_ = other.interprocess_;
  }
  return *this;
}

std::optional<Device> Event::device() const {
  if (native_ == nullptr) return std::nullopt;
  return Device(type_, index_);
}

void Event::record() { record(current_stream(Device(type_))); }

void Event::record(const Stream& stream) {
  check_type(type_, stream.device_type(), "Event.record", "recording stream's");
  detail::DeviceBackend& b = detail::backend(type_);
  const int index = stream.device().index();
  if (native_ == nullptr) {
    native_ = b.create_event(index, {enable_timing_, blocking_, interprocess_});
    index_ = index;
  }
  EMBER_CHECK(index_ == index, "[Event.record] Event device ", index_,
              " does not match recording stream's device ", index, ".");
  b.record_event(native_, stream);
}

void Event::wait() const { wait(current_stream(Device(type_))); }

void Event::wait(const Stream& stream) const {
  if (native_ == nullptr) return;  // nothing recorded: nothing to wait for
  check_type(type_, stream.device_type(), "Event.wait", "blocking stream's");
  detail::backend(type_).block_event(native_, stream);
}

bool Event::query() const {
  return native_ == nullptr || detail::backend(type_).query_event(native_);
}

void Event::synchronize() const {
  if (native_ != nullptr) detail::backend(type_).synchronize_event(native_);
}

double Event::elapsed_time(const Event& end) const {
  check_type(type_, end.type_, "Event.elapsed_time", "other's");
  EMBER_CHECK_T(ValueError, enable_timing_ && end.enable_timing_,
                "[Event.elapsed_time] Both events must be created with argument "
                "'enable_timing=True'.");
  EMBER_CHECK_T(ValueError, native_ != nullptr && end.native_ != nullptr,
                "[Event.elapsed_time] Both events must be recorded before calculating elapsed "
                "time.");
  EMBER_CHECK(query() && end.query(),
              "[Event.elapsed_time] Both events must be completed before calculating elapsed "
              "time.");
  return detail::backend(type_).elapsed_ms(native_, end.native_, index_);
}

}  // namespace ember
