// voxnav - the job executor a host gives the library (voxnav never starts threads of its own).
#pragma once
#include <functional>

namespace voxnav {

/// A job receives the index of the worker running it (0 .. worker_count()-1); voxnav uses it to
/// pick that worker's search arena. Jobs only read navigation data that stays unchanged until
/// the next World::update(), which first waits for every job (wait_idle).
using Job = std::function<void(int worker)>;

/// Where navigation jobs (path searches) run. Natively `voxnav::native::ThreadPool` (two worker
/// threads, `voxnav/native/thread_pool.h`); in wasm without threads, or when no executor is given,
/// jobs run synchronously at dispatch. Results are applied at the same tick whichever executor runs
/// them, so every executor gives bit-identical simulations.
class Executor {
 public:
  virtual ~Executor() = default;
  /// Number of workers. [Limit: 1..3] (a World keeps one search arena per worker, three at most)
  virtual int worker_count() const = 0;
  /// Starts a job (a synchronous executor runs it before returning).
  virtual void submit(Job job) = 0;
  /// Blocks until every submitted job has finished.
  virtual void wait_idle() = 0;
};

}  // namespace voxnav
