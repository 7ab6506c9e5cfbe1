# Runs tests/bench/report.py on a sample of bench_ui's results and checks that it names every
# missed target (target, figure, limit) and exits 1, or, with every target met, says so and
# exits 0.
#   -DPYTHON=python3 -DREPORT=.../report.py -DRESULTS=<folder with ui.jsonl> -DEXPECT_STATUS=0|1
#   -DEXPECT=<lines the output must hold, ";"-separated>
execute_process(COMMAND ${PYTHON} ${REPORT} ui ${RESULTS}
    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT status EQUAL EXPECT_STATUS)
    message(FATAL_ERROR "report.py exited with ${status}, not ${EXPECT_STATUS}:\n${output}${errors}")
endif()
foreach(line IN LISTS EXPECT)
    string(FIND "${output}" "${line}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "report.py's output lacks \"${line}\":\n${output}")
    endif()
endforeach()
