// TCPStore: each operation is one request to the server and its reply over the store's
// connection. A wait is parked at the server until its keys exist; when the client's timeout
// passes first, the client cancels it and learns which keys are still missing.
#include "ember/distributed/tcp_store.h"

#include <cerrno>
#include <system_error>
#include <thread>
#include <utility>

#include "distributed/socket.h"
#include "distributed/store_util.h"
#include "distributed/tcp_protocol.h"
#include "distributed/tcp_server.h"
#include "ember/error.h"
#include "ember/string_util.h"

namespace ember::distributed {

namespace detail {

// The client's end of the connection: sends requests and reads the parts of their replies, each
// failure an Error naming the operation and the server.
class TCPClient {
 public:
  TCPClient(const std::string& host, uint16_t port, std::chrono::milliseconds timeout)
      : socket_(connect_to(host, port, timeout)), where_(str(host, ":", port)) {}

  const std::string& where() const { return where_; }

  void send(const char* op, const WireWriter& request) {
    if (!send_all(socket_.fd(), request.data().data(), request.data().size()))
      lost(op, std::system_category().message(errno));
  }

  // Sends `request` and reads its reply's status (see expect_reply).
  void call(const char* op, const WireWriter& request, std::chrono::milliseconds timeout) {
    send(op, request);
    expect_reply(op, timeout);
  }

  // Reads a reply's status, throwing the server's Error; the reads of the rest of the reply, and
  // this one, wait up to `timeout` from now.
  void expect_reply(const char* op, std::chrono::milliseconds timeout) {
    op_ = op;
    timeout_ = timeout;
    deadline_ = deadline_after(timeout);
    auto status = static_cast<Status>(u8());
    if (status == Status::kError) {
      std::string message;
      read_string(message);
      throw Error(message);
    }
    if (status != Status::kOk) protocol_error(op);
  }

  bool readable_before(const Deadline& deadline) { return wait_readable(socket_.fd(), deadline); }

  uint8_t u8() {
    uint8_t value = 0;
    read(&value, 1);
    return value;
  }
  int64_t i64() {
    uint8_t bytes[8];
    read(bytes, sizeof(bytes));
    WireReader in(bytes, sizeof(bytes));
    int64_t value = 0;
    in.i64(value);
    return value;
  }
  std::vector<uint8_t> bytes() {
    std::vector<uint8_t> value(length());
    read(value.data(), value.size());
    return value;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> values(length());
    for (std::string& value : values) read_string(value);
    return values;
  }

  // The server answered `op` with something this client never asks for.
  [[noreturn]] void protocol_error(const char* op) {
    throw Error(str("[", op, "] the store server at ", where_,
                    " sent a reply that does not fit the request; is another program listening on "
                    "that port, or a server of another ember version?"));
  }

 private:
  size_t length() {
    auto length = static_cast<uint64_t>(i64());
    if (length > kMaxFieldBytes) protocol_error(op_);
    return static_cast<size_t>(length);
  }

  void read_string(std::string& value) {
    value.resize(length());
    read(value.data(), value.size());
  }

  void read(void* data, size_t size) {
    switch (recv_exact(socket_.fd(), data, size, deadline_)) {
      case RecvResult::kOk: return;
      case RecvResult::kClosed: lost(op_, "it closed the connection");
      case RecvResult::kFailed: lost(op_, std::system_category().message(errno));
      case RecvResult::kTimedOut:
        throw Error(str("[", op_, "] the store server at ", where_, " did not answer within ",
                        timeout_.count(),
                        " ms; rank 0, which runs it, may be stuck or overloaded"));
    }
  }

  [[noreturn]] void lost(const char* op, const std::string& why) {
    throw Error(str("[", op, "] lost the connection to the store server at ", where_, " (", why,
                    "); rank 0, which runs it, may have exited or failed"));
  }

  Socket socket_;
  std::string where_;
  const char* op_ = "TCPStore";
  std::chrono::milliseconds timeout_{};
  Deadline deadline_;
};

}  // namespace detail

using detail::Command;
using detail::WaitReply;
using detail::WireWriter;

namespace {

WireWriter request(Command command) {
  WireWriter out;
  out.u8(static_cast<uint8_t>(command));
  return out;
}

}  // namespace

TCPStore::TCPStore(std::string host, const TCPStoreOptions& opts)
    : Store(opts.timeout), host_(std::move(host)), port_(opts.port), numWorkers_(opts.numWorkers) {
  if (opts.isServer) {
    server_ = detail::TCPServer::start(opts.port, opts.multiTenant);
    port_ = server_->port();
  }
  client_ = std::make_unique<detail::TCPClient>(host_, port_, timeout_);
  if (opts.waitWorkers) waitForWorkers();
}

// The client closes its connection before the server, if this store runs it, stops.
TCPStore::~TCPStore() = default;

void TCPStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  std::lock_guard<std::mutex> lock(activeOpLock_);
  WireWriter out = request(Command::kSet);
  out.str(key);
  out.bytes(value);
  client_->call("TCPStore.set", out, timeout_);
}

