// ember::distributed: training across processes and machines (torch.distributed, and LibTorch's
// c10d classes): stores for the ranks to meet, process groups that run collectives, and the
// functions over the default group. Programs start under ember-run, which sets each rank's
// environment.
#pragma once

#include "ember/distributed/collectives.h"
#include "ember/distributed/file_store.h"
#include "ember/distributed/hash_store.h"
#include "ember/distributed/prefix_store.h"
#include "ember/distributed/process_group.h"
#include "ember/distributed/process_group_gloo.h"
#include "ember/distributed/store.h"
#include "ember/distributed/tcp_store.h"
#include "ember/distributed/types.h"
#include "ember/distributed/work.h"
