// Scenes and data locations shared by the suites and the benchmarks (see scenes.h).
#include "scenes.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace voxnav::test {

const char* shared_data_dir() {
  static const char* const dir = [] {
    const char* env = std::getenv("VOXNAV_SHARED_DATA_DIR");
    return env && *env ? env : VOXNAV_SHARED_DATA_DEFAULT;
  }();
  return dir;
}

bool shared_data_present() {
  struct stat st {};
  return stat(shared_data_dir(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f),
                                   std::istreambuf_iterator<char>());
}

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Profile bat_profile() {
  Profile p;
  p.id = "bat";
  p.movement_class = MovementClass::Flyer;
  p.can_fly = true;
  p.jump_apex = 0;
  return p;
}

}  // namespace voxnav::test
