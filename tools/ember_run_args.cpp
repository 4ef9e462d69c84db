// ember-run's command line (ember_run_args.h): parsing and the checks on each value.
#include "ember_run_args.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

const char* run_usage() {
  return "usage: ember-run [--nproc N] [--nnodes M --node-rank R --master-addr A --master-port P]\n"
         "                 [--timeout S] [--] prog [args...]\n"
         "  Starts N copies of prog, as torchrun does, each with RANK, WORLD_SIZE, LOCAL_RANK,\n"
         "  LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR and MASTER_PORT set, and prefixes each line\n"
         "  they print with [rankR]. When one exits non-zero or is killed, the others are stopped\n"
         "  and ember-run exits with its status.\n"
         "  --nproc N        processes on this node (default 1; also --nproc-per-node)\n"
         "  --nnodes M       nodes in the job, each running ember-run (default 1)\n"
         "  --node-rank R    this node's rank, 0 to M-1 (default 0)\n"
         "  --master-addr A  the address of rank 0's node (default 127.0.0.1)\n"
         "  --master-port P  its port (default 29500; 0 picks a free port, with --nnodes 1 only)\n"
         "  --timeout S      stop the ranks after S seconds and exit 124 (default: no limit)\n"
         "  Options also take the form --name=value.\n";
}

namespace {

// An integer option's value in [min, max], or a message naming the option.
std::string parse_int(const std::string& name, const std::string& text, long min, long max,
                      int& out) {
  errno = 0;
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max) {
    return name + " must be a whole number from " + std::to_string(min) + " to " +
           std::to_string(max) + ", got '" + text + "'";
  }
  out = static_cast<int>(value);
  return "";
}

}  // namespace

std::string parse_run_args(int argc, char** argv, RunOptions& options, bool& help) {
  help = false;
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "--help" || arg == "-h") {
      help = true;
      return "";
    }
    if (arg.rfind("-", 0) != 0) break;  // the program: what follows is its own
    std::string name = arg;
    std::string value;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return name + " needs a value";
    }
    std::string error;
    if (name == "--nproc" || name == "--nproc-per-node") {
      error = parse_int(name, value, 1, 4096, options.nproc);
    } else if (name == "--nnodes") {
      error = parse_int(name, value, 1, 65536, options.nnodes);
    } else if (name == "--node-rank") {
      error = parse_int(name, value, 0, 65535, options.node_rank);
    } else if (name == "--master-addr") {
      if (value.empty()) error = "--master-addr must not be empty";
      options.master_addr = value;
    } else if (name == "--master-port") {
      error = parse_int(name, value, 0, 65535, options.master_port);
    } else if (name == "--timeout") {
      char* end = nullptr;
      options.timeout_s = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !std::isfinite(options.timeout_s) ||
          options.timeout_s <= 0) {
        error = "--timeout must be a number of seconds above 0, got '" + value + "'";
      }
    } else {
      error = "unknown option '" + name + "'";
    }
    if (!error.empty()) return error;
  }
  if (options.node_rank >= options.nnodes) {
    return "--node-rank must be below --nnodes (" + std::to_string(options.nnodes) + "), got " +
           std::to_string(options.node_rank);
  }
  if (static_cast<long long>(options.nproc) * options.nnodes > INT_MAX) {
    return "--nproc times --nnodes is more ranks than an int holds";
  }
  // Another node's ember-run cannot learn a port picked here.
  if (options.master_port == 0 && options.nnodes > 1) {
    return "--master-port 0 (pick a free port) needs --nnodes 1; give the port all nodes use";
  }
  if (i >= argc) return "no program to run (usage: ember-run [options] prog [args...])";
  options.command.assign(argv + i, argv + argc);
  return "";
}
