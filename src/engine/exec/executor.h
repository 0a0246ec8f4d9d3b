// The job system the engine is given. The engine never creates threads: hosts pass an Executor.
#pragma once
#include <functional>

namespace voxnav::detail {

/// A job receives the index of the worker running it (0 .. worker_count()-1), which selects that
/// worker's scratch (search arena slot). Jobs must only read shared navigation data.
using Job = std::function<void(int worker)>;

class Executor {
 public:
  virtual ~Executor() = default;
  /// Number of workers (>= 1). Worker indices are 0 .. worker_count()-1.
  virtual int worker_count() const = 0;
  /// Starts a job (may run it before returning, as the synchronous executor does).
  virtual void submit(Job job) = 0;
  /// Blocks until every submitted job has finished.
  virtual void wait_idle() = 0;
};

/// Runs every job at submit, on the calling thread (wasm without threads, tests, lockstep).
class SyncExecutor final : public Executor {
 public:
  int worker_count() const override { return 1; }
  void submit(Job job) override { job(0); }
  void wait_idle() override {}
};

}  // namespace voxnav::detail