std::vector<uint8_t> TCPStore::compareSet(const std::string& key,
                                          const std::vector<uint8_t>& expectedValue,
                                          const std::vector<uint8_t>& desiredValue) {
  std::lock_guard<std::mutex> lock(activeOpLock_);
  WireWriter out = request(Command::kCompareSet);
  out.str(key);
  out.bytes(expectedValue);
  out.bytes(desiredValue);
  client_->call("TCPStore.compareSet", out, timeout_);
  return client_->bytes();
}

std::vector<uint8_t> TCPStore::get(const std::string& key) {
  std::lock_guard<std::mutex> lock(activeOpLock_);
  // A key deleted between the wait and the read is waited for again.
  while (true) {
    doWait("TCPStore.get", {key}, timeout_);
    WireWriter out = request(Command::kGet);
    out.str(key);
    client_->call("TCPStore.get", out, timeout_);
    bool found = client_->u8() != 0;
    std::vector<uint8_t> value = client_->bytes();
    if (found) return value;
  }
}

int64_t TCPStore::add(const std::string& key, int64_t value) {
  std::lock_guard<std::mutex> lock(activeOpLock_);
  WireWriter out = request(Command::kAdd);
  out.str(key);
  out.i64(value);
  client_->call("TCPStore.add", out, timeout_);
  return client_->i64();
}

bool TCPStore::deleteKey(const std::string& key) {
  std::lock_guard<std::mutex> lock(activeOpLock_);
  WireWriter out = request(Command::kDeleteKey);
  out.str(key);
  client_->call("TCPStore.deleteKey", out, timeout_);
  return client_->u8() != 0;
}

bool TCPStore::check(const std::vector<std::string>& keys) {
  std::lock_guard<std::mutex> lock(activeOpLock_);
  WireWriter out = request(Command::kCheck);
  out.strs(keys);
  client_->call("TCPStore.check", out, timeout_);
  return client_->u8() != 0;
}

int64_t TCPStore::getNumKeys() {
  std::lock_guard<std::mutex> lock(activeOpLock_);
  client_->call("TCPStore.getNumKeys", request(Command::kNumKeys), timeout_);
  return client_->i64();
}

void TCPStore::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void TCPStore::wait(const std::vector<std::string>& keys,
                    const std::chrono::milliseconds& timeout) {
  std::lock_guard<std::mutex> lock(activeOpLock_);
  doWait("TCPStore.wait", keys, timeout);
}

void TCPStore::doWait(const char* op, const std::vector<std::string>& keys,
                      std::chrono::milliseconds timeout) {
  WireWriter out = request(Command::kWait);
  out.strs(keys);
  client_->send(op, out);
  if (client_->readable_before(detail::deadline_after(timeout))) {
    client_->expect_reply(op, timeout_);
    if (static_cast<WaitReply>(client_->u8()) != WaitReply::kReady) client_->protocol_error(op);
    return;
  }
  client_->call(op, request(Command::kCancelWait), timeout_);
  auto answer = static_cast<WaitReply>(client_->u8());
  if (answer == WaitReply::kReady) {
    // The keys came as the time ran out: the wait succeeded, and the cancel's reply follows.
    client_->expect_reply(op, timeout_);
    if (static_cast<WaitReply>(client_->u8()) != WaitReply::kCancelled || !client_->strs().empty())
      client_->protocol_error(op);
    return;
  }
  if (answer != WaitReply::kCancelled) client_->protocol_error(op);
  detail::throw_wait_timeout(op, timeout, client_->strs(), "on " + client_->where());
}

void TCPStore::waitForWorkers() {
  if (!numWorkers_) return;
  std::lock_guard<std::mutex> lock(activeOpLock_);
  if (!joined_) {
    client_->call("TCPStore.waitForWorkers", request(Command::kJoin), timeout_);
    client_->i64();
    joined_ = true;
  }
  // Only the server's store waits, as in LibTorch: the others learn of missing ranks when their
  // own waits time out.
  if (!server_) return;
  detail::Deadline deadline = detail::deadline_after(timeout_);
  while (true) {
    client_->call("TCPStore.waitForWorkers", request(Command::kNumWorkers), timeout_);
    int64_t joined = client_->i64();
    if (joined >= static_cast<int64_t>(*numWorkers_)) return;
    if (detail::has_passed(deadline))
      throw Error(str("[TCPStore.waitForWorkers] only ", joined, " of ", *numWorkers_,
                      " workers joined the store at ", client_->where(), " within ",
                      timeout_.count(),
                      " ms; the others have not started, cannot reach this machine, or have "
                      "failed (check that every rank started with the same MASTER_ADDR and "
                      "MASTER_PORT, or set a longer timeout)"));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace ember::distributed
