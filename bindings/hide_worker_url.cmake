# Post-link step of the threaded glue (cmake -DGLUE=<voxnav-mt.mjs> -P hide_worker_url.cmake).
#
# Emscripten 3.1.6's glue starts its pthread with new Worker(new URL("voxnav-mt.worker.js",
# import.meta.url)) when no locateFile is given (Node). Bundlers take that literal pattern as a
# worker entry and bundle the CommonJS pthread script, which requires Node built-ins (webpack 5
# stops there; Vite bundles it and inlines it). In browsers the package's loader always passes
# locateFile with the script's own URL (web/lib/loader.mjs), so the pattern only has to stay
# correct in Node: the glue's own `_scriptDir` (import.meta.url, kept at its top) is the same
# value, and no bundler takes `new URL(literal, identifier)` for a worker or an asset (webpack
# does read import.meta["url"] as import.meta.url).
file(READ "${GLUE}" text)
set(pattern [[new Worker(new URL("voxnav-mt.worker.js",import.meta.url))]])
set(hidden [[new Worker(new URL("voxnav-mt.worker.js",_scriptDir))]])
string(FIND "${text}" "var _scriptDir = import.meta.url" scoped)
if(scoped EQUAL -1)
  message(FATAL_ERROR "hide_worker_url.cmake: ${GLUE} does not set _scriptDir from import.meta.url (a new Emscripten?)")
endif()
string(FIND "${text}" "${pattern}" at)
if(at EQUAL -1)
  string(FIND "${text}" "${hidden}" done)
  if(done EQUAL -1)
    message(FATAL_ERROR "hide_worker_url.cmake: the pthread Worker pattern is not in ${GLUE} (a new Emscripten?)")
  endif()
  return()
endif()
string(REPLACE "${pattern}" "${hidden}" text "${text}")
file(WRITE "${GLUE}" "${text}")
