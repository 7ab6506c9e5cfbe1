# cmake -DEXECUTABLES=<name|name> -DOBJECTS_<name>=<object|object> -DALLOWED=<regex>
#       -P check_test_odr.cmake
# The test files of a folder are linked into one executable (tests/CMakeLists.txt): a class, or
# an inline function, that two of them define for themselves under the same name would be one
# to the linker, which keeps one of the two definitions for both files without a word. Fails
# when two objects of one executable define the same external symbol whose first name is not
# ALLOWED (Qt, std, AgentDesk's own namespaces and the tests' shared headers, whose one
# definition every file includes). A test file's own code is in its own namespace (tests/CMakeLists.txt).
cmake_policy(SET CMP0057 NEW) # IN_LIST in script mode
set(problems 0)
string(REPLACE "|" ";" executables "${EXECUTABLES}")
foreach(executable IN LISTS executables)
    string(REPLACE "|" ";" objects "${OBJECTS_${executable}}")
    set(heads)
    foreach(object IN LISTS objects)
        execute_process(COMMAND nm -g --defined-only --format=posix ${object}
            OUTPUT_VARIABLE symbols RESULT_VARIABLE result)
        if(NOT result EQUAL 0)
            message(FATAL_ERROR "nm failed on ${object}")
        endif()
        get_filename_component(file ${object} NAME)
        string(REPLACE "\n" ";" lines "${symbols}")
        set(seen)
        foreach(line IN LISTS lines)
            # An Itanium-mangled name: its first name is <length><identifier>, after the prefix
            # of a vtable (_ZTV), type info (_ZTI, _ZTS) or guard (_ZGV) and a nested name's N.
            if(NOT line MATCHES "^_Z(T[VIS]|GV)?N?[VKr]*([1-9][0-9]*)([A-Za-z_][A-Za-z0-9_]*)")
                continue()
            endif()
            string(SUBSTRING "${CMAKE_MATCH_3}" 0 ${CMAKE_MATCH_2} head)
            if(head MATCHES "${ALLOWED}" OR head IN_LIST seen)
                continue()
            endif()
            list(APPEND seen ${head})
            if(DEFINED owner_${executable}_${head})
                message("${head}: defined by ${owner_${executable}_${head}} and by ${file}, "
                    "linked together into ${executable}: put it in the file's namespace, or a shared one in TestSupport")
                math(EXPR problems "${problems} + 1")
            else()
                set(owner_${executable}_${head} ${file})
            endif()
        endforeach()
    endforeach()
endforeach()
if(problems GREATER 0)
    message(FATAL_ERROR "${problems} name(s) defined by two test files of one executable")
endif()
