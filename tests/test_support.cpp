// Shared helpers for the GoogleTest suites (linked into every suite). Intentionally empty for now.
