// The headers nearly every suite includes, precompiled once per build (tests/CMakeLists.txt,
// voxnav_suite_pch) and reused by each suite: GoogleTest alone is about a quarter of a suite's
// compile time. Only headers that do not change with the library belong here.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>
