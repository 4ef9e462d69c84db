// ember-run's supervision of one node's ranks.
#pragma once

#include "ember_run_args.h"

// Runs options.command as options.nproc ranks, each in a process group of its own with torchrun's
// variables set, passes their output on prefixed with [rankR], and returns ember-run's exit
// status: 0 when every rank exits 0; else the first failing rank's status (128 + S for a rank
// killed by signal S), 127 when the program cannot be run, 124 past --timeout, 128 + S after a
// SIGINT or SIGTERM (S), which is passed on to the ranks. `signal_fd`: the non-blocking read end
// of a pipe on which each SIGINT, SIGTERM and SIGCHLD ember-run receives arrives as one byte.
int run_ranks(const RunOptions& options, int signal_fd);
