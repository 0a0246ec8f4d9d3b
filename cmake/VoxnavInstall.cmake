# cmake --install rules of the native build, and the package files find_package(voxnav) reads:
#
#   include/voxnav/*.h              the public API (src/api/voxnav) and the generated version.h
#   include/voxnav/native/*.h       the native helpers (native/include/voxnav/native)
#   lib/libvoxnav.a                 voxnav::voxnav  (the core: no I/O, no threads)
#   lib/libvoxnav_native.a          voxnav::native  (thread pool, file loaders; needs Threads, ZLIB)
#   lib/cmake/voxnav/               voxnavConfig.cmake, voxnavConfigVersion.cmake, voxnavTargets*.cmake
#   bin/voxnav                      the command-line tool (not part of the library)
#   share/doc/voxnav/LICENSE
#
# Included from the top-level CMakeLists.txt after the targets are defined (native builds only).
include(CMakePackageConfigHelpers)

set(VOXNAV_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/voxnav
  CACHE STRING "Where the voxnav CMake package files are installed (relative to the prefix)")

install(TARGETS voxnav_core voxnav_native EXPORT voxnavTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS voxnav_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers by directory: whatever public header is added later is installed without a change here.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/api/voxnav ${PROJECT_SOURCE_DIR}/native/include/voxnav
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${VOXNAV_GENERATED_INCLUDE}/voxnav/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/voxnav)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

install(EXPORT voxnavTargets NAMESPACE voxnav:: FILE voxnavTargets.cmake
  DESTINATION ${VOXNAV_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/voxnavConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/voxnavConfig.cmake
  INSTALL_DESTINATION ${VOXNAV_INSTALL_CMAKEDIR})
# Semantic versioning: before 1.0 a minor release may break the API, so 0.x.y only satisfies a
# request for the same 0.x; from 1.0 on, any release of the same major version does.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_voxnav_compat SameMinorVersion)
else()
  set(_voxnav_compat SameMajorVersion)
endif()
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/voxnavConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${_voxnav_compat})
install(FILES ${CMAKE_BINARY_DIR}/cmake/voxnavConfig.cmake
  ${CMAKE_BINARY_DIR}/cmake/voxnavConfigVersion.cmake
  DESTINATION ${VOXNAV_INSTALL_CMAKEDIR})
