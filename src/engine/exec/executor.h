// The engine's view of the host-provided executor (see voxnav/executor.h).
#pragma once
#include "voxnav/executor.h"

namespace voxnav::detail {

using Job = voxnav::Job;
using Executor = voxnav::Executor;

/// Runs every job at submit, on the calling thread (wasm without threads, tests, lockstep).
class SyncExecutor final : public Executor {
 public:
  int worker_count() const override { return 1; }
  void submit(Job job) override { job(0); }
  void wait_idle() override {}
};

}  // namespace voxnav::detail
