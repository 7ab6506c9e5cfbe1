# cmake -DSCAN_DIR=<dir> [-DEXEMPT=<file|file>] -P check_ui_blocking_calls.cmake
# The UI thread owns widgets only (docs/architecture.md, Threads): fails when a C++ file under
# SCAN_DIR (ui/) waits for a process, runs AgentDesk's git, or reads or writes a file through
# one of the calls below, unless the line says it runs off the UI thread: the marker
# "off the UI thread" in a comment on that line or on the line just above it (the call is in
# the work given to runInBackground(), ui/common/background.h). EXEMPT lists file names (not
# paths: files may move between ui/'s folders) left as they are, each with its reason where
# the check is registered.
include(${CMAKE_CURRENT_LIST_DIR}/source_lines.cmake)
cmake_policy(SET CMP0057 NEW) # IN_LIST in script mode
set(patterns
    "waitFor(Finished|Started|ReadyRead|BytesWritten)\\("
    "waits for a process"
    "QProcess::execute\\("
    "runs a process and waits"
    "GitProcess::run\\("
    "runs git and waits"
    "SessionLog::load\\("
    "reads a session file"
    "[Pp]ages(\\(\\))?->load\\("
    "reads a paged output from a session file"
    "(SessionResumption|CodingSessionFile)::takeOver\\("
    "locks and reads a session file"
    "ProjectTrust::load\\("
    "reads the trust store"
    "SessionStore::(rename|fork|list|describe)\\("
    "reads a session file"
    "SessionStore\\([^)]*\\)\\.list\\("
    "reads the sessions' folder"
    "SessionWorktrees::(create|changes|bringBack|keepAsBranch|remove|check|unavailableReason|hasUncommittedChanges)\\("
    "runs git"
    "SessionStateFile::remove\\("
    "removes a session's files and worktree"
    "(ShellOverlay::(unsupportedReason|mount)|SandboxProbe::probe)\\("
    "runs bwrap and waits"
    "(^|[^A-Za-z_:])Q(Save)?File [A-Za-z_][A-Za-z_0-9]*[({]"
    "opens a file")
string(REPLACE "|" ";" exempt "${EXEMPT}")
# One regular expression of them all first: most lines match none (the script is slow per match).
set(any "")
list(LENGTH patterns count)
math(EXPR last "${count} - 1")
foreach(index RANGE 0 ${last} 2)
    list(GET patterns ${index} pattern)
    if(any)
        string(APPEND any "|")
    endif()
    string(APPEND any "${pattern}")
endforeach()
file(GLOB_RECURSE sources "${SCAN_DIR}/*.h" "${SCAN_DIR}/*.cpp")
set(violations 0)
foreach(source IN LISTS sources)
    file(RELATIVE_PATH shown "${SCAN_DIR}" "${source}")
    get_filename_component(name "${source}" NAME)
    if(name IN_LIST exempt)
        continue()
    endif()
    agentdesk_source_lines("${source}" lines)
    set(number 0)
    set(previous "")
    foreach(line IN LISTS lines)
        math(EXPR number "${number} + 1")
        if(line MATCHES "${any}" AND NOT line MATCHES "^[ \t]*//"
           AND NOT line MATCHES "off the UI thread" AND NOT previous MATCHES "off the UI thread")
            # The code before a trailing comment: a comment may name a call.
            string(REGEX REPLACE "//.*$" "" code "${line}")
            foreach(index RANGE 0 ${last} 2)
                list(GET patterns ${index} pattern)
                math(EXPR next "${index} + 1")
                list(GET patterns ${next} what)
                if(code MATCHES "${pattern}")
                    string(STRIP "${line}" quoted)
                    message("${shown}:${number}: ${what} on the UI thread: ${quoted}")
                    math(EXPR violations "${violations} + 1")
                    break()
                endif()
            endforeach()
        endif()
        set(previous "${line}")
    endforeach()
endforeach()
list(LENGTH sources count)
if(violations GREATER 0)
    message(FATAL_ERROR "${violations} blocking call(s) on the UI thread in ${SCAN_DIR}: run "
        "them with runInBackground() (ui/common/background.h) and mark the line "
        "\"// off the UI thread\"")
endif()
message("checked ${count} files in ${SCAN_DIR}: no blocking call on the UI thread")
