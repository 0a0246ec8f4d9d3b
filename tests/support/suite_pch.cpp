// Compiles tests/support/suite_pch.h into the precompiled header the suites reuse.
