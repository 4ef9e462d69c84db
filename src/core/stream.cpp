// Stream, its guard and the current-stream functions: device-generic, through the backend of the
// stream's device type (Note [One Stream and Event for every device] in ember/stream.h).
#include "ember/stream.h"

#include <ostream>

#include "core/backend.h"

namespace ember {
namespace {

detail::DeviceBackend& backend_of(const Stream& stream) {
  return detail::backend(stream.device_type());
}

}  // namespace

bool Stream::query() const { return backend_of(*this).query_stream(*this); }
void Stream::synchronize() const { backend_of(*this).synchronize_stream(*this); }
void Stream::wait_event(const Event& event) const { event.wait(*this); }
void Stream::wait_stream(const Stream& other) const { wait_event(other.record_event()); }

Event Stream::record_event() const {
  Event event(device_type());
  event.record(*this);
  return event;
}

std::ostream& operator<<(std::ostream& os, const Stream& stream) {
  const auto flags = os.flags();
  os << "stream 0x" << std::hex << stream.id();
  os.flags(flags);
  return os << " on device " << stream.device();
}

Stream current_stream(Device device) {
  const Device d = detail::resolve_device(device);
  return detail::backend(d.type()).current_stream(d.index());
}

Stream default_stream(Device device) {
  return Stream::unchecked(detail::resolve_device(device), 0);
}

Stream get_stream_from_pool(Device device, bool high_priority) {
  const Device d = detail::resolve_device(device);
  return detail::backend(d.type()).stream_from_pool(d.index(), high_priority);
}

void set_stream(const Stream& stream) {
  detail::DeviceBackend& b = backend_of(stream);
  b.set_device(stream.device().index());
  (void)b.exchange_stream(stream);
}

void synchronize(Device device) {
  const Device d = detail::resolve_device(device);
  detail::backend(d.type()).synchronize(d.index());
}

// The device is set first: if that throws, nothing has changed.
StreamGuard::StreamGuard(const Stream& stream)
    : previous_stream_(stream), previous_device_(backend_of(stream).current_device()) {
  detail::DeviceBackend& b = backend_of(stream);
  b.set_device(stream.device().index());
  previous_stream_ = b.exchange_stream(stream);
}

StreamGuard::~StreamGuard() {
  detail::DeviceBackend& b = backend_of(previous_stream_);
  (void)b.exchange_stream(previous_stream_);
  b.unchecked_set_device(previous_device_);
}

namespace cuda {

Stream current_stream(int device) { return ::ember::current_stream(Device::cuda(device)); }
Stream default_stream(int device) { return ::ember::default_stream(Device::cuda(device)); }
Stream get_stream_from_pool(int device, bool high_priority) {
  return ::ember::get_stream_from_pool(Device::cuda(device), high_priority);
}

}  // namespace cuda
}  // namespace ember
