#include "thread_executor.h"

#include <utility>

namespace voxnav::bindings {

ThreadExecutor::ThreadExecutor() : thread_([this] { loop(); }) {}

ThreadExecutor::~ThreadExecutor() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ThreadExecutor::submit(Job job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(job));
  }
  work_cv_.notify_one();
}

void ThreadExecutor::wait_idle() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

unsigned long long ThreadExecutor::jobs_run() const {
  std::lock_guard<std::mutex> lock(mu_);
  return jobs_run_;
}

void ThreadExecutor::loop() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stop_ and nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    job(0);
    {
      std::lock_guard<std::mutex> lock(mu_);
      busy_ = false;
      ++jobs_run_;
      if (queue_.empty()) idle_cv_.notify_all();
    }
  }
}

}  // namespace voxnav::bindings
