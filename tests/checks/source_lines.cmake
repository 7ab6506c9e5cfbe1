# Included by the checks that read C++ sources line by line.

# The lines of SOURCE as a CMake list in OUT, blank lines too, so that element n is line n + 1
# (file(STRINGS) would skip blank lines and shift the reported line numbers). What a list cannot
# hold is changed: ';' to ',', '[' and ']' to '(' and ')'.
function(agentdesk_source_lines source out)
    file(READ "${source}" content)
    string(REPLACE ";" "," content "${content}")
    string(REPLACE "[" "(" content "${content}")
    string(REPLACE "]" ")" content "${content}")
    string(REPLACE "\n" ";" lines "${content}")
    set(${out} "${lines}" PARENT_SCOPE)
endfunction()
