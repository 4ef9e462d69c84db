// ember-run's command line: what it accepts (torchrun's launch options, by the same names) and the
// checks that turn a mistake into a message naming the argument, before any process starts.
#pragma once

#include <string>
#include <vector>

struct RunOptions {
  int nproc = 1;   // processes on this node (torchrun's --nproc-per-node)
  int nnodes = 1;  // nodes in the job, each running its own ember-run
  int node_rank = 0;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;           // 0: ember-run picks a free one (single node only)
  double timeout_s = 0;              // 0: no limit on the job's wall-clock time
  std::vector<std::string> command;  // the program and its arguments
};

// The usage text that --help prints.
const char* run_usage();

// Parses argv[1..argc). Returns "" and fills `options`, or returns the message for a bad command
// line (the caller prints it and exits 2). --help sets `help` and returns "".
std::string parse_run_args(int argc, char** argv, RunOptions& options, bool& help);
