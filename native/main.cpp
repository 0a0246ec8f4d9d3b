// Placeholder for the voxnav command-line tool (replaced by the real CLI).
#include <cstdio>

int main() {
  std::puts("voxnav: not built yet");
  return 0;
}
