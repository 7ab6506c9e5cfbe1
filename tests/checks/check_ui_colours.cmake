# cmake -DSCAN_DIR=<dir> -DHOMES=<file|file> -P check_ui_colours.cmake
# ui/'s colours have one home: the theme's named colours (ThemeColors, ui/common/themecolors.cpp)
# and the Light and Dark palettes (ui/settings/theme.cpp), so that every widget reads right in
# light, dark and a desktop's colour scheme. Fails when another C++ file under SCAN_DIR names a
# colour itself: a "#rrggbb" in a style sheet or HTML, QColor(0x..) or QColor(<number>), or one
# of Qt's named colours (Qt::red). HOMES lists the file names allowed to.
include(${CMAKE_CURRENT_LIST_DIR}/source_lines.cmake)
cmake_policy(SET CMP0057 NEW) # IN_LIST in script mode
set(pattern "#[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]([^0-9a-fA-F]|$)|QColor\\((0x|[0-9])|QColor::fromRgb|Qt::(white|black|red|green|blue|yellow|cyan|magenta|gray|darkGray|lightGray|darkRed|darkGreen|darkBlue|darkYellow|darkCyan|darkMagenta)([^A-Za-z]|$)")
string(REPLACE "|" ";" homes "${HOMES}")
file(GLOB_RECURSE sources "${SCAN_DIR}/*.h" "${SCAN_DIR}/*.cpp")
set(violations 0)
foreach(source IN LISTS sources)
    file(RELATIVE_PATH shown "${SCAN_DIR}" "${source}")
    get_filename_component(name "${source}" NAME)
    if(name IN_LIST homes)
        continue()
    endif()
    agentdesk_source_lines("${source}" lines)
    set(number 0)
    foreach(line IN LISTS lines)
        math(EXPR number "${number} + 1")
        # The code before a trailing comment: a comment may name a colour.
        string(REGEX REPLACE "(^|[^:])//.*$" "\\1" code "${line}")
        if(code MATCHES "${pattern}")
            string(STRIP "${line}" quoted)
            message("${shown}:${number}: names a colour outside the theme's home: ${quoted}")
            math(EXPR violations "${violations} + 1")
        endif()
    endforeach()
endforeach()
list(LENGTH sources count)
if(violations GREATER 0)
    message(FATAL_ERROR "${violations} colour(s) named outside ThemeColors in ${SCAN_DIR}: add "
        "a named colour to ui/common/themecolors.h and use it")
endif()
message("checked ${count} files in ${SCAN_DIR}: every colour comes from the theme")
