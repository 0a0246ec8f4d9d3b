// Helpers shared by the GoogleTest suites, built once as the static library voxnav_test_support.
// Put declarations in tests/test_support.h. Being a static library, a file-scope object here that
// no suite references is not linked in: register gtest environments from the suites themselves.
