// voxnav - the job executor a host gives the library (voxnav never starts threads of its own).
#pragma once
#include <functional>

namespace voxnav {

/// A job receives the index of the worker running it (0 .. worker_count()-1; voxnav does not
/// rely on it). Jobs only read navigation data that stays unchanged until the next
/// World::update(), which first waits for every job (wait_idle).
using Job = std::function<void(int worker)>;

/// Most searches one movement class of a World runs at once: its search jobs each own one search
/// arena (memory for one A* search), min(worker_count(), kMaxSearchWorkers) of them, and take
/// the update's requests one by one until none is left. More workers than this leave the others
/// free for other jobs (chunk builds).
inline constexpr int kMaxSearchWorkers = 8;

/// Where navigation jobs (path searches) run. Natively `voxnav::native::ThreadPool` (two worker
/// threads, `voxnav/native/thread_pool.h`); in wasm without threads, or when no executor is given,
/// jobs run synchronously at dispatch. Results are applied at the same tick whichever executor runs
/// them, so every executor gives bit-identical simulations.
class Executor {
 public:
  virtual ~Executor() = default;
  /// Number of workers, asked at every World::update() (it may change between updates).
  /// [Limit: any; below 1 counts as 1; searches use at most kMaxSearchWorkers of them] A World
  /// runs that many search jobs per update, each with its own search arena (arenas are made on
  /// first use and kept), so results never depend on the count, nor on the worker indices.
  virtual int worker_count() const = 0;
  /// Starts a job (a synchronous executor runs it before returning).
  virtual void submit(Job job) = 0;
  /// Blocks until every submitted job has finished.
  virtual void wait_idle() = 0;
};

}  // namespace voxnav
