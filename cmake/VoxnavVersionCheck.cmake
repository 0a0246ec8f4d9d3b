# voxnav_check_web_version(WEB_DIR VERSION): the npm package in WEB_DIR must carry VERSION (the
# project's version) in package.json, package-lock.json and index.mjs's `version` export. A
# mismatch stops the configure step, naming the file, so the C++ library and the npm package can
# never be released with different versions. The files are configure dependencies: editing one
# re-runs this check at the next build.
function(_voxnav_expect_version where found expected)
  if(NOT found STREQUAL expected)
    message(FATAL_ERROR "voxnav: ${where} has version '${found}', but project(voxnav VERSION) is "
      "${expected}: the npm package and the C++ library carry one version; change both.")
  endif()
endfunction()

function(voxnav_check_web_version web_dir version)
  set(_manifest ${web_dir}/package.json)
  if(NOT EXISTS ${_manifest})
    return()  # no npm package in this tree
  endif()
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_manifest})
  file(READ ${_manifest} _json)
  string(JSON _v ERROR_VARIABLE _err GET "${_json}" version)
  _voxnav_expect_version("${_manifest}" "${_v}" ${version})

  set(_lock ${web_dir}/package-lock.json)
  if(EXISTS ${_lock})
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_lock})
    file(READ ${_lock} _json)
    string(JSON _v ERROR_VARIABLE _err GET "${_json}" version)
    _voxnav_expect_version("${_lock} (\"version\")" "${_v}" ${version})
    string(JSON _v ERROR_VARIABLE _err GET "${_json}" packages "" version)
    _voxnav_expect_version("${_lock} (packages[\"\"].version)" "${_v}" ${version})
  endif()

  set(_index ${web_dir}/index.mjs)
  if(EXISTS ${_index})
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_index})
    file(READ ${_index} _js)
    set(_v "")
    if(_js MATCHES "\nexport const version = '([^']*)'")
      set(_v ${CMAKE_MATCH_1})
    endif()
    _voxnav_expect_version("${_index} (export const version = '...')" "${_v}" ${version})
  endif()
endfunction()
