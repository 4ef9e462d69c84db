# Installs headers, the library, emberConfig.cmake (find_package(ember)) and ember.pc.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS ember EXPORT emberTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/ember DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT emberTargets NAMESPACE ember:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ember)

configure_package_config_file(cmake/emberConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/emberConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ember)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/emberConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/emberConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/emberConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ember)

configure_file(cmake/ember.pc.in ${CMAKE_CURRENT_BINARY_DIR}/ember.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ember.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
