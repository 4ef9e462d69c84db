// TCPStore's sockets: descriptors closed on destruction, the server's listening socket, a client's
// connection retried until rank 0's server is up, and whole-buffer sends and receives.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "distributed/store_util.h"

namespace ember::distributed::detail {

class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket();
  Socket(Socket&& other) noexcept : fd_(other.release()) {}
  Socket& operator=(Socket&& other) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  int fd() const { return fd_; }
  int release() noexcept;

 private:
  int fd_ = -1;
};

struct Listener {
  Socket socket;
  uint16_t port;  // the one bound, which the system picked when 0 was asked for
};

// Listens on every IPv4 interface at `port`; 0 lets the system pick a free port. Throws an Error
// naming the port when it is in use.
Listener listen_on(uint16_t port);

// Connects to host:port (a name or an IPv4 address), trying again while nobody listens there yet,
// for up to `timeout` (Store::kNoTimeout: forever): the other ranks may start before rank 0.
Socket connect_to(const std::string& host, uint16_t port, std::chrono::milliseconds timeout);

// Sends all `size` bytes; false (errno set) when the connection is gone.
bool send_all(int fd, const void* data, size_t size);

enum class RecvResult { kOk, kClosed, kTimedOut, kFailed };
// Receives exactly `size` bytes, waiting until `deadline`; kFailed leaves errno set.
RecvResult recv_exact(int fd, void* data, size_t size, const Deadline& deadline);

// Waits until `fd` has bytes to read (or is closed); false when `deadline` passes first.
bool wait_readable(int fd, const Deadline& deadline);

}  // namespace ember::distributed::detail
