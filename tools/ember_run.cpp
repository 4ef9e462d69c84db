// ember-run: ember's torchrun. It starts N processes of one program on this node, each with the
// variables torch.distributed's env:// rendezvous reads (RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT), prefixes every line they print with
// [rankR], and when one rank fails stops the others and exits with that rank's status.
// Usage: ember-run --nproc N [--nnodes M --node-rank R --master-addr A --master-port P]
//                  [--timeout S] prog args...   (ember-run --help says more)
// Plain POSIX, not linked with ember: it runs any program, ember's or not. This file: main and
// --master-port 0; ember_run_args.* read the command line, ember_run_job.* supervise the ranks.
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include "ember_run_args.h"
#include "ember_run_job.h"

namespace {

// Signals reach the poll() loop through this pipe: a handler may do little more than write().
int signal_pipe[2] = {-1, -1};

void on_signal(int sig) {
  int saved = errno;
  unsigned char byte = static_cast<unsigned char>(sig);
  if (write(signal_pipe[1], &byte, 1) < 0) {
  }  // a full pipe already holds a wake-up
  errno = saved;
}

// Picks a free TCP port on `addr` for --master-port 0: binds port 0, asks which port it got and
// frees it for rank 0 to take. Returns 0 and sets `error` where it cannot.
int pick_free_port(const std::string& addr, std::string& error) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (int rc = getaddrinfo(addr.c_str(), "0", &hints, &found); rc != 0) {
    error = gai_strerror(rc);
    return 0;
  }
  int port = 0;
  for (addrinfo* a = found; a != nullptr && port == 0; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    sockaddr_storage bound{};
    socklen_t size = sizeof bound;
    if (fd >= 0 && bind(fd, a->ai_addr, a->ai_addrlen) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &size) == 0) {
      port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                               : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    } else {
      error = std::strerror(errno);
    }
    if (fd >= 0) close(fd);
  }
  freeaddrinfo(found);
  return port;
}

}  // namespace

int main(int argc, char** argv) {
  RunOptions options;
  bool help = false;
  std::string error = parse_run_args(argc, argv, options, help);
  if (!error.empty()) {
    std::fprintf(stderr, "ember-run: %s (try --help)\n", error.c_str());
    return 2;
  }
  if (help) {
    std::fputs(run_usage(), stdout);
    return 0;
  }
  if (options.master_port == 0) {
    options.master_port = pick_free_port(options.master_addr, error);
    if (options.master_port == 0) {
      std::fprintf(stderr,
                   "ember-run: --master-port 0: cannot bind a port on --master-addr '%s': %s\n",
                   options.master_addr.c_str(), error.c_str());
      return 2;
    }
  }
  if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    std::perror("ember-run: pipe");
    return 1;
  }
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGCHLD}) sigaction(sig, &action, nullptr);
  return run_ranks(options, signal_pipe[0]);
}
