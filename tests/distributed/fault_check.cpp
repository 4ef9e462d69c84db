// Faults of a world of two processes, without ember-run (which would stop the survivor itself):
// the program forks before anything else runs, and the two halves meet through a TCP store on a
// port chosen by the parent.
//   fault_check killed-rank: rank 1 is killed (SIGKILL) after one broadcast; rank 0's next
//     all_reduce must fail within its timeout + 1 s, naming rank 1 and its last collective.
//   fault_check world-never-fills: rank 1 never starts; rank 0's init_process_group must fail
//     within its timeout + 1 s, saying how many ranks joined.
// Exits 1 after printing what did not hold.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include "check_util.h"
#include "ember/ember.h"

namespace dist = ember::distributed;
using Clock = std::chrono::steady_clock;

namespace {

using ember::check::error_of;

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  ++failures;
  std::cerr << "fault_check: " << what << '\n';
}

// A port nobody listens on now (the kernel's pick for a socket bound to port 0).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

void join(int rank, std::chrono::milliseconds timeout) {
  dist::init_process_group("gloo", "env://", timeout, 2, rank);
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int killed_rank() {
  const pid_t child = ::fork();
  const int rank = child == 0 ? 1 : 0;
  join(rank, std::chrono::seconds(2));
  ember::Tensor t = ember::ones({4});
  dist::broadcast(t, 0);
  if (rank == 1) ::raise(SIGKILL);
  const Clock::time_point start = Clock::now();
  const std::string message = error_of([&] { dist::all_reduce(t); });
  const double took = seconds_since(start);
  expect(took < 3.0, "the survivor failed after " + std::to_string(took) + " s, past 2 s + 1 s");
  expect(
      message.rfind("[ProcessGroupGloo] allreduce #1 Float[4] on rank 0 of a group of 2", 0) == 0 &&
          message.find("rank 1 has not entered it (its last: broadcast #0 Float[4])") !=
              std::string::npos,
      "the survivor's error: " + message);
  int status = 0;
  ::waitpid(child, &status, 0);
  expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "rank 1 was not killed");
  return failures == 0 ? 0 : 1;
}

int world_never_fills() {
  const Clock::time_point start = Clock::now();
  const std::string message = error_of([] { join(0, std::chrono::seconds(1)); });
  const double took = seconds_since(start);
  expect(took < 2.0, "init_process_group failed after " + std::to_string(took) + " s, past 1 + 1");
  expect(message.find("1 of 2") != std::string::npos, "the error: " + message);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string fault = argc > 1 ? argv[1] : "";
  const std::string port = std::to_string(free_port());
  ::setenv("MASTER_ADDR", "127.0.0.1", 1);
  ::setenv("MASTER_PORT", port.c_str(), 1);
  if (fault == "killed-rank") return killed_rank();
  if (fault == "world-never-fills") return world_never_fills();
  std::cerr << "usage: fault_check killed-rank|world-never-fills\n";
  return 2;
}
