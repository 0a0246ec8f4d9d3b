// voxnav bindings - a one-thread executor for the threaded wasm build (-pthread).
//
// Implements voxnav::Executor with one std::thread (one Emscripten pthread, taken from the pool
// that -sPTHREAD_POOL_SIZE=1 creates at start-up). Jobs run in submission order on that thread;
// wait_idle() blocks the caller until the queue is empty and no job runs.
#pragma once
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "voxnav/executor.h"

namespace voxnav::bindings {

class ThreadExecutor final : public Executor {
 public:
  ThreadExecutor();
  ~ThreadExecutor() override;
  ThreadExecutor(const ThreadExecutor&) = delete;
  ThreadExecutor& operator=(const ThreadExecutor&) = delete;

  int worker_count() const override { return 1; }
  void submit(Job job) override;
  void wait_idle() override;

  /// Jobs run so far (for stats and tests: proves the thread runs them).
  unsigned long long jobs_run() const;

 private:
  void loop();
  mutable std::mutex mu_;
  std::condition_variable work_cv_, idle_cv_;
  std::deque<Job> queue_;
  bool busy_ = false;
  bool stop_ = false;
  unsigned long long jobs_run_ = 0;
  std::thread thread_;
};

}  // namespace voxnav::bindings
