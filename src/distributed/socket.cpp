// Sockets over POSIX: IPv4, blocking I/O for whole messages, poll() for deadlines.
#include "distributed/socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <thread>
#include <utility>

#include "ember/error.h"
#include "ember/string_util.h"

namespace ember::distributed::detail {

namespace {

std::string os_error(int errnum) { return std::system_category().message(errnum); }

// Connects `fd` within `deadline` (a connect() to a machine that does not answer would otherwise
// block for minutes); returns 0 or the errno of the failure.
int connect_within(int fd, const sockaddr* address, socklen_t length, const Deadline& deadline) {
  int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  int err = 0;
  if (::connect(fd, address, length) != 0) {
    err = errno;
    if (err == EINPROGRESS) {
      pollfd entry{fd, POLLOUT, 0};
      int ready = 0;
      do ready = ::poll(&entry, 1, poll_timeout_ms(deadline));
      while (ready < 0 && errno == EINTR);
      socklen_t err_length = sizeof(err);
      if (ready == 0) err = ETIMEDOUT;
      else if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &err_length) != 0) err = errno;
    }
  }
  ::fcntl(fd, F_SETFL, flags);
  return err;
}

}  // namespace

Socket::~Socket() {
  if (fd_ >= 0) ::close(fd_);
}

Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

int Socket::release() noexcept { return std::exchange(fd_, -1); }

Listener listen_on(uint16_t port) {
  Socket socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (socket.fd() < 0)
    throw Error(str("[TCPStore] cannot create the server's socket: ", os_error(errno)));
  // A server restarted on its port must not wait out the old connections' TIME_WAIT.
  int one = 1;
  ::setsockopt(socket.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  address.sin_port = htons(port);
  if (::bind(socket.fd(), reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    int err = errno;
    if (err == EADDRINUSE)
      throw Error(str("[TCPStore] cannot start the store server: port ", port,
                      " is already in use on this machine (by another store server or another "
                      "program); pick another port (MASTER_PORT), or use port 0 to let the system "
                      "choose a free one"));
    throw Error(
        str("[TCPStore] cannot start the store server on port ", port, ": ", os_error(err)));
  }
  if (::listen(socket.fd(), SOMAXCONN) != 0)
    throw Error(str("[TCPStore] cannot listen on port ", port, ": ", os_error(errno)));
  socklen_t length = sizeof(address);
  if (::getsockname(socket.fd(), reinterpret_cast<sockaddr*>(&address), &length) != 0)
    throw Error(str("[TCPStore] cannot read the server's port: ", os_error(errno)));
  return Listener{std::move(socket), ntohs(address.sin_port)};
}

Socket connect_to(const std::string& host, uint16_t port, std::chrono::milliseconds timeout) {
  Deadline deadline = deadline_after(timeout);
  std::chrono::milliseconds pause(10);
  std::string last_error;
  while (true) {
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
    if (rc != 0) {
      last_error = str("cannot resolve '", host, "': ", ::gai_strerror(rc));
    } else {
      for (addrinfo* info = found; info != nullptr; info = info->ai_next) {
        Socket socket(
            ::socket(info->ai_family, info->ai_socktype | SOCK_CLOEXEC, info->ai_protocol));
        if (socket.fd() < 0) {
          last_error = os_error(errno);
          continue;
        }
        int err = connect_within(socket.fd(), info->ai_addr, info->ai_addrlen, deadline);
        if (err == 0) {
          ::freeaddrinfo(found);
          // Requests are small and answered one at a time: Nagle's delay would add up.
          int one = 1;
          ::setsockopt(socket.fd(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
          return socket;
        }
        last_error = os_error(err);
      }
      ::freeaddrinfo(found);
    }
    if (has_passed(deadline))
      throw Error(str("[TCPStore] cannot connect to the store server at ", host, ":", port,
                      " within ", timeout.count(), " ms (last attempt: ", last_error,
                      "); check that MASTER_ADDR and MASTER_PORT name rank 0's machine and the "
                      "port of its store, and that rank 0 is running"));
    auto left =
        deadline ? std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()) : pause;
    std::this_thread::sleep_for(std::clamp(left, std::chrono::milliseconds(0), pause));
    pause = std::min(pause * 2, std::chrono::milliseconds(1000));
  }
}

bool send_all(int fd, const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  while (size > 0) {
    ssize_t sent = ::send(fd, bytes, size, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0) return false;
    bytes += sent;
    size -= static_cast<size_t>(sent);
  }
  return true;
}

bool wait_readable(int fd, const Deadline& deadline) {
  pollfd entry{fd, POLLIN, 0};
  while (true) {
    int ready = ::poll(&entry, 1, poll_timeout_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    return ready != 0;
  }
}

RecvResult recv_exact(int fd, void* data, size_t size, const Deadline& deadline) {
  auto* bytes = static_cast<uint8_t*>(data);
  while (size > 0) {
    if (!wait_readable(fd, deadline)) return RecvResult::kTimedOut;
    ssize_t got = ::recv(fd, bytes, size, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return RecvResult::kFailed;
    if (got == 0) return RecvResult::kClosed;
    bytes += got;
    size -= static_cast<size_t>(got);
  }
  return RecvResult::kOk;
}

}  // namespace ember::distributed::detail
