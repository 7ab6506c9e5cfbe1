# cmake -DBUNDLE_DIR=DIR -DQT_PLUGINS_DIR=DIR -P installer/bundle.cmake
# Turns DIR, an installation of AgentDesk (`cmake --install BUILD --prefix DIR`), into a folder
# that runs on an older Linux of the same architecture without any of its libraries: every shared
# library agentdesk and the shipped Qt plugins need (Qt, KF6SyntaxHighlighting, QtKeychain, glibc,
# libstdc++, ...) goes to DIR/lib, found by file(GET_RUNTIME_DEPENDENCIES) like a runtime
# dependency set, with the dynamic loader they were built for. DIR/bin/agentdesk becomes a
# launcher that starts DIR/libexec/agentdesk through that loader, so no library of the host is
# mixed in and nothing needs LD_LIBRARY_PATH (which the program's own children would inherit).
# installer/make-bundle.sh runs this in the build environment and packs the folder.
cmake_minimum_required(VERSION 3.21)
foreach(var BUNDLE_DIR QT_PLUGINS_DIR)
    if(NOT ${var})
        message(FATAL_ERROR "bundle.cmake: set -D${var}=...")
    endif()
endforeach()

set(program ${BUNDLE_DIR}/libexec/agentdesk)
file(MAKE_DIRECTORY ${BUNDLE_DIR}/libexec ${BUNDLE_DIR}/lib ${BUNDLE_DIR}/plugins)
file(RENAME ${BUNDLE_DIR}/bin/agentdesk ${program})

# The plugins a desktop session needs: windows on X11 and Wayland, offscreen, input methods,
# images, TLS for the providers' HTTPS, and network reachability.
set(plugin_dirs platforms platforminputcontexts platformthemes xcbglintegrations imageformats
    iconengines tls networkinformation wayland-decoration-client wayland-graphics-integration-client
    wayland-shell-integration)
set(modules)
foreach(dir IN LISTS plugin_dirs)
    if(IS_DIRECTORY ${QT_PLUGINS_DIR}/${dir})
        file(COPY ${QT_PLUGINS_DIR}/${dir} DESTINATION ${BUNDLE_DIR}/plugins)
        file(GLOB found ${BUNDLE_DIR}/plugins/${dir}/*.so)
        list(APPEND modules ${found})
    endif()
endforeach()

# Qt's OpenSSL backend opens libssl and libcrypto by name at run time: no ELF entry names them.
# (find_library has no system paths in script mode.)
foreach(name ssl crypto)
    file(GLOB found /usr/lib/*-linux-gnu*/lib${name}.so.3 /usr/lib64/lib${name}.so.3
        /usr/lib/lib${name}.so.3)
    if(NOT found)
        message(FATAL_ERROR "bundle.cmake: no lib${name}.so.3 (OpenSSL 3) in /usr/lib")
    endif()
    list(GET found 0 ${name}_library)
endforeach()
list(APPEND modules ${ssl_library} ${crypto_library})

file(GET_RUNTIME_DEPENDENCIES
    EXECUTABLES ${program}
    MODULES ${modules}
    RESOLVED_DEPENDENCIES_VAR libraries
    UNRESOLVED_DEPENDENCIES_VAR missing)
if(missing)
    message(FATAL_ERROR "bundle.cmake: cannot find ${missing}")
endif()
list(APPEND libraries ${ssl_library} ${crypto_library})
foreach(library IN LISTS libraries)
    # Copy under the name the programs ask for (the symlink's), with the file's content.
    file(REAL_PATH ${library} target)
    get_filename_component(name ${library} NAME)
    file(COPY_FILE ${target} ${BUNDLE_DIR}/lib/${name} ONLY_IF_DIFFERENT)
endforeach()

# The loader the program names (PT_INTERP), e.g. /lib64/ld-linux-x86-64.so.2.
execute_process(COMMAND readelf --program-headers ${program}
    OUTPUT_VARIABLE headers COMMAND_ERROR_IS_FATAL ANY)
string(REGEX MATCH "interpreter: ([^]]+)\\]" _ "${headers}")
set(interpreter ${CMAKE_MATCH_1})
if(NOT interpreter)
    message(FATAL_ERROR "bundle.cmake: no program interpreter in ${program}")
endif()
get_filename_component(loader ${interpreter} NAME)
file(REAL_PATH ${interpreter} interpreter_file)
file(COPY_FILE ${interpreter_file} ${BUNDLE_DIR}/lib/${loader})

# Started through the loader, Qt takes the loader's folder for the application's: its qt.conf
# there points Qt at the bundle instead of the paths compiled into it (/usr/lib/<arch>/qt6).
file(WRITE ${BUNDLE_DIR}/lib/qt.conf "[Paths]\nPrefix = ..\nPlugins = plugins\n")

file(WRITE ${BUNDLE_DIR}/bin/agentdesk "#!/bin/sh
# AgentDesk from a relocatable bundle: the program runs with the bundle's libraries through the
# bundle's dynamic loader; the programs it starts (bash, git, rg, ...) are the host's.
bundle=$(cd \"$(dirname \"$(readlink -f \"$0\")\")/..\" && pwd -P)
exec \"$bundle/lib/${loader}\" --library-path \"$bundle/lib\" --argv0 \"$0\" \\
    \"$bundle/libexec/agentdesk\" \"$@\"
")
file(CHMOD ${BUNDLE_DIR}/bin/agentdesk ${BUNDLE_DIR}/lib/${loader}
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)
list(LENGTH libraries count)
message(STATUS "bundle: ${count} libraries, loader ${loader}")
